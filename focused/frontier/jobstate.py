"""The frontier's JOBDIR state (focused.journal): a snapshot at each clean close, a journal in between.

Each admitted record and each finished request is journaled as it happens. On resume: snapshot + records
pushed since - requests finished since = the frontier. Requests handed out but not finished (in flight when
the process died) are fetched again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from focused.frontier.queues import Record
from focused.frontier.records import is_revisit
from focused.journal import Journal

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
        self.journal = Journal(jobdir, SNAPSHOT, JOURNAL)

    def load(self) -> FrontierState | None:
        """The frontier as the last run left it, cleanly closed or killed; None for a new job."""
        saved, entries = self.journal.load()
        if saved is None and not entries:
            return None
        state = FrontierState()
        if saved is not None:
            state.seq, state.admitted, state.dead = saved["seq"], saved["admitted"], set(saved["dead"])
            state.records = {record.seq: (host, record) for host, record in saved["records"]}
        for entry in entries:
            self._apply(state, entry)
        return state

    def pushed(self, host: str, record: Record) -> None:
        self.journal.append(("push", host, record))

    def finished(self, seq: int) -> None:
        self.journal.append(("done", seq))

    def save(self, seq: int, records: list[tuple[str, Record]], admitted: dict[str, int], dead: set[str]) -> Path:
        """Snapshot the frontier and start an empty journal."""
        return self.journal.save({"seq": seq, "records": records, "admitted": admitted, "dead": sorted(dead)})

    def close(self) -> None:
        self.journal.close()

    @staticmethod
    def _apply(state: FrontierState, entry: tuple) -> None:
        if entry[0] == "push":
            _, host, record = entry
            state.records[record.seq] = (host, record)
            state.admitted[host] = state.admitted.get(host, 0) + (not is_revisit(record))
            state.seq = max(state.seq, record.seq)
            state.journaled.append(record)
        elif state.records.pop(entry[1], None) is not None:
            state.finished += 1
