"""Which query parameters only vary a page: learned from the near-duplicates their URLs gave.

Sites serve one page under many URLs: display options, sort orders, revision ids, print views,
session keys (Bar-Yossef et al. 2007 call them DUST: different URLs with similar text). Each such
URL is a fetch, and each page of them links to more: a crawl that follows them spends its budget
on copies of pages it has read. Which parameters do this is a site's own vocabulary, so it is
learned per host from the crawl's outcomes: for each parameter name, the share of fetched URLs
carrying it that gave a new page rather than a near-duplicate, smoothed toward "new". A link's
chance to give a new page is the product of the shares of its parameters. A URL without a query
is never faded here, and a parameter that selects content (a search term, an id) keeps giving
new pages and keeps its links.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qsl, urlsplit

PRIOR = 2.0  # fetches' worth of belief that a parameter selects content


@lru_cache(maxsize=2**17)  # each re-scoring of the frontier asks again for up to FOCUSED_RESCORE_LIMIT links
def parameters(url: str) -> frozenset[str]:
    """The URL's query parameter names, each with its host: "host?name"."""
    parts = urlsplit(url)
    if not parts.query:
        return frozenset()
    host = parts.netloc.lower()
    return frozenset(f"{host}?{name}" for name, _ in parse_qsl(parts.query, keep_blank_values=True))


class QueryOutcomes:
    """Per host and parameter name: fetched pages whose URL carried it, and how many of them were new (plain dicts:
    JOBDIR pickles them)."""

    def __init__(self) -> None:
        self.fetched: dict[str, int] = {}
        self.new: dict[str, int] = {}

    def observe(self, url: str, new: bool) -> None:
        """A page was read at `url`: new, or a near-duplicate of one read before."""
        for parameter in parameters(url):
            self.fetched[parameter] = self.fetched.get(parameter, 0) + 1
            self.new[parameter] = self.new.get(parameter, 0) + new

    def novel(self, url: str) -> float:
        """The chance that `url` gives a page not read yet, as far as its query parameters tell: 1 without any."""
        chance = 1.0
        for parameter in parameters(url):
            chance *= (self.new.get(parameter, 0) + PRIOR) / (self.fetched.get(parameter, 0) + PRIOR)
        return chance
