"""The benchmark topics and the rule that labels their pages.

A page is relevant to a topic when its main text (as the crawler extracts it, URLs removed)
is about the topic by this deterministic rule: the topic's core word occurs at least
`min_core` times, and its terms (core word included) occur at least `min_hits` times and at
least `min_density` times per 1,000 words, or a term is in the title and the terms occur at
least `title_hits` times (the page's own title: "Title — Site" counts as "Title"). Whole words, case-insensitive. Index pages (lists of links:
genindex, modindex, cross-reference tables) are never relevant: they name topics, they are
not about one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

URLS = re.compile(r"\S+://\S+")
SITE_SUFFIX = re.compile(r"\s[—–-]\s")  # "Page title — Site name": only the page's own title counts
INDEX_PAGES = re.compile(r"/(genindex[^/]*|py-modindex|modindex|[^/]*crossref[^/]*)\.html$")


@dataclass(frozen=True)
class Topic:
    name: str
    description: str
    keywords: tuple[str, ...]  # for the profile: what a user would type
    core: str  # regular expression of the word the page must use itself
    terms: tuple[str, ...]  # regular expressions the labeling rule counts
    min_core: int
    min_hits: int
    min_density: float
    title_hits: int
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)
    core_pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        terms = (self.core, *self.terms)
        object.__setattr__(self, "pattern", re.compile(r"\b(?:" + "|".join(terms) + r")\b", re.IGNORECASE))
        object.__setattr__(self, "core_pattern", re.compile(rf"\b(?:{self.core})\b", re.IGNORECASE))

    def hits(self, text: str) -> int:
        return len(self.pattern.findall(URLS.sub(" ", text)))

    def relevant(self, url: str, title: str, text: str) -> bool:
        if INDEX_PAGES.search(url):
            return False
        text = URLS.sub(" ", text)
        if len(self.core_pattern.findall(text)) < self.min_core:
            return False
        hits, words = len(self.pattern.findall(text)), max(len(text.split()), 1)
        if self.pattern.search(SITE_SUFFIX.split(title)[0]) and hits >= self.title_hits:
            return True
        return hits >= self.min_hits and 1000 * hits / words >= self.min_density


TOPICS = (
    Topic(
        "transactions",
        "Database transactions: BEGIN, COMMIT and ROLLBACK, savepoints, isolation levels, locking, "
        "MVCC, deadlocks and concurrency control in SQL databases and ORMs.",
        ("transaction", "commit", "rollback", "savepoint", "isolation level", "locking", "deadlock", "atomic"),
        r"transactions?|transactional",
        (r"(?-i:COMMIT)", r"commit\(\)", r"rollbacks?", r"rolled back", r"savepoints?", r"isolation levels?",
         r"serializable", r"deadlocks?", r"autocommit", r"mvcc", r"two-phase commit"),
        min_core=2, min_hits=8, min_density=5.0, title_hits=3,
    ),
    Topic(
        "http",
        "The HTTP protocol in practice: requests and responses, methods, status codes, headers, cookies, "
        "caching, authentication, redirects and proxies, on clients and web servers.",
        ("http", "request", "response", "header", "status code", "cookie", "cache", "proxy"),
        r"http",
        (r"headers?", r"status codes?", r"cookies?", r"user-agent", r"content-type", r"cache-control",
         r"etag", r"redirects?", r"proxy", r"proxies"),
        min_core=3, min_hits=12, min_density=8.0, title_hits=4,
    ),
)
