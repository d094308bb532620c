"""The frontier's JOBDIR state: a snapshot at each clean close and a journal in between.

Scrapy writes JOBDIR state when a crawl closes; a crawl killed with `kill -9` (or by the
OOM killer, or a power cut of its container) would lose every URL discovered since it
started. So the scheduler also appends each admitted record and each finished request to
JOBDIR/focused.journal.N, one unbuffered write per entry, as it happens: a killed process
loses nothing the kernel has (syncing to disk per entry is left out: it costs a disk flush
per link). A clean close writes the snapshot, which names the next, empty journal.

On resume: snapshot + records pushed since - requests finished since = the frontier.
Requests handed out but not finished (in flight when the process died) are fetched again.
"""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path

from focused.frontier.queues import Record

SNAPSHOT = "focused.frontier.queues"
JOURNAL = "focused.journal.{}"


@dataclass
class FrontierState:
    seq: int = 0
    records: dict[int, tuple[str, Record]] = field(default_factory=dict)  # seq -> (host, record)
    admitted: dict[str, int] = field(default_factory=dict)
    dead: set[str] = field(default_factory=set)
    journaled: list[Record] = field(default_factory=list)  # pushed since the snapshot, fetched or not
    finished: int = 0  # requests the journal saw finish


class JobState:
    def __init__(self, jobdir: Path):
        self.jobdir = jobdir
        self.generation = 0
        self._fd: int | None = None

    def load(self) -> FrontierState | None:
        """The frontier as the last run left it, cleanly closed or killed; None for a new job."""
        state, path = FrontierState(), self.jobdir / SNAPSHOT
        if path.exists():
            with path.open("rb") as f:
                saved = pickle.load(f)  # our own JOBDIR file, as Scrapy's own disk queues
            state.seq, state.admitted, state.dead = saved["seq"], saved["admitted"], set(saved["dead"])
            state.records = {record.seq: (host, record) for host, record in saved["records"]}
            self.generation = saved.get("generation", 0)
        entries = list(self._replay())
        if not path.exists() and not entries:
            return None
        for entry in entries:
            self._apply(state, entry)
        return state

    def pushed(self, host: str, record: Record) -> None:
        self._append(("push", host, record))

    def finished(self, seq: int) -> None:
        self._append(("done", seq))

    def save(self, seq: int, records: list[tuple[str, Record]], admitted: dict[str, int], dead: set[str]) -> Path:
        """Snapshot the frontier and start an empty journal (the old one is then redundant)."""
        self.close()
        old = self._journal()
        self.generation += 1
        state = {
            "seq": seq,
            "records": records,
            "admitted": admitted,
            "dead": sorted(dead),
            "generation": self.generation,
        }
        self.jobdir.mkdir(parents=True, exist_ok=True)
        tmp = self.jobdir / (SNAPSHOT + ".tmp")
        with tmp.open("wb") as f:
            pickle.dump(state, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(self.jobdir / SNAPSHOT)
        old.unlink(missing_ok=True)
        return self.jobdir / SNAPSHOT

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _journal(self) -> Path:
        return self.jobdir / JOURNAL.format(self.generation)

    def _append(self, entry: tuple) -> None:
        if self._fd is None:
            self.jobdir.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self._journal(), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(self._fd, pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))

    def _replay(self):
        path = self._journal()
        if not path.exists():
            return
        with path.open("rb") as f:
            while True:
                try:
                    yield pickle.load(f)
                except (EOFError, pickle.UnpicklingError, ValueError):
                    return  # the end, or the last entry cut short by the kill

    @staticmethod
    def _apply(state: FrontierState, entry: tuple) -> None:
        if entry[0] == "push":
            _, host, record = entry
            state.records[record.seq] = (host, record)
            state.admitted[host] = state.admitted.get(host, 0) + 1
            state.seq = max(state.seq, record.seq)
            state.journaled.append(record)
        elif state.records.pop(entry[1], None) is not None:
            state.finished += 1
