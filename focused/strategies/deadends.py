"""Where links lead nowhere: the chance that a URL gives a page, from the fetches under its path.

Broken links come in regions, not one by one: a manual's links to language variants the
server does not have, a removed section, source files linked from every page, a generated
URL space. On the benchmark web one such region (Apache's links to its translations) took
600 of a 2,000-response crawl, a page's worth of priority each, because every link of a
relevant page inherits its relevance whether or not the link works. A fetch is worth its
page times the chance that there is a page, and that chance is estimated where the
evidence is: the outcomes of the fetches under each directory of the URL's path, each
directory's estimate shrunk toward its parent's (a directory whose every fetch was a 404 is
dead after a few). A directory not fetched yet is as alive as its parent's other directories
have been, each directory one vote, not each fetch: since broken links come in regions, sixteen
404s under one old path are one region's word, not sixteen. Pooled by fetches, the benchmark
web's old links into pandas.pydata.org/pandas-docs/ (16 404s in the first seconds of a crawl)
made its live /docs/ look dead, and the site holding most of a topic's pages waited 300 to 1,400
pages behind links worth a tenth of its one live link (docs/benchmarks.md, session 49).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from urllib.parse import urlsplit

PRIOR = 2.0  # a directory's parent counts as this many fetches of its own


@lru_cache(maxsize=2**17)  # each re-scoring of the frontier asks again for up to FOCUSED_RESCORE_LIMIT links
def directories(url: str) -> tuple[str, ...]:
    """The URL's host and each directory of its path, outermost first: http://h/a/b/c.html -> h, h/a/, h/a/b/."""
    parts = urlsplit(url)
    host, path = sys.intern(parts.netloc.lower()), ""
    found = [host]
    for segment in parts.path.split("/")[1:-1]:
        path += f"{segment}/"
        found.append(sys.intern(f"{host}/{path}"))
    return tuple(found)


class PathOutcomes:
    """Fetches and pages per directory, and per directory its subdirectories' count and summed shares of fetches
    that gave a page (plain dicts: JOBDIR pickles them)."""

    def __init__(self) -> None:
        self.fetched: dict[str, int] = {}
        self.pages: dict[str, int] = {}
        self.subdirectories: dict[str, int] = {}
        self.shares: dict[str, float] = {}  # kept as fetches come: a generated URL space has thousands

    def observe(self, url: str, page: bool) -> None:
        """A fetch of `url` gave a page (or a redirect to one), or nothing (an HTTP error, no HTML)."""
        parent = None
        for directory in directories(url):
            fetched, pages = self.fetched.get(directory, 0), self.pages.get(directory, 0)
            self.fetched[directory], self.pages[directory] = fetched + 1, pages + page
            if parent is not None:
                self.subdirectories[parent] = self.subdirectories.get(parent, 0) + (not fetched)
                before = pages / fetched if fetched else 0.0
                self.shares[parent] = self.shares.get(parent, 0.0) + (pages + page) / (fetched + 1) - before
            parent = directory

    def alive(self, url: str) -> float:
        """The chance that a fetch of `url` gives a page: 1 on a host never fetched, then each directory's
        share of fetches that gave one, smoothed toward its parent's; a directory never fetched, its siblings'."""
        estimate, prior, parent = 1.0, 1.0, None
        for directory in directories(url):
            fetched = self.fetched.get(directory, 0)
            if not fetched:
                return self._new_subdirectory(parent, prior) if parent is not None else estimate
            prior, parent = estimate, directory
            # .get: the scheduler asks from the reactor's thread (Strategy.current) as the model thread observes
            estimate = (self.pages.get(directory, 0) + PRIOR * prior) / (fetched + PRIOR)
        return estimate

    def _new_subdirectory(self, parent: str, prior: float) -> float:
        """A directory of `parent` never fetched: the mean of its fetched siblings' shares, smoothed toward the
        prior `parent`'s own estimate was (not toward the parent's pooled share: that is its busiest sibling's)."""
        return (self.shares.get(parent, 0.0) + PRIOR * prior) / (self.subdirectories.get(parent, 0) + PRIOR)
