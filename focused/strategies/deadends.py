"""Where links lead nowhere: the chance that a URL gives a page, from the fetches under its path.

Broken links come in regions, not one by one: a manual's links to language variants the
server does not have, a removed section, source files linked from every page, a generated
URL space. On the benchmark web one such region (Apache's links to its translations) took
600 of a 2,000-response crawl, a page's worth of priority each, because every link of a
relevant page inherits its relevance whether or not the link works. A fetch is worth its
page times the chance that there is a page, and that chance is estimated where the
evidence is: the outcomes of the fetches under each directory of the URL's path, each
directory's estimate shrunk toward its parent's (a new directory of a host is as alive
as the host has been; a directory whose every fetch was a 404 is dead after a few).
"""

from __future__ import annotations

from urllib.parse import urlsplit

PRIOR = 2.0  # a directory's parent counts as this many fetches of its own


def directories(url: str) -> list[str]:
    """The URL's host and each directory of its path, outermost first: http://h/a/b/c.html -> h, h/a/, h/a/b/."""
    parts = urlsplit(url)
    host, path = parts.netloc.lower(), ""
    found = [host]
    for segment in parts.path.split("/")[1:-1]:
        path += f"{segment}/"
        found.append(f"{host}/{path}")
    return found


class PathOutcomes:
    """Fetches and pages per directory (plain dicts: JOBDIR pickles them with the strategy)."""

    def __init__(self) -> None:
        self.fetched: dict[str, int] = {}
        self.pages: dict[str, int] = {}

    def observe(self, url: str, page: bool) -> None:
        """A fetch of `url` gave a page (or a redirect to one), or nothing (an HTTP error, no HTML)."""
        for directory in directories(url):
            self.fetched[directory] = self.fetched.get(directory, 0) + 1
            self.pages[directory] = self.pages.get(directory, 0) + page

    def alive(self, url: str) -> float:
        """The chance that a fetch of `url` gives a page: 1 on a host never fetched, then each directory's
        share of fetches that gave one, smoothed toward its parent's."""
        estimate = 1.0
        for directory in directories(url):
            fetched = self.fetched.get(directory, 0)
            if not fetched:
                break
            estimate = (self.pages[directory] + PRIOR * estimate) / (fetched + PRIOR)
        return estimate
