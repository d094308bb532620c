"""The frontier: compact records, one best-first queue per host, politeness-aware pops.

Mercator's back queues, with scores instead of FIFO order: a host is either *ready*
(its best record sits in a global heap ordered by score) or *waiting* (it sits in a
heap ordered by the time it may be fetched again). A pop hands out the best record
among ready hosts, so a slow or delayed host never holds up the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from heapq import heapify, heappop, heappush
from typing import Any, NamedTuple, Protocol, runtime_checkable

RECHECK_BUSY = 1.0  # seconds before a host at its concurrency limit is looked at again
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


class Frontier:
    """The in-memory frontier of one process: FrontierStore, Resting and Persistent."""

    def __init__(self) -> None:
        self._queues: dict[str, list[Record]] = {}
        self._ready: list[tuple[float, int, str]] = []  # (key, seq, host) of a ready host's best record
        self._waiting: list[tuple[float, str]] = []  # (time to look again, host)
        self._waiting_until: dict[str, float] = {}
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
        if is_best and host not in self._waiting_until:
            heappush(self._ready, (record.key, record.seq, host))

    def pop(self, now: float, wait: Wait, patience: float = 0.0, window: int = 0) -> tuple[str, Record] | None:
        """Best record of a host that may be fetched now.

        With `patience` > 0, a record outside the frontier's best `window` is not handed out
        while a better one waits on a host expected to be ready within `patience` seconds:
        the page budget goes to the best URLs, not to whichever host happens to be free.
        """
        self._wake(now)
        blockers = self._blockers(wait, patience) if patience > 0 else []
        while self._ready:
            key, seq, host = self._ready[0]
            queue = self._queues.get(host)
            if not queue or (queue[0].key, queue[0].seq) != (key, seq) or host in self._waiting_until:
                heappop(self._ready)  # stale entry: the host's best changed or it went to wait
                continue
            if blockers and min(blockers) < key and self._count_better(key, window, blockers) >= window:
                return None
            seconds, busy = wait(host)
            if busy or seconds > 0:
                heappop(self._ready)
                self._defer(host, now + (RECHECK_BUSY if busy else seconds))
                if patience > 0 and seconds <= patience:
                    blockers.append(key)
                continue
            heappop(self._ready)
            return host, self.take(host)
        return None

    def next_look(self, now: float) -> float | None:
        """Seconds until a resting host wakes (None: none rests). Responses are events the engine
        acts on; the end of a host's delay is not, so the scheduler has to be asked again then."""
        while self._waiting and self._waiting_until.get(self._waiting[0][1]) != self._waiting[0][0]:
            heappop(self._waiting)  # stale: the host was released or deferred again
        return max(0.0, self._waiting[0][0] - now) if self._waiting else None

    def best_resting(self, wait: Wait) -> str | None:
        """The best-scored host that waits only for its delay (not for a response)."""
        best: tuple[float, str] | None = None
        for host in self._waiting_until:
            queue = self._queues.get(host)
            if queue and not wait(host)[1] and (best is None or queue[0].key < best[0]):
                best = (queue[0].key, host)
        return best[1] if best else None

    def take(self, host: str) -> Record:
        """Remove and return the host's best record, whatever its readiness."""
        queue = self._queues[host]
        record = heappop(queue)
        self._size -= 1
        if not queue:
            del self._queues[host]
        elif host not in self._waiting_until:
            heappush(self._ready, (queue[0].key, queue[0].seq, host))
        return record

    def release(self, host: str, delay: float = 0.0, seq: int | None = None) -> None:
        """A request of `host` (record `seq`, or robots.txt) finished: look at the host again on the next pop
        (its delay is `wait`'s to apply)."""
        if self._waiting_until.pop(host, None) is not None and host in self._queues:
            best = self._queues[host][0]
            heappush(self._ready, (best.key, best.seq, host))

    def drop_host(self, host: str) -> int:
        """Forget every record of a host (it is dead); returns how many were dropped."""
        dropped = len(self._queues.pop(host, ()))
        self._waiting_until.pop(host, None)
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
                if host not in self._waiting_until:
                    heappush(self._ready, (queue[0].key, queue[0].seq, host))

    def records(self) -> Iterator[tuple[str, Record]]:
        for host, queue in self._queues.items():
            for record in queue:
                yield host, record

    def _blockers(self, wait: Wait, patience: float) -> list[float]:
        """Best keys of the hosts that cannot be fetched now but will be within `patience`."""
        return [
            queue[0].key
            for host in self._waiting_until
            if (queue := self._queues.get(host)) and wait(host)[0] <= patience
        ]

    def _count_better(self, key: float, limit: int, blockers: list[float]) -> int:
        """How many records would go before one scoring `key`, counting up to `limit`.

        A host about to wake takes one URL, so each blocker counts once; a ready host counts
        every better record (pruned heap walks).
        """
        count = sum(blocker < key for blocker in blockers)
        for host, queue in self._queues.items():
            if count >= limit:
                break
            if host in self._waiting_until:
                continue
            stack = [0]
            while stack and count < limit:
                i = stack.pop()
                if i < len(queue) and queue[i].key < key:
                    count += 1
                    stack += (2 * i + 1, 2 * i + 2)
        return count

    def _defer(self, host: str, when: float) -> None:
        self._waiting_until[host] = when
        heappush(self._waiting, (when, host))

    def _wake(self, now: float) -> None:
        while self._waiting and self._waiting[0][0] <= now:
            when, host = heappop(self._waiting)
            if self._waiting_until.get(host) == when:
                self.release(host)
