"""What the crawl knows of each page it holds: its validators, fingerprints, visits and the changes seen.

Every fetch of a page ends in a `Visit` (new, changed, unchanged or gone), sent by the spider and
recorded here, as does a revisit that ended without one (`Tried`) and the new links a later version brought
(`Found`). Each is logged as it happens: to JOBDIR (focused.journal), so a refresh crawl killed with
`kill -9` resumes with every visit it made, or to Redis for a shared crawl (focused.refresh.shared), where
every process applies the others' entries too and so holds the same history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol
from urllib.parse import urlsplit

from focused.frontier.urls import host_of
from focused.journal import Journal

SNAPSHOT = "focused.refresh.history"
JOURNAL = "focused.refresh.journal.{}"
# Seconds within which a Last-Modified is taken for the time of the answer, not of a change: many servers
# send the time they built the page
NOW = 2.0
KEPT = 64  # intervals between visits kept per page: an estimate follows the page's recent behavior

Change = Literal["new", "changed", "unchanged", "gone"]


class Found(NamedTuple):
    """A later version of the page at `url` linked to a URL the crawl had not seen, scored `score`."""

    url: str
    score: float


class Tried(NamedTuple):
    """A revisit of the page at `url` ended at `at` without a visit (failed, forbidden, redirected)."""

    url: str
    at: float


class Visit(NamedTuple):
    """One fetch of a page, as the spider saw it."""

    url: str
    at: float  # seconds since the epoch
    change: Change
    etag: str = ""
    last_modified: str = ""
    body: str = ""  # digest of the body: unchanged without parsing when it is the same
    content: str = ""  # digest of the text and links: unchanged when only markup around them moved
    relevance: float = 0.0


@dataclass
class PageHistory:
    url: str
    first_seen: float
    last_visit: float
    version_at: float  # when the version the collection holds was fetched
    version: int = 1
    etag: str = ""
    last_modified: str = ""
    body: str = ""
    content: str = ""
    relevance: float = 0.0
    visits: int = 1
    # The last KEPT intervals observed, each (its length if it ended in a change of unknown time, else 0; the
    # seconds the page is known to have stayed the same in it; 1 if Last-Modified dated a change in it). All the
    # evidence comes from the same window: a capped list of changes beside all the quiet time since the first
    # visit would drive a long-watched page's rate towards 0.
    window: list[tuple[float, float, int]] = field(default_factory=list)
    found: float = 0.0  # the scores of the new links its later versions brought, summed: what a revisit discovers
    tried: float = 0.0  # when a revisit last ended without a visit: the next counts from then
    tries: int = 0  # revisits that ended without a visit
    gone: bool = False

    @property
    def changed(self) -> list[float]:
        """Lengths (s) of the intervals that ended in a change whose time is unknown."""
        return [length for length, _, _ in self.window if length]

    @property
    def exposure(self) -> float:
        """Seconds the page is known not to have changed."""
        return sum(quiet for _, quiet, _ in self.window)

    @property
    def exact(self) -> int:
        """Changes whose time Last-Modified gave."""
        return sum(dated for _, _, dated in self.window)

    def dated(self, visit: Visit, since: float) -> bool:
        """Count the visit's Last-Modified as the time of the page's last change, if it falls after `since`."""
        try:
            modified = parsedate_to_datetime(visit.last_modified).timestamp()
        except (TypeError, ValueError):
            return False
        if not since <= modified <= visit.at - NOW:
            return False
        self._observed(0.0, visit.at - modified, 1)
        return True

    def _observed(self, changed: float, quiet: float, dated: int) -> None:
        self.window = [*self.window[-KEPT + 1 :], (changed, quiet, dated)]

    @property
    def generation(self) -> int:
        """Revisits ended so far, with a visit or without: a revisit is queued at most once per generation."""
        return self.visits + self.tries

    @property
    def section(self) -> tuple[str, str]:
        """The page's host and first path segment: pages of a site's section tend to change alike."""
        head, sep, _ = urlsplit(self.url).path.lstrip("/").partition("/")
        return host_of(self.url), head if sep else ""

    def observe(self, visit: Visit) -> None:
        interval = max(visit.at - self.last_visit, 0.0)
        self.last_visit, self.visits = visit.at, self.visits + 1
        if visit.change == "gone":
            self.gone = True
            return
        if visit.change == "unchanged":
            self._observed(0.0, interval, 0)
        else:
            if not self.dated(visit, visit.at - interval):
                self._observed(interval, 0.0, 0)
            self.version, self.version_at, self.relevance = self.version + 1, visit.at, visit.relevance
        self.body, self.content = visit.body or self.body, visit.content or self.content
        self.etag, self.last_modified = visit.etag or self.etag, visit.last_modified or self.last_modified


class Log(Protocol):
    """Where the history's entries go: focused.journal.Journal (JOBDIR) or focused.refresh.shared.SharedLog."""

    recovers: bool  # entries replayed on load are what a killed run left (a JOBDIR), not other processes' work

    def load(self) -> tuple[dict[str, Any] | None, list[Any]]: ...
    def append(self, entry: Any) -> None: ...
    def news(self) -> list[Any]: ...
    def save(self, snapshot: dict[str, Any]) -> Any: ...
    def close(self) -> None: ...


def jobdir_log(jobdir: Path) -> Journal:
    return Journal(jobdir, SNAPSHOT, JOURNAL)


class History:
    """The pages of the collection by URL, logged when a log is given."""

    def __init__(self, journal: Log | None = None):
        self.pages: dict[str, PageHistory] = {}
        self.journal = journal

    def __len__(self) -> int:
        return len(self.pages)

    def get(self, url: str) -> PageHistory | None:
        return self.pages.get(url)

    def record(self, visit: Visit) -> PageHistory:
        self._log(visit)
        return self._apply(visit)

    def found(self, url: str, score: float) -> None:
        if url in self.pages and self.pages[url].visits > 1:  # a first version's links are not what revisits find
            self._enter(Found(url, score))

    def tried(self, url: str, at: float) -> None:
        if url in self.pages:
            self._enter(Tried(url, at))

    def load(self) -> int:
        """The pages as the last run left them, cleanly closed or killed; returns the entries a killed run left
        (0 for a shared log: the entries after its snapshot are the other processes')."""
        if self.journal is None:
            return 0
        saved, entries = self.journal.load()
        self.pages = saved["pages"] if saved else {}
        for entry in entries:
            self._take(entry)
        return len(entries) if self.journal.recovers else 0

    def sync(self) -> list[Visit | Tried]:
        """Apply what the other processes of a shared crawl logged since the last look; returns their visits
        and the revisits that ended without one."""
        entries = self.journal.news() if self.journal else []
        return [entry for entry in entries if self._take(entry) and not isinstance(entry, Found)]

    def save(self) -> None:
        if self.journal:
            self.sync()  # a shared snapshot holds every entry up to the last one read
            self.journal.save({"pages": self.pages})

    def _log(self, entry: Visit | Found | Tried) -> None:
        if self.journal:
            self.journal.append(entry)

    def _enter(self, entry: Found | Tried) -> None:
        self._log(entry)
        self._take(entry)

    def _take(self, entry: Visit | Found | Tried) -> bool:
        """Apply one logged entry; False if it is of a page the history does not hold."""
        if isinstance(entry, Visit):
            self._apply(entry)
            return True
        page = self.pages.get(entry.url)
        if page is None:
            return False
        if isinstance(entry, Tried):
            page.tried, page.tries = entry.at, page.tries + 1
        else:
            page.found += entry.score
        return True

    def _apply(self, visit: Visit) -> PageHistory:
        page = self.pages.get(visit.url)
        if page is None or (page.gone and visit.change == "new"):
            page = self.pages[visit.url] = PageHistory(
                visit.url,
                visit.at,
                visit.at,
                visit.at,
                etag=visit.etag,
                last_modified=visit.last_modified,
                body=visit.body,
                content=visit.content,
                relevance=visit.relevance,
            )
            page.dated(visit, float("-inf"))
        elif visit.change != "new":
            page.observe(visit)
        return page
