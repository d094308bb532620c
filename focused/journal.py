"""JOBDIR state that survives `kill -9`: a snapshot at each clean close and a journal of entries in between.

Scrapy writes JOBDIR state when a crawl closes; a crawl killed with `kill -9` (or by the OOM killer, or a
power cut of its container) would lose everything since it started. So each change is also appended to
JOBDIR/<name>.journal.N as it happens, one unbuffered write per entry: a killed process loses nothing the
kernel has (syncing to disk per entry is left out: it would cost a disk flush per page or link). A clean
close writes the snapshot, which names the next, empty journal. On load: the snapshot, then the entries.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class Journal:
    recovers = True  # entries found on load were written by a run that was killed (focused.refresh.history.Log)

    def __init__(self, jobdir: Path, snapshot: str, journal: str):
        """`snapshot`: the snapshot's file name; `journal`: the journals', with {} for the generation."""
        self.jobdir, self.name, self.journal = jobdir, snapshot, journal
        self.generation = 0
        self._fd: int | None = None

    @property
    def snapshot_path(self) -> Path:
        return self.jobdir / self.name

    def load(self) -> tuple[dict[str, Any] | None, list[Any]]:
        """The last snapshot (None if there is none) and the entries journaled since it."""
        snapshot = None
        if self.snapshot_path.exists():
            with self.snapshot_path.open("rb") as f:
                snapshot = pickle.load(f)  # our own JOBDIR file, as Scrapy's own disk queues
            self.generation = snapshot.get("generation", 0)
        return snapshot, list(self._replay())

    def append(self, entry: Any) -> None:
        if self._fd is None:
            self.jobdir.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self._journal(), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(self._fd, pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))

    def news(self) -> list[Any]:
        """Entries other processes appended since the last look: none, a JOBDIR is one process's."""
        return []

    def save(self, snapshot: dict[str, Any]) -> Path:
        """Write the snapshot and start an empty journal (the old one is then redundant)."""
        self.close()
        old = self._journal()
        self.generation += 1
        self.jobdir.mkdir(parents=True, exist_ok=True)
        tmp = self.jobdir / (self.name + ".tmp")
        with tmp.open("wb") as f:
            pickle.dump({**snapshot, "generation": self.generation}, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(self.snapshot_path)
        old.unlink(missing_ok=True)
        return self.snapshot_path

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _journal(self) -> Path:
        return self.jobdir / self.journal.format(self.generation)

    def _replay(self) -> Iterator[Any]:
        path = self._journal()
        if not path.exists():
            return
        with path.open("rb") as f:
            while True:
                try:
                    yield pickle.load(f)
                except (EOFError, pickle.UnpicklingError, ValueError):
                    return  # the end, or the last entry cut short by the kill
