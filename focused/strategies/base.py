"""The strategy contract: turn the evidence about unfetched links into scores.

A strategy only says how promising each link is (Frontera's split between strategy
and storage); the frontier and the politeness rules decide what is fetched when.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scrapy.utils.misc import build_from_crawler, load_object

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

    from focused.extract import Link
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
    credibility: float = 1.0  # how far to believe what the page says about its links (focused/credibility.py)
    signals: dict[str, float] = field(default_factory=dict)  # contributions that scored the page itself
    info: dict[str, Any] = field(default_factory=dict)  # the evidence of the link that led here (meta["focused"])


@dataclass(frozen=True)
class Scored:
    score: float
    signals: dict[str, float]  # each signal's contribution to the score


class Strategy:
    name = "base"

    def __init__(self, profile: Profile, settings: Any):
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

    def dead_end(self, url: str, info: dict[str, Any]) -> None:
        """A link whose fetch gave no page to read (an HTTP error, not HTML): a learning strategy learns
        that links like it waste fetches. `info` is the link's evidence (meta["focused"])."""

    def outranks(self, url: str, earlier: str) -> bool:
        """Whether the page at `url` is the original of the earlier page it repeats: by default the page read
        first is."""
        return False

    def disown(self, url: str) -> bool:
        """The earlier page at `url` was a copy: take back what it was credited with. True if it had been
        judged relevant."""
        return False


def load_strategy(crawler: Crawler, name: str, profile: Profile) -> Strategy:
    """Build the strategy registered under `name` in FOCUSED_STRATEGIES."""
    return build_from_crawler(load_object(crawler.settings.getdict("FOCUSED_STRATEGIES")[name]), crawler, profile)
