"""The frontier's ordering rules, as pure logic."""

from __future__ import annotations

import math

from focused.frontier.probation import LOOK_TTL, Probation
from focused.frontier.queues import SOON, Frontier, Record

READY = (0.0, False)


def record(score: float, seq: int, url: str = "") -> Record:
    return Record(-score, seq, url or f"http://h/{seq}", 0)


def always_ready(host: str) -> tuple[float, bool]:
    return READY


def drain(frontier: Frontier, wait=always_ready, **kwargs) -> list[tuple[str, float]]:
    out = []
    while (got := frontier.pop(0.0, wait, **kwargs)) is not None:
        out.append((got[0], got[1].score))
    return out


def test_best_first_across_hosts_and_fifo_on_ties():
    frontier = Frontier()
    for seq, (host, score) in enumerate([("a", 0.1), ("b", 0.9), ("a", 0.5), ("b", 0.5), ("c", 0.5)]):
        frontier.push(host, record(score, seq))
    assert drain(frontier) == [("b", 0.9), ("a", 0.5), ("b", 0.5), ("c", 0.5), ("a", 0.1)]
    assert len(frontier) == 0 and frontier.hosts == 0


def test_a_waiting_host_does_not_block_ready_hosts():
    frontier = Frontier()
    for seq in range(5):
        frontier.push("slow", record(0.9, seq))
    frontier.push("fast", record(0.1, 10))
    frontier.push("fast", record(0.1, 11))
    wait = lambda host: (5.0, False) if host == "slow" else READY  # noqa: E731
    assert drain(frontier, wait) == [("fast", 0.1), ("fast", 0.1)]
    assert len(frontier) == 5
    assert frontier.pop(6.0, always_ready)[0] == "slow"  # its delay is over


def test_patience_waits_for_a_better_url_on_a_resting_host_unless_within_the_window():
    frontier = Frontier()
    frontier.push("good", record(0.9, 1))
    frontier.push("good", record(0.8, 2))
    frontier.push("junk", record(0.1, 3))
    resting = lambda host: (0.5, False) if host == "good" else READY  # noqa: E731
    assert frontier.pop(0.0, resting, patience=1.0, window=1) is None  # worth waiting 0.5 s for
    assert frontier.pop(0.0, resting, patience=1.0, window=2)[0] == "junk"  # a resting host counts once
    frontier.push("junk", record(0.1, 4))
    assert frontier.pop(0.0, resting, patience=0.2, window=1)[0] == "junk"  # not worth 0.5 s


def test_busy_hosts_come_back_when_released():
    frontier = Frontier()
    frontier.push("a", record(0.5, 1))
    busy = lambda host: (math.inf, True)  # noqa: E731
    assert frontier.pop(0.0, busy) is None
    assert frontier.pop(0.0, always_ready) is None  # deferred: not looked at before its recheck
    frontier.release("a")
    assert frontier.pop(0.0, always_ready)[0] == "a"


def test_best_resting_host_is_the_best_scored_one_due_soon_waiting_for_its_delay():
    frontier = Frontier()
    frontier.push("a", record(0.2, 1))
    frontier.push("b", record(0.7, 2))
    frontier.push("c", record(0.9, 3))
    frontier.push("d", record(0.95, 4))
    wait = {"a": (1.0, False), "b": (1.5, False), "c": (0.1, True), "d": (SOON + 1, False)}.__getitem__
    assert frontier.pop(0.0, wait) is None
    assert frontier.best_resting(wait) == "b"  # c waits for a response; d rests longer than SOON


def test_a_resting_host_whose_last_record_was_taken_rests_no_more():
    """The scheduler parks the best resting host's request (takes it while the host waits for its delay);
    asked again before that request ends, it must not be offered a host with nothing left (a KeyError in a
    benchmark crawl, session 78)."""
    frontier = Frontier()
    frontier.push("a", record(0.9, 1))
    frontier.push("b", record(0.5, 2))
    wait = {"a": (1.0, False), "b": (2.0, False)}.__getitem__
    assert frontier.pop(0.0, wait) is None
    assert frontier.best_resting(wait) == "a"
    assert frontier.take("a").seq == 1
    assert frontier.best_resting(wait) == "b"


def test_dropping_a_dead_host():
    frontier = Frontier()
    for seq in range(3):
        frontier.push("dead", record(0.9, seq))
    frontier.push("alive", record(0.1, 9))
    assert frontier.drop_host("dead") == 3
    assert drain(frontier) == [("alive", 0.1)]


def test_next_look_is_when_the_first_resting_host_wakes():
    """The end of a host's delay is no event, so the scheduler asks the frontier when to look again."""
    frontier = Frontier()
    frontier.push("a", record(0.9, 1))
    frontier.push("b", record(0.5, 2))
    assert frontier.next_look(0.0) is None
    delays = {"a": (0.3, False), "b": (0.7, False)}
    assert frontier.pop(0.0, delays.get) is None
    assert math.isclose(frontier.next_look(0.1), 0.2)
    frontier.release("a")  # its response came: the wake-up at 0.3 is stale now
    assert math.isclose(frontier.next_look(0.1), 0.6)
    assert frontier.next_look(2.0) == 0.0


def test_a_new_site_has_one_request_out_until_one_of_its_pages_is_relevant():
    probation = Probation()
    assert not probation.busy("docs.example", 0.0)
    probation.handed_out("docs.example", 1, 0.0)
    assert probation.busy("docs.example", 1.0) and probation.busy("www.docs.example", 1.0)  # one site: one look
    assert not probation.busy("other.example", 1.0)
    assert probation.finished(2, proves=True) is None  # not a look
    assert probation.finished(1, proves=False) == "docs.example"  # done with: the next request may go
    assert not probation.busy("docs.example", 2.0)
    probation.handed_out("docs.example", 3, 2.0)  # still on probation: one at a time
    assert probation.busy("docs.example", 2.0)
    assert probation.finished(3, proves=True) == "docs.example"
    probation.handed_out("www.docs.example", 4, 3.0)  # off probation: no longer held
    assert not probation.busy("docs.example", 3.0) and probation.finished(4, proves=False) is None


def test_a_baselines_site_is_held_for_its_first_request_only():
    probation = Probation(until_relevant=False)
    probation.handed_out("docs.example", 1, 0.0)
    assert probation.busy("docs.example", 1.0)
    assert probation.finished(1, proves=False) == "docs.example"
    probation.handed_out("docs.example", 2, 2.0)
    assert not probation.busy("docs.example", 2.0)


def test_a_look_no_signal_ended_stops_holding_its_site():
    probation = Probation()
    probation.handed_out("gone.example", 1, 0.0)
    assert probation.busy("gone.example", LOOK_TTL - 1) and not probation.busy("gone.example", LOOK_TTL)
