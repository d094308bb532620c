"""Which kinds of link bear out the relevance of the page they are on: learned from what their pages gave.

A page's links are scored on its relevance (topical locality: relevant pages link to relevant pages). That holds
of the links a reader follows, not of a site's templates: every page of a manual links to its printable version,
its source file and its history ("Printable version", "Show source", "Page history"), its display options, its
other releases, its site's search for each of its tags. From a relevant page each of these was lifted by its
verdict, and, since their URLs name the page, by its words: on the held-out topics the pages behind them (copies,
revision logs, search results) were fetched as early as the topic's own pages (docs/benchmarks.md, session 94).

A kind of link is its anchor text, as words, on the host of the page it is on. Per kind: the relevance the pages
it was on handed down (their credible relevance), and how much of it the pages it gave delivered (theirs: a copy
delivers nothing new), against the same ratio over every link the crawl followed. A kind that delivers less than
links do in general fades as far; one that delivers as much ("Next" in a manual of the topic) keeps its score.
Each host's ratio is shrunk toward the kind's over every host, that toward the crawl's: sites built with one
tool share its templates ("Show source" on every Sphinx manual). An anchor met once ("unittest — Unit testing
framework") stays at the crawl's ratio: it names its page. A link that gave no page is alive()'s to judge.
"""

from __future__ import annotations

from functools import lru_cache

from focused.frontier.urls import host_of
from focused.strategies.variants import halved

# relevance handed down's worth of belief in the ratio one level up: the kind's over every host's, the crawl's
PRIOR = 2.0


@lru_cache(maxsize=2**17)  # each re-scoring of the frontier asks again for up to FOCUSED_RESCORE_LIMIT links
def kinds(parent_url: str | None, anchor: str) -> tuple[str, str]:
    """A link's kind over every host and on its page's host: its anchor's words, and those after the host."""
    words = " ".join(anchor.lower().split())
    return words, f"{host_of(parent_url or '')} {words}"


class KindOutcomes:
    """Per kind of link, over every host and per host: the relevance handed down by the pages its followed links were
    on, and what their pages delivered of it (plain dicts: JOBDIR pickles them)."""

    def __init__(self) -> None:
        self.promised: dict[str, float] = {}
        self.delivered: dict[str, float] = {}
        self.total = [0.0, 0.0]  # over every link followed: promised, delivered
        self.reported: dict[str, float] = {}  # per kind on its host: share() when last told

    def observe(self, parent_url: str | None, anchor: str, handed: float, gave: float) -> bool:
        """A link on a page of relevance `handed` gave a page of relevance `gave`. True when its kind's share has
        halved since last told: the links of that kind queued are due a re-score."""
        delivered = min(gave, handed)  # a kind is not owed more than its pages handed down
        self.total[0] += handed
        self.total[1] += delivered
        keys = kinds(parent_url, anchor)
        for key in keys:
            self.promised[key] = self.promised.get(key, 0.0) + handed
            self.delivered[key] = self.delivered.get(key, 0.0) + delivered
        return halved(self.reported, keys[1], self.share(parent_url, anchor))

    def share(self, parent_url: str | None, anchor: str) -> float:
        """How far links of this kind bore out their pages' relevance, as a share of how far links do: 1 at most,
        and before anything is known of the kind."""
        overall = (self.total[1] + 1) / (self.total[0] + 1)
        estimate = overall
        for key in kinds(parent_url, anchor):
            estimate = (self.delivered.get(key, 0.0) + PRIOR * estimate) / (self.promised.get(key, 0.0) + PRIOR)
        return min(1.0, estimate / overall)
