"""Which layout of a JOBDIR this version reads: a job is resumed only by a version that writes the same.

A JOBDIR holds pickles of this package's objects (the strategy's models and pending outcomes in
`spider.state`, the frontier's records in its snapshot and journal). Unpickled by a version whose
classes have another shape, they load without complaint and fail later, mid-crawl: a learned
strategy saved before session 72 kept its pending link outcomes as pairs, and the first batch after
a resume would have stopped the crawl. So the layout is written beside them, and a crawl that would
resume another layout stops before it starts, naming both, with the JOBDIR untouched: the version
that wrote it can still finish it.
"""

from __future__ import annotations

from pathlib import Path

from scrapy.exceptions import UsageError

FORMAT = 7  # bump whenever a class pickled in a JOBDIR changes shape
MARKER = "focused.format"


def check_format(jobdir: str | Path | None) -> None:
    """UsageError when `jobdir` holds a job written in another layout; a new or empty JOBDIR is fine."""
    if not jobdir:
        return
    found = written_format(Path(jobdir))
    if found not in (None, str(FORMAT)):
        raise UsageError(
            f"JOBDIR {jobdir} holds a job in layout {found}, and this version resumes layout {FORMAT} "
            "only: finish the job with the version that started it, or start a new one in another JOBDIR "
            "(nothing in this one was changed)"
        )


def mark_format(jobdir: str | None) -> None:
    """Record this version's layout in a JOBDIR it is about to write (made by scrapy.utils.job.job_dir)."""
    if jobdir:
        (Path(jobdir) / MARKER).write_text(f"{FORMAT}\n")


def written_format(jobdir: Path) -> str | None:
    """The layout a JOBDIR was written in: None for a new job, "0" for one from before layouts were recorded."""
    marker = jobdir / MARKER
    if marker.exists():
        return marker.read_text().strip()
    return "0" if jobdir.is_dir() and any(jobdir.iterdir()) else None
