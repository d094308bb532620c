"""The frontier: compact records, one best-first queue per host, politeness-aware pops.

Mercator's back queues, with scores instead of FIFO order: a host is either *ready*
(its best record sits in a global heap ordered by score) or *waiting* (it sits in a
heap ordered by the time it may be fetched again). A pop hands out the best record among
ready hosts, so a slow or delayed host never holds up the others. Hosts due within SOON
seconds are also kept by their best record, for patience and parking: no pop looks at a
host resting longer, so a frontier of many hosts resting on their delays pops as fast as a
small one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from heapq import heapify, heappop, heappush
from itertools import count
from typing import Any, NamedTuple, Protocol, runtime_checkable

RECHECK_BUSY = 1.0  # seconds before a host at its concurrency limit is looked at again
SOON = 2.0  # seconds: resting hosts due within this (or the patience, if longer) are indexed by their best record
# wait(host) -> (seconds until the host may be fetched, whether it is at its concurrency limit)
Wait = Callable[[str], tuple[float, bool]]


class Record(NamedTuple):
    """One queued URL. Tuples are a fraction of a Request's size; ordering is (key, seq)."""

    key: float  # minus the score: heaps pop the smallest
    seq: int  # arrival order, breaks ties first-in first-out
    url: str
    depth: int
    anchor: str = ""
    context: str = ""
    parent_url: str | None = None
    parent_relevance: float | None = None
    signals: tuple = ()  # (signal names, their contributions to the score as packed float32)
    request: dict[str, Any] | None = None  # a non-link request (redirect, retry), as request_to_dict

    @property
    def score(self) -> float:
        return -self.key


class FrontierStore(Protocol):
    """What the scheduler asks of every frontier: records in, the best one it may fetch now out, re-scoring."""

    def __len__(self) -> int: ...
    @property
    def hosts(self) -> int: ...
    def next_seq(self, seq: int) -> int: ...
    def push(self, host: str, record: Record) -> None: ...
    def pop(self, now: float, wait: Wait, patience: float = 0.0, window: int = 0) -> tuple[str, Record] | None: ...
    def next_look(self, now: float) -> float | None: ...
    def drop_host(self, host: str) -> int: ...
    def sample(self, limit: int) -> list[Record]: ...
    def rescore(self, updates: dict[int, tuple[float, tuple]], records: list[Record] | None = None) -> None: ...


@runtime_checkable
class Resting(Protocol):
    """A frontier that rests its hosts itself (one process): told when a host's request ended, and able to hand
    out a resting host's best record for the downloader to hold until the host's delay ends."""

    def release(self, host: str, delay: float = 0.0, seq: int | None = None) -> None: ...
    def best_resting(self, wait: Wait) -> str | None: ...
    def take(self, host: str) -> Record: ...


@runtime_checkable
class Persistent(Protocol):
    """A frontier the scheduler saves to JOBDIR (a shared one persists where it lives)."""

    def records(self) -> Iterator[tuple[str, Record]]: ...


@runtime_checkable
class Shared(Protocol):
    """A frontier shared by processes: it must hear when each record it handed out is done with, and get back
    what a closing process did not finish."""

    def finished(self, seq: int) -> None: ...
    def close(self) -> None: ...


class Rest(NamedTuple):
    """A waiting host: looked at again at `when`, expected to take a request at `ready_at`; its index entries
    carrying another `token` are out of date (it changed its best record since)."""

    when: float
    ready_at: float
    token: int


class Frontier:
    """The in-memory frontier of one process: FrontierStore, Resting and Persistent."""

    def __init__(self) -> None:
        self._queues: dict[str, list[Record]] = {}
        self._ready: list[tuple[float, int, str]] = []  # (key, seq, host) of a ready host's best record
        self._waiting: list[tuple[float, str]] = []  # (time to look again, host)
        self._rests: dict[str, Rest] = {}  # the waiting hosts
        # Index entries of waiting hosts: current while their token is the host's Rest's (the others are skipped,
        # then dropped).
        self._resting: list[tuple[float, int, str]] = []  # (expected ready time, token, host), soonest first
        self._soon: list[tuple[float, int, int, float, str]] = []  # (key, seq, token, ready time, host), best first
        self._horizon = float("-inf")  # hosts due by then are in _soon
        self._tokens = count()
        self._size = 0

    def __len__(self) -> int:
        return self._size

    @property
    def hosts(self) -> int:
        return len(self._queues)

    def next_seq(self, seq: int) -> int:
        """The number of the next record (a shared frontier numbers records for all processes)."""
        return seq + 1

    def push(self, host: str, record: Record) -> None:
        queue = self._queues.setdefault(host, [])
        is_best = not queue or record < queue[0]
        heappush(queue, record)
        self._size += 1
        if is_best:
            self._best_changed(host)

    def pop(self, now: float, wait: Wait, patience: float = 0.0, window: int = 0) -> tuple[str, Record] | None:
        """Best record of a host that may be fetched now.

        With `patience` > 0, a record outside the frontier's best `window` is not handed out
        while a better one waits on a host expected to be ready within `patience` seconds:
        the page budget goes to the best URLs, not to whichever host happens to be free.
        """
        self._wake(now)
        self._advance(now + max(patience, SOON))
        while self._ready:
            key, seq, host = self._ready[0]
            queue = self._queues.get(host)
            if not queue or (queue[0].key, queue[0].seq) != (key, seq) or host in self._rests:
                heappop(self._ready)  # stale entry: the host's best changed or it went to wait
                continue
            if patience > 0 and self._held_back(key, now + patience, window):
                return None
            seconds, busy = wait(host)
            if busy or seconds > 0:
                heappop(self._ready)
                self._defer(host, now + (RECHECK_BUSY if busy else seconds), now + seconds)
                continue
            heappop(self._ready)
            return host, self.take(host)
        return None

    def next_look(self, now: float) -> float | None:
        """Seconds until a resting host wakes (None: none rests). Responses are events the engine
        acts on; the end of a host's delay is not, so the scheduler has to be asked again then."""
        while self._waiting and not self._due(*self._waiting[0]):
            heappop(self._waiting)  # stale: the host was released or deferred again
        return max(0.0, self._waiting[0][0] - now) if self._waiting else None

    def best_resting(self, wait: Wait) -> str | None:
        """The best-scored host that waits only for its delay (not for a response)."""
        return next((host for _, _, host in self._soon_best_first() if not wait(host)[1]), None)

    def take(self, host: str) -> Record:
        """Remove and return the host's best record, whatever its readiness. A host left with nothing rests no
        more: taken while resting (a parked request), it would be offered again with nothing to take."""
        queue = self._queues[host]
        record = heappop(queue)
        self._size -= 1
        if not queue:
            del self._queues[host]
            self._rests.pop(host, None)
        else:
            self._best_changed(host)
        return record

    def release(self, host: str, delay: float = 0.0, seq: int | None = None) -> None:
        """A request of `host` (record `seq`, or robots.txt) finished: look at the host again on the next pop
        (its delay is `wait`'s to apply)."""
        if self._rests.pop(host, None) is not None and host in self._queues:
            self._best_changed(host)

    def drop_host(self, host: str) -> int:
        """Forget every record of a host (it is dead); returns how many were dropped."""
        dropped = len(self._queues.pop(host, ()))
        self._rests.pop(host, None)
        self._size -= dropped
        return dropped

    def sample(self, limit: int) -> list[Record]:
        """Up to `limit` records to re-score: all of them, or the front of every host's heap
        (where its best records are)."""
        if self._size <= limit:
            return [record for queue in self._queues.values() for record in queue]
        share = max(1, limit // len(self._queues))
        return [record for queue in self._queues.values() for record in queue[:share]][:limit]

    def rescore(self, updates: dict[int, tuple[float, tuple]], records: list[Record] | None = None) -> None:
        """Give records (by seq) new keys and signals, then restore every heap."""
        for host, queue in self._queues.items():
            changed = False
            for i, record in enumerate(queue):
                update = updates.get(record.seq)
                if update is not None:
                    queue[i] = record._replace(key=update[0], signals=update[1])
                    changed = True
            if changed:
                heapify(queue)
                self._best_changed(host)

    def records(self) -> Iterator[tuple[str, Record]]:
        for host, queue in self._queues.items():
            for record in queue:
                yield host, record

    def _held_back(self, key: float, horizon: float, window: int) -> bool:
        """Whether `window` records better than `key` are expected by `horizon`: each host resting until then
        counts once (it will take one URL), hosts resting longer not at all. The walk stops at the first
        host due soon whose best record is not better than `key`."""
        better = 0
        for best, ready_at, _ in self._soon_best_first():
            if best >= key:
                return False
            if ready_at <= horizon:
                better += 1
                if better >= window:
                    return True
        return False

    def _soon_best_first(self) -> Iterator[tuple[float, float, str]]:
        """(Best key, expected ready time, host) of the hosts due soon, best first: a walk of the heap in order,
        through a small heap of the entries it has reached."""
        heap = self._soon
        while heap and not self._current(heap[0][2], heap[0][4]):
            heappop(heap)
        reached = [(heap[0], 0)] if heap else []
        while reached:
            (key, _, token, ready_at, host), i = heappop(reached)
            if self._current(token, host):
                yield key, ready_at, host
            for child in (2 * i + 1, 2 * i + 2):
                if child < len(heap):
                    heappush(reached, (heap[child], child))

    def _advance(self, horizon: float) -> None:
        """Index by their best record the resting hosts due by `horizon`."""
        self._horizon = max(self._horizon, horizon)
        while self._resting and self._resting[0][0] <= self._horizon:
            _, token, host = heappop(self._resting)
            if self._current(token, host):
                self._index_soon(host, token)

    def _index_soon(self, host: str, token: int) -> None:
        best = self._queues[host][0]
        heappush(self._soon, (best.key, best.seq, token, self._rests[host].ready_at, host))
        if len(self._soon) > 4 * len(self._rests) + 64:  # mostly stale: rebuild
            self._soon = [entry for entry in self._soon if self._current(entry[2], entry[4])]
            heapify(self._soon)

    def _current(self, token: int, host: str) -> bool:
        rest = self._rests.get(host)
        return rest is not None and rest.token == token

    def _due(self, when: float, host: str) -> bool:
        """Whether a `_waiting` entry is the host's current one (not released or deferred again since)."""
        rest = self._rests.get(host)
        return rest is not None and rest.when == when

    def _best_changed(self, host: str) -> None:
        """The host's best record is new (pushed, taken, re-scored) or the host woke or went to rest: index it
        again where it belongs now."""
        best = self._queues[host][0]
        rest = self._rests.get(host)
        if rest is None:
            heappush(self._ready, (best.key, best.seq, host))
            return
        rest = self._rests[host] = rest._replace(token=next(self._tokens))
        if rest.ready_at <= self._horizon:
            self._index_soon(host, rest.token)
        else:
            heappush(self._resting, (rest.ready_at, rest.token, host))

    def _defer(self, host: str, when: float, ready_at: float) -> None:
        """The host waits: looked at again at `when`, expected to take a request at `ready_at`."""
        self._rests[host] = Rest(when, ready_at, -1)
        heappush(self._waiting, (when, host))
        self._best_changed(host)

    def _wake(self, now: float) -> None:
        while self._waiting and self._waiting[0][0] <= now:
            when, host = heappop(self._waiting)
            if self._due(when, host):
                self.release(host)
