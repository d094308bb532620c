"""The strategy contract: turn the evidence about unfetched links into scores.

A strategy only says how promising each link is (Frontera's split between strategy
and storage); the frontier and the politeness rules decide what is fetched when.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from scrapy.utils.misc import build_from_crawler, load_object

from focused.frontier.evidence import LinkEvidence

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

    from focused.pages.extract import Link
    from focused.profile import Profile


@dataclass(frozen=True)
class ParentPage:
    """What is known about the page the links were found on."""

    url: str
    depth: int
    relevance: float  # 0 for a near-duplicate: its links are not promoted
    relevant: bool
    duplicate: bool = False
    redirects: tuple[str, ...] = ()  # URLs that redirected here: fetches spent on their hosts too
    credibility: float = 1.0  # how far to believe what the page says about its links (focused/pages/credibility.py)
    novelty: float = 1.0  # the share of its text that is its own, as credibility counted it
    judged: bool = True  # its text is long enough for the content envelope to judge (credibility.judges)
    signals: dict[str, float] = field(default_factory=dict)  # contributions that scored the page itself
    info: LinkEvidence = field(default_factory=LinkEvidence)  # the evidence of the link that led here


@dataclass(frozen=True)
class Scored:
    score: float
    signals: dict[str, float]  # each signal's contribution to the score


class Strategy:
    """Everything the spider, the model worker and the scheduler ask of a strategy; a strategy whose scores
    change as the crawl learns bumps `version`, and the scheduler then has queued links scored again."""

    name = "base"
    version = 0  # bumped when queued links' scores should change: the scheduler then calls rescore
    # A new site's requests go one at a time until one of its pages is judged relevant (focused.frontier.probation);
    # False: only until its first is done with, so that a baseline's order owes nothing to the classifier.
    probation = False

    def __init__(self, profile: Profile, settings: BaseSettings):
        self.profile = profile

    @classmethod
    def from_crawler(cls, crawler: Crawler, profile: Profile) -> Self:
        return cls(profile, crawler.settings)

    def seed(self, url: str) -> Scored:
        """Seeds come before anything they lead to."""
        return Scored(1.0, {"seed": 1.0})

    def score(self, parent: ParentPage, links: list[Link]) -> list[Scored]:
        """Scores for the links found on a fetched page (a learning strategy learns from the page first)."""
        raise NotImplementedError

    def rescore(self, infos: list[LinkEvidence]) -> list[Scored]:
        """Scores for queued links (each with its `url`) from what is known now; called only once `version`
        was bumped, so a strategy that never bumps it need not answer."""
        raise NotImplementedError

    def current(self, info: LinkEvidence) -> Scored | None:
        """The queued link's score as it would be now, from the `signals` it was scored with, without asking a
        model (the scheduler asks as it hands the link out); None when the strategy cannot tell."""
        return None

    def dead_end(self, url: str, info: LinkEvidence) -> None:
        """A link whose fetch gave no page to read (an HTTP error, not HTML): a learning strategy learns
        that links like it waste fetches."""

    def original(self, url: str, earlier: str) -> bool | None:
        """Whether the page at `url` is the original of the earlier page it repeats (True) or its copy (False);
        None when the strategy cannot tell: by default it cannot (the order pages were read in says nothing)."""
        return None

    def disown(self, url: str, share: float = 1.0) -> bool:
        """`share` of the text of the earlier page at `url` was another's: take back what it was credited with
        for it. True if the page had been judged relevant and nothing new of it is left."""
        return False


def load_strategy(crawler: Crawler, name: str, profile: Profile) -> Strategy:
    """Build the strategy registered under `name` in FOCUSED_STRATEGIES."""
    return build_from_crawler(load_object(crawler.settings.getdict("FOCUSED_STRATEGIES")[name]), crawler, profile)
