"""Refresh crawls (focused.refresh): the estimators and the schedule on hand-computed cases, the history's
journal, the freshness evaluation, and refresh crawls of the local web in motion over real HTTP."""

from __future__ import annotations

import json
import math
import shutil
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path

import numpy as np
import pytest
import redis
from scrapy.exceptions import UsageError
from scrapy.settings import Settings
from warcio.archiveiterator import ArchiveIterator

from focused.addon import with_defaults
from focused.evaluation.freshness import freshness_report
from focused.evaluation.inputs import Fetch
from focused.refresh.estimate import posterior_rates, regular_rate
from focused.refresh.history import History, Visit, jobdir_log
from focused.refresh.revisits import Pace, Revisits
from focused.refresh.schedule import POLICIES, freshness, optimal, proportional, stale_value, uniform
from focused.refresh.shared import SharedClaims, SharedLog, SharedPace
from focused.spiders.focused import check_refresh
from testbed.harness import crawl_command, crawl_env
from tests.conftest import FAST, REPO, WebServer, crawl, start_web
from tests.test_distributed import KEY, items, start

# --- the estimators (Cho & Garcia-Molina 2003) ---------------------------------------------


def test_regular_visits_use_the_bias_reduced_estimator():
    # 10 daily visits, 3 of which found a change: -log((10 - 3 + 0.5) / (10 + 0.5)) per day
    assert regular_rate(10, 3, 86400) * 86400 == pytest.approx(-math.log(7.5 / 10.5))
    assert math.isfinite(regular_rate(10, 10, 60))  # every visit saw a change: still an estimate


def test_without_a_prior_the_posterior_is_the_maximum_likelihood_rate():
    # regular intervals I: sum over changed t/(e^{rI}-1) = unchanged time gives r = log(n / (n - X)) / I
    rate = posterior_rates([[3600.0] * 3], np.array([7 * 3600.0]), np.array([0]), np.array([1.0]), strength=0)[0]
    assert rate == pytest.approx(math.log(10 / 7) / 3600, rel=1e-6)


def test_a_page_never_seen_to_change_gets_the_prior_discounted_by_its_quiet_time():
    # no changed interval: the Gamma posterior's mode s / (U + s / prior), in closed form
    rates = posterior_rates([[], []], np.array([0.0, 100.0]), np.array([0, 0]), np.array([0.1, 0.1]), strength=1)
    assert rates == pytest.approx([0.1, 1 / (100 + 10)], rel=1e-6)


def test_changes_dated_by_last_modified_give_the_exponential_rate():
    # three changes whose times are known, each a seconds before a visit: r = k / sum(a) without a prior
    rate = posterior_rates([[]], np.array([30.0 + 60.0 + 90.0]), np.array([3]), np.array([1.0]), strength=0)[0]
    assert rate == pytest.approx(3 / 180, rel=1e-6)


def test_the_posterior_solves_its_stationary_equation():
    t, unchanged, prior = np.array([10.0, 40.0]), 50.0, 0.02
    rate = posterior_rates([t], np.array([unchanged]), np.array([0]), np.array([prior]))[0]
    gradient = np.sum(t / np.expm1(rate * t)) - unchanged + 1 / rate - 1 / prior
    assert abs(gradient) < 1e-6


# --- the schedule (Cho & Garcia-Molina 2000) --------------------------------------------------


def test_freshness_of_a_page_visited_as_often_as_it_changes():
    assert freshness(0.01, 0.01) == pytest.approx(1 - math.exp(-1))
    assert freshness(0.01, 0.0) == 0.0


def test_the_optimal_schedule_spends_the_budget_and_gives_up_on_pages_too_fast_to_follow():
    rates = np.array([1 / 5, 1 / 50, 1 / 500, 1 / 5000])
    frequencies = optimal(rates, np.ones(4), 0.02)
    assert frequencies.sum() == pytest.approx(0.02, rel=1e-3)
    assert frequencies[0] == 0.0  # changes every 5 s: with one fetch every 50 s, not worth one
    assert frequencies[1] > frequencies[2] > frequencies[3] > 0


def test_the_optimal_schedule_beats_uniform_and_proportional_on_random_collections():
    rng = np.random.default_rng(3)
    for _ in range(20):
        rates, weights = 10 ** rng.uniform(-4, -0.5, 200), rng.uniform(0.1, 1, 200)
        budget = float(rng.uniform(0.1, 2))
        scores = {
            policy.__name__: float(np.sum(weights * freshness(rates, policy(rates, weights, budget))))
            for policy in (optimal, uniform, proportional)
        }
        assert scores["optimal"] >= scores["uniform"] - 1e-9
        assert scores["optimal"] >= scores["proportional"] - 1e-9


def test_a_revisit_is_worth_the_chance_the_copy_went_stale():
    assert stale_value(0.5, 0.01, 100) == pytest.approx(0.5 * (1 - math.exp(-1)))
    assert stale_value(1.0, 0.01, 0) == 0.0


def test_the_pace_never_lets_more_than_the_rate_out():
    pace, sent, now = Pace(4.0), [], 0.0
    while now < 10:
        if pace.take(now) == 0:
            if round(now * 100) % 3:  # now and then nothing to fetch: the slot is given back
                pace.refund()
            else:
                sent.append(now)
        now += 0.01
    assert len(sent) <= 10 * 4 + 1
    assert min(np.diff(sent)) >= 0.25 - 1e-9


# --- the history -------------------------------------------------------------------------


def test_the_history_replays_its_journal_after_a_kill(tmp_path: Path):
    history = History(jobdir_log(tmp_path))
    history.record(Visit("http://a.example/", 100.0, "new", '"v1"', "", "sha1:A", "c1", 0.9))
    history.record(Visit("http://a.example/", 160.0, "unchanged", '"v1"'))
    history.record(Visit("http://a.example/", 200.0, "changed", '"v2"', "", "sha1:B", "c2", 0.8))
    history.record(Visit("http://a.example/", 300.0, "changed", '"v3"', formatdate(250.0, usegmt=True), "sha1:C"))
    history.found("http://a.example/", 0.7)  # a new link on a later version: what revisiting it discovers
    history.found("http://c.example/", 0.9)  # not a page of the collection: nothing to credit
    history.record(Visit("http://b.example/", 120.0, "new"))
    history.found("http://b.example/", 0.9)  # a first version's links are not what a revisit finds
    history.record(Visit("http://b.example/", 130.0, "gone"))
    history.journal.close()  # no save: the process died
    again = History(jobdir_log(tmp_path))
    assert again.load() == 7
    page = again.get("http://a.example/")
    assert (page.version, page.etag, page.body, page.visits) == (3, '"v3"', "sha1:C", 4)
    # 100 -> 160 unchanged; 160 -> 200 changed at some time; changed at 250 (Last-Modified), then not till 300
    assert (page.changed, page.exact, page.exposure) == ([40.0], 1, 60.0 + 50.0)
    assert page.found == 0.7 and again.get("http://b.example/").found == 0.0
    assert again.get("http://b.example/").gone
    again.save()  # a clean close: the snapshot holds it all, the new journal nothing
    reloaded = History(jobdir_log(tmp_path))
    assert reloaded.load() == 0
    assert reloaded.get("http://a.example/").version == 3


def test_a_long_watched_pages_rate_does_not_drift():
    """A page found changed at every other visit, 10 s apart: its estimate after 1,000 visits is the one 60 gave
    (its changes and its quiet time come from the same window of visits; with a capped list of changes beside
    all the quiet time, it fell tenfold)."""
    history, url = History(), "http://a.example/"
    history.record(Visit(url, 0.0, "new"))
    rates = {}
    for visit in range(1, 1001):
        history.record(Visit(url, 10.0 * visit, "changed" if visit % 2 == 0 else "unchanged"))
        if visit in (60, 1000):
            page = history.get(url)
            evidence = [page.changed], np.array([page.exposure]), np.array([page.exact]), np.array([0.05])
            rates[visit] = posterior_rates(*evidence)[0]
    assert rates[1000] == pytest.approx(rates[60], rel=0.01)


def test_due_pages_become_conditional_gets_worth_their_staleness():
    history = History()
    history.record(Visit("http://a.example/x", 0.0, "new", '"a1"', "Thu, 01 Jan 1970 00:00:00 GMT", relevance=1.0))
    history.record(Visit("http://b.example/y", 0.0, "new", relevance=0.0))
    history.record(Visit("http://c.example/z", 0.0, "new"))
    history.record(Visit("http://c.example/z", 1.0, "gone"))
    revisits = Revisits(history, POLICIES["uniform"], 0.1, 0.1)  # 2 live pages: each due every 20 s
    assert revisits.requests(10.0, None) == []
    due = {request.url: request for request in revisits.requests(21.0, None)}
    assert set(due) == {"http://a.example/x", "http://b.example/y"}  # the gone page is not revisited
    a, b = due["http://a.example/x"], due["http://b.example/y"]
    assert a.headers[b"If-None-Match"] == b'"a1"' and b"If-Modified-Since" in a.headers
    assert a.dont_filter and set(a.meta["handle_httpstatus_list"]) >= {304, 404, 410}
    assert a.meta["focused"]["score"] > b.meta["focused"]["score"] > 0  # relevance weighs the staleness
    assert revisits.requests(22.0, None) == []  # queued: not handed out twice
    revisits.ended("http://b.example/y", 25.0)  # its fetch failed: due again a period later
    revisits.visited(Visit("http://a.example/x", 26.0, "unchanged"))
    assert revisits.next_due(26.0) == pytest.approx(19.0)
    assert revisits.requests(44.0, None) == []  # re-planned at 44: b's period counts from its failed fetch
    assert [r.url for r in revisits.requests(45.0, None)] == ["http://b.example/y"]


def test_a_shared_history_is_the_same_in_every_process(redis_url: str):
    def process() -> History:
        history = History(SharedLog(redis.Redis.from_url(redis_url), KEY))
        assert history.load() == 0  # the entries it reads are the other processes' work, not a crash to report
        return history

    a, b = process(), process()
    a.record(Visit("http://a.example/", 100.0, "new", '"a1"'))
    b.record(Visit("http://b.example/", 101.0, "new"))
    assert [entry.url for entry in b.sync()] == ["http://a.example/"]  # the others' entries, not its own
    assert [entry.url for entry in a.sync()] == ["http://b.example/"]
    b.tried("http://a.example/", 150.0)  # b's revisit of a's page failed: a hears of it
    a.record(Visit("http://a.example/", 160.0, "changed", '"a2"'))
    assert [type(entry).__name__ for entry in a.sync()] == ["Tried"]
    assert a.get("http://a.example/").generation == 3
    a.save()  # a clean close: the snapshot holds everything read, the stream keeps the rest
    b.record(Visit("http://b.example/", 170.0, "unchanged"))
    c = process()
    assert len(c) == 2 and c.get("http://a.example/").etag == '"a2"' and c.get("http://b.example/").visits == 2


def test_a_due_page_is_claimed_once_per_generation_and_the_pace_is_the_crawls(redis_url: str):
    a, b = redis.Redis.from_url(redis_url), redis.Redis.from_url(redis_url)
    assert SharedClaims(a, KEY).take("http://a.example/", 3)
    assert not SharedClaims(b, KEY).take("http://a.example/", 3)  # queued by a: b's revisit would repeat it
    assert not SharedClaims(b, KEY).take("http://a.example/", 2)  # b's history is behind
    assert SharedClaims(b, KEY).take("http://a.example/", 4)  # visited since: the next revisit is b's to queue
    pace_a, pace_b = SharedPace(a, KEY, 1.0), SharedPace(b, KEY, 1.0)  # a second: more than two calls ever take
    assert pace_a.take(0.0) == 0.0
    assert 0.0 < pace_b.take(0.0) <= 1.0  # a took the slot: b waits out the crawl's interval
    pace_a.refund()  # a had nothing to fetch after all
    assert pace_b.take(0.0) == 0.0


# --- the freshness evaluation ----------------------------------------------------------------


def test_freshness_and_age_of_one_page_computed_by_hand():
    # changes at 10 and 30; copies fetched at 0 and 20: fresh [0, 10), stale [10, 20), fresh [20, 30), stale [30, 40]
    truth = {"start": 1000.0, "pages": {"http://a.example/": {"born": 0.0, "changes": [10.0, 30.0], "relevant": True}}}
    fetches = [Fetch("http://a.example/", 1000.0, "new"), Fetch("http://a.example/", 1020.0, "changed")]
    report = freshness_report(truth, fetches, 1000.0, 1040.0)
    assert report["freshness"]["relevant"] == pytest.approx(0.5, abs=0.01)
    assert report["age_seconds"]["all"] == pytest.approx(2.5, abs=0.1)  # stale 20 s of 40, 5 s old on average then
    assert report["changes"] == {"made": 2, "captured": 1, "share": 0.5}


# --- refresh crawls of the local web in motion -------------------------------------------------

MOTION = ["--fastest", "10", "--slowest", "1000", "--births", "0.2", "--deaths", "0.5", "--horizon", "300"]
# Five hosts, crawled whole by the first crawl (about 250 pages), so that revisits, not the discovery of the
# rest of the web, take a refresh crawl's fetches: two send validators, two do not, one has a Crawl-delay.
DOMAINS = '["portal.example", "sqlzone.example", "dbtalk.example", "news.example", "slow.example"]'
RATE = 12.0
REFRESH = {**FAST, "FOCUSED_REFRESH_RATE": RATE, "CONCURRENT_REQUESTS_PER_DOMAIN": 1}


@dataclass
class Collection:
    server: WebServer
    directory: Path
    profile: Path

    def copy(self, tmp_path: Path) -> Path:
        """A JOBDIR of the first crawl's, for a test's refresh crawl."""
        shutil.copytree(self.directory / "job", tmp_path / "job")
        return tmp_path / "job"


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Collection]:
    """The local web in motion, and a first crawl of it into a JOBDIR (copied by each test)."""
    directory = tmp_path_factory.mktemp("motion")
    profile = directory / "five.toml"
    sql = (REPO / "profiles" / "sql.toml").read_text()
    profile.write_text(sql.replace("allowed_domains = []", f"allowed_domains = {DOMAINS}"))
    server = start_web(directory, 0.0, "testbed.localweb", "--dynamic", str(directory / "truth.json"), *MOTION)
    first = crawl(directory, server.proxy, profile, settings={**FAST, "JOBDIR": directory / "job"}, name="first")
    assert first.returncode == 0 and len(first.items) >= 200
    yield Collection(server, directory, profile)
    server.process.terminate()
    server.process.wait()


@pytest.mark.e2e
def test_a_refresh_crawl_revisits_conditionally_at_its_rate_and_politely(collected: Collection, tmp_path: Path):
    server, directory, jobdir = collected.server, collected.directory, collected.copy(tmp_path)
    since = time.time()
    done = crawl(
        tmp_path,
        server.proxy,
        collected.profile,
        settings={**REFRESH, "JOBDIR": jobdir, "CLOSESPIDER_TIMEOUT": 20, "FOCUSED_WARC": tmp_path / "refresh.warc.gz"},
        name="updates",
        mode="refresh",
    )
    assert done.returncode == 0, done.log[-2000:]
    log = [e for e in server.entries() if e["t"] >= since and e["path"] != "/robots.txt"]
    times = np.array(sorted(e["t"] for e in log))
    # the rate, for the whole crawl: in any window of 2 s at most 2 x RATE + 1 fetches
    assert len(times) > RATE * 10
    assert max(np.searchsorted(times, times + 2.0) - np.arange(len(times))) <= 2 * RATE + 1
    # politeness per host still holds: one request at a time, and slow.example's Crawl-delay of 0.5 s
    assert max(e["page_concurrency"] for e in log) == 1
    slow = sorted(e["t"] for e in log if e["host"] == "slow.example")
    assert all(later - earlier >= 0.45 for earlier, later in zip(slow, slow[1:]))
    # conditional GETs from the stored validators; a 304 is not parsed (no page, no item)
    conditional = [e for e in log if e["conditional"]]
    not_modified = sum(e["status"] == 304 for e in log)
    assert conditional and not_modified > 0
    assert {e["host"] for e in conditional} <= {e["host"] for e in log} - {"dbtalk.example", "news.example"}
    assert done.stat("focused/refresh/unchanged/not_modified") == not_modified
    assert done.stat("focused/pages") == done.stat("focused/refresh/new") + done.stat("focused/refresh/changed")
    assert done.stat("focused/refresh/unchanged/same_body") > 0  # the hosts that ignore validators
    # in the WARC, an unchanged fetch is a revisit record referring to the version it repeats
    with (tmp_path / "refresh.warc.gz").open("rb") as warc:
        profiles = Counter(
            record.rec_headers.get_header("WARC-Profile", "").rsplit("/", 1)[-1]
            for record in ArchiveIterator(warc)
            if record.rec_type == "revisit"
        )
    assert profiles["server-not-modified"] == not_modified
    assert profiles["identical-payload-digest"] == done.stat("focused/refresh/unchanged/same_body")
    # an item only for what changed: new, changed (with its version and the previous one's time) or gone, once
    changes = Counter(item["change"] for item in done.items)
    assert set(changes) <= {"new", "changed", "gone"} and changes["changed"] > 0
    assert all(item["version"] >= 2 and item["previous"] for item in done.items if item["change"] == "changed")
    gone = [item["url"] for item in done.items if item["change"] == "gone"]
    assert gone and len(gone) == len(set(gone))  # articles die at 0.2 a second on this web
    truth = json.loads((directory / "truth.json").read_text())["pages"]
    assert all(truth[url]["died"] is not None for url in gone)
    history = History(jobdir_log(jobdir))
    history.load()
    assert all(history.get(url).gone for url in gone)
    assert all(page.etag for page in history.pages.values() if "//sqlzone.example/" in page.url)
    assert not any(page.etag for page in history.pages.values() if "//dbtalk.example/" in page.url)


@pytest.mark.e2e
def test_a_refresh_crawl_killed_with_kill_9_resumes_its_history(collected: Collection, tmp_path: Path):
    server, jobdir = collected.server, collected.copy(tmp_path)
    before = sum(page.visits for page in _history(jobdir).pages.values())
    settings = {**REFRESH, "JOBDIR": jobdir, "LOG_FILE": tmp_path / "killed.log"}
    command = crawl_command(collected.profile, "lexical", tmp_path / "updates.jsonl", settings, True, "refresh")
    since = time.time()
    process = subprocess.Popen(command, cwd=REPO, env=crawl_env(server.proxy), stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while sum(e["t"] >= since and e["conditional"] for e in server.entries()) < 40 and time.monotonic() < deadline:
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    answered = sum(e["t"] >= since and e["path"] != "/robots.txt" for e in server.entries())
    killed = _history(jobdir)
    recovered = sum(page.visits for page in killed.pages.values()) - before
    # every page whose item was written has its visit; the others lost are those in flight at the kill
    written = [json.loads(line)["url"] for line in (tmp_path / "updates.jsonl").read_text().splitlines()]
    assert all(killed.get(url).last_visit >= since for url in written)
    assert answered - 16 <= recovered <= answered
    again = crawl(
        tmp_path,
        server.proxy,
        collected.profile,
        settings={**REFRESH, "JOBDIR": jobdir, "CLOSESPIDER_TIMEOUT": 5},
        mode="refresh",
    )
    assert again.returncode == 0 and "the history's journal recovered" in again.log
    assert sum(page.visits for page in _history(jobdir).pages.values()) > before + recovered


@pytest.mark.e2e
def test_a_shared_refresh_crawl_revisits_each_due_page_once_at_the_crawls_rate(
    collected: Collection, tmp_path: Path, redis_url: str
):
    server, profile, settings = collected.server, collected.profile, {"CONCURRENT_REQUESTS_PER_DOMAIN": 1}
    first = [start(f"c{i}", tmp_path, server.proxy, redis_url, 0, profile, **settings) for i in range(2)]
    assert [process.wait(timeout=300) for process in first] == [0, 0]
    collection = {item["url"] for name in ("c0", "c1") for item in items(tmp_path / f"{name}.jsonl")}
    since = time.time()
    refresh = {**settings, "FOCUSED_REFRESH_RATE": RATE, "FOCUSED_REFRESH_POLICY": "uniform", "CLOSESPIDER_TIMEOUT": 15}
    processes = [start(f"r{i}", tmp_path, server.proxy, redis_url, 0, profile, "refresh", **refresh) for i in range(2)]
    assert [process.wait(timeout=120) for process in processes] == [0, 0]
    log = [e for e in server.entries() if e["t"] >= since and e["path"] != "/robots.txt"]
    assert {e["ua"] for e in log} == {"focused-test/r0", "focused-test/r1"}
    # the rate is the crawl's, not each process's: in any window of 2 s at most 2 x RATE + 1 fetches
    times = np.array(sorted(e["t"] for e in log))
    assert len(times) > RATE * 8
    assert max(np.searchsorted(times, times + 2.0) - np.arange(len(times))) <= 2 * RATE + 1
    assert max(e["page_concurrency"] for e in log) == 1
    # each due page revisited by one process (uniformly, a page is due every 20 s: once in these 15 s)
    revisited = Counter(f"http://{e['host']}{e['path']}" for e in log)
    assert len(collection & set(revisited)) > RATE * 5
    assert max(revisited.values()) == 1, revisited.most_common(3)
    # the history both processes kept in Redis holds the revisits; items only for what changed
    history = History(SharedLog(redis.Redis.from_url(redis_url), KEY))
    history.load()
    assert len(history) >= len(collection)
    assert sum(page.visits > 1 for page in history.pages.values()) >= 0.9 * len(collection & set(revisited))
    changes = Counter(item["change"] for name in ("r0", "r1") for item in items(tmp_path / f"{name}.jsonl"))
    assert set(changes) <= {"new", "changed", "gone"} and changes["changed"] > 0


def _history(jobdir: Path) -> History:
    history = History(jobdir_log(jobdir))
    history.load()
    history.journal.close()
    return history


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        ({}, "add -s JOBDIR="),
        ({"JOBDIR": "job", "FOCUSED_REFRESH_RATE": 0}, "FOCUSED_REFRESH_RATE must be above 0"),
        ({"JOBDIR": "job", "FOCUSED_REFRESH_POLICY": "greedy"}, "unknown FOCUSED_REFRESH_POLICY 'greedy'"),
    ],
)
def test_a_refresh_crawl_that_cannot_work_says_why_before_it_starts(settings: dict, problem: str):
    defaults = with_defaults(Settings())
    defaults.setdict(settings, priority="cmdline")
    with pytest.raises(UsageError, match=problem):
        check_refresh(defaults)
