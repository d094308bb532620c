"""Mirrors: one host serving another's pages under the same paths (Bharat & Broder 1999).

A page that repeats a page read on another host pairs two URLs whose paths end alike:
`docs-archive.example/httpd.apache.org/docs/2.4/logs.html` and `httpd.apache.org/docs/2.4/logs.html` share
`docs/2.4/logs.html`; what precedes it is a rule (`docs-archive.example/httpd.apache.org/` is a copy of
`httpd.apache.org/`). Once CONFIRMATIONS pairs of read pages agree on a rule, a link into the copy is requested
at its original's URL instead: the crawl spends one fetch per page, on the host it trusts more, and the seen
test drops what it already has. Near-duplicate tests find a copy only after fetching it; this stops the fetches.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

CONFIRMATIONS = 3  # pairs of pages read that agree on one rule before it rewrites a link
COPIED = 0.8  # a page this much of whose text was first read on one other page is a copy of it (or its original)

Rule = tuple[str, str, str, str, str]  # the copy's netloc and path prefix; the original's scheme, netloc, path prefix


def rule(copy: str, original: str) -> Rule | None:
    """The rule a pair of repeated pages suggests, if their hosts differ and their paths end alike."""
    c, o = urlsplit(copy), urlsplit(original)
    if c.netloc == o.netloc or c.query != o.query:
        return None
    mine, theirs = c.path.split("/"), o.path.split("/")
    shared = 0
    while shared < min(len(mine), len(theirs)) - 1 and mine[-1 - shared] == theirs[-1 - shared]:
        shared += 1
    if not any(mine[len(mine) - shared :]):  # nothing but a trailing slash in common
        return None
    prefix = "/".join(mine[: len(mine) - shared]) + "/"
    return c.netloc, prefix, o.scheme, o.netloc, "/".join(theirs[: len(theirs) - shared]) + "/"


@dataclass
class Mirrors:
    """The rules seen and those confirmed; lives in spider.state (kept by JOBDIR)."""

    seen: Counter[Rule] = field(default_factory=Counter)
    confirmed: dict[str, tuple[Rule, ...]] = field(default_factory=dict)  # by the copy's netloc

    def observe(self, copy: str, original: str) -> Rule | None:
        """A page read at `copy` repeats the one at `original`; the rule this confirms, if it is a new one. If trust
        changed sides between pairs, the first direction confirmed stands (links would go round)."""
        found = rule(copy, original)
        if found is None:
            return None
        self.seen[found] += 1
        if self.seen[found] != CONFIRMATIONS or self._reverse_confirmed(found):
            return None
        self.confirmed[found[0]] = (*self.confirmed.get(found[0], ()), found)
        return found

    def original_of(self, url: str) -> str:
        """The URL of the page `url` copies under a confirmed rule, else `url`."""
        if not self.confirmed:  # asked for every link and every pop: most crawls find no mirror
            return url
        parts = urlsplit(url)
        for _, prefix, scheme, netloc, target in self.confirmed.get(parts.netloc, ()):
            if parts.path.startswith(prefix):
                query = f"?{parts.query}" if parts.query else ""
                return f"{scheme}://{netloc}{target}{parts.path[len(prefix) :]}{query}"
        return url

    def _reverse_confirmed(self, found: Rule) -> bool:
        netloc, prefix, _, original, target = found
        return any(r[1] == target and r[3] == netloc and r[4] == prefix for r in self.confirmed.get(original, ()))
