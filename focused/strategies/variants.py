"""Which query parameters only vary a page: learned from the near-duplicates their URLs gave.

Sites serve one page under many URLs: display options, sort orders, revision ids, print views,
session keys (Bar-Yossef et al. 2007 call them DUST: different URLs with similar text). Each such
URL is a fetch, and each page of them links to more: a crawl that follows them spends its budget
on copies of pages it has read. Which parameters do this is learned from the crawl's outcomes:
for each parameter name, the share of fetched URLs carrying it that gave a new page rather than a
near-duplicate. Per host, since a name is a site's own vocabulary, each host's share shrunk toward
the name's share over every host, and that toward "new": sites built on one platform share its
parameters (theme, sort, sessionid, oldid), so a second site's display options need not be learned
again from scratch. A link's chance to give a new page is the product of the shares of its
parameters. A URL without a query is never faded here, and a parameter that selects content (a
search term, an id, a page number) keeps giving new pages and keeps its links.

The same holds of paths: a manual with a version switcher answers each page again under every other
release's directory (/docs/15/ssl.html, /docs/16/ssl.html), a mirror under its own prefix; and a
server that accepts path info answers a page's URL used as a directory (/docs/ssl.html/print) with
the page, whose relative links then lead on below it. A link whose path, below some directory, was
read already under a sibling of its own directory, or that goes on below a page read in it, is such a
repeat: per directory, the share of repeats read that were new pages, shrunk toward the share over its
host, and that toward "new". Translations, same-named pages of other sections (every section's
index.html) and a wiki's subpages keep giving new pages, and keep their links.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from urllib.parse import parse_qsl, urlsplit

BELOW = "+"  # marks a directory's (and its host's) repeats below a page read
PRIOR = 2.0  # fetches' worth of belief in the estimate one level up: every host's for a host's, "new" for that


@lru_cache(maxsize=2**17)  # each re-scoring of the frontier asks again for up to FOCUSED_RESCORE_LIMIT links
def parameters(url: str) -> frozenset[tuple[str, str]]:
    """The URL's query parameters as (name over every host, "host?name")."""
    parts = urlsplit(url)
    if not parts.query:
        return frozenset()
    host = parts.netloc.lower()
    return frozenset((f"?{name}", f"{host}?{name}") for name, _ in parse_qsl(parts.query, keep_blank_values=True))


def halved(reported: dict, key: Hashable, chance: float) -> bool:
    """Whether `chance` is half or less of what was last reported for `key`; what is reported follows it down by
    halves, and up at once."""
    told = reported.get(key, 1.0)
    if chance <= told / 2 or chance > told:
        reported[key] = chance
    return chance <= told / 2


class QueryOutcomes:
    """Per parameter name, over every host and per host: fetched pages whose URL carried it, and how many of them
    were new (plain dicts: JOBDIR pickles them)."""

    def __init__(self) -> None:
        self.fetched: dict[str, int] = {}
        self.new: dict[str, int] = {}
        self.reported: dict[frozenset[tuple[str, str]], float] = {}  # per set of parameters: novel() when last told

    def observe(self, url: str, new: bool) -> bool:
        """A page was read at `url`: new, or a near-duplicate of one read before. True when the chance of URLs with
        its parameters has halved since it was last told: the links scored before (a page's other options, queued
        with it) are due a re-score."""
        for keys in parameters(url):
            for key in keys:
                self.fetched[key] = self.fetched.get(key, 0) + 1
                self.new[key] = self.new.get(key, 0) + new
        return halved(self.reported, parameters(url), self.novel(url))

    def novel(self, url: str) -> float:
        """The chance that `url` gives a page not read yet, as far as its query parameters tell: 1 without any."""
        chance = 1.0
        for keys in parameters(url):
            estimate = 1.0
            for key in keys:
                estimate = (self.new.get(key, 0) + PRIOR * estimate) / (self.fetched.get(key, 0) + PRIOR)
            chance *= estimate
        return chance


def _host(directory: str) -> str:
    return directory.split("/", 1)[0]


@lru_cache(maxsize=2**17)
def branches(url: str) -> tuple[tuple[str, str, str], ...]:
    """(directory, its subdirectory on the path, the path below that) at each level: http://h/a/b/c.html ->
    (h/, a, b/c.html), (h/a/, b, c.html). Nothing for a URL with a query: that is the parameters' to judge."""
    parts = urlsplit(url)
    if parts.query:
        return ()
    host, segments = parts.netloc.lower(), parts.path.split("/")[1:]
    return tuple(
        (f"{host}/{''.join(s + '/' for s in segments[:i])}", segments[i], "/".join(segments[i + 1 :]))
        for i in range(len(segments) - 1)
    )


class SiblingOutcomes:
    """Per directory, the pages read whose path below it repeated a path read under another of its subdirectories,
    or went on below a page read in it, and how many of them were new; which subdirectory each path below a
    directory was first read under, and the pages read (plain dicts and a set)."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], str] = {}  # (directory, path below a subdirectory) -> that subdirectory
        self.pages: set[str] = set()  # host/path of every page read whose path names a file, not a directory
        self.fetched: dict[str, int] = {}  # per directory, and per host: its directories' repeats together
        self.new: dict[str, int] = {}
        self.reported: dict[str, float] = {}

    def repeats(self, url: str) -> list[str]:
        """The directories under which `url` repeats a path read under a sibling subdirectory, and those in which it
        goes on below a page read, marked BELOW: two kinds of repeat, learned apart, since a site's same-named
        pages (every section's index.html) say nothing of its print views."""
        found = []
        for directory, sub, below in branches(url):
            if self.first.get((directory, below), sub) != sub:
                found.append(directory)
            if directory + sub in self.pages:
                found.append(BELOW + directory)
        return found

    def observe(self, url: str, new: bool) -> bool:
        """A page was read at `url`: new, or a near-duplicate. True when a directory's chance of new repeats has
        halved since last told: the sibling links queued with the first repeats are due a re-score."""
        told = False
        for directory in self.repeats(url):
            for key in (_host(directory), directory):
                self.fetched[key] = self.fetched.get(key, 0) + 1
                self.new[key] = self.new.get(key, 0) + new
            told |= halved(self.reported, directory, self.chance(directory))
        for directory, sub, below in branches(url):
            self.first.setdefault((directory, below), sub)
        parts = urlsplit(url)
        if not parts.query and not parts.path.endswith("/"):
            self.pages.add(parts.netloc.lower() + parts.path)
        return told

    def chance(self, directory: str) -> float:
        """The share of repeats under `directory` that were new, shrunk toward its host's, that toward 1: not toward
        every host's, as a name is, since one manual's hundred copies say nothing of another site's index pages."""
        host = _host(directory)
        hosts = (self.new.get(host, 0) + PRIOR) / (self.fetched.get(host, 0) + PRIOR)
        return (self.new.get(directory, 0) + PRIOR * hosts) / (self.fetched.get(directory, 0) + PRIOR)

    def novel(self, url: str) -> float:
        """The chance that `url` gives a page not read yet, as far as its repeats of read paths tell: 1 without any."""
        chance = 1.0
        for directory in self.repeats(url):
            chance *= self.chance(directory)
        return chance
