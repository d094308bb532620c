"""Lexical best-first with inherited relevance, after shark-search (Hersovici et al. 1998).

    score(link)  = gamma * inherited(link)
                 + (1 - gamma) * (w_anchor * sim(anchor) + w_context * sim(words around)
                                  + w_url * sim(URL words))
    inherited(link) = decay * relevance(parent)   if the parent is relevant
                    = decay * inherited(parent)   otherwise

sim is the cosine similarity to the profile's description and keywords. Relevance
passed down through irrelevant pages fades by `decay` per link, so the crawler tunnels
a few steps away from relevant pages, then gives up on a path.
"""

from __future__ import annotations

from scrapy.settings import BaseSettings

from focused.pages.extract import Link
from focused.profile import Profile
from focused.relevance.similarity import TopicSimilarity
from focused.strategies.base import ParentPage, Scored, Strategy


class Lexical(Strategy):
    name = "lexical"

    def __init__(self, profile: Profile, settings: BaseSettings):
        super().__init__(profile, settings)
        self.similarity = TopicSimilarity(profile)
        self.decay = settings.getfloat("FOCUSED_LEXICAL_DECAY")
        self.gamma = settings.getfloat("FOCUSED_LEXICAL_INHERIT")
        weights = settings.getdict("FOCUSED_LEXICAL_WEIGHTS")
        total = sum(weights.values())
        self.weights = {name: (1 - self.gamma) * weights[name] / total for name in ("anchor", "context", "url")}

    def score(self, parent: ParentPage, links: list[Link]) -> list[Scored]:
        if not links:
            return []
        inherited = self.decay * (parent.relevance if parent.relevant else self._inherited(parent))
        sims = self.similarity.links([k.anchor for k in links], [k.context for k in links], [k.url for k in links])
        scored = []
        for i in range(len(links)):
            signals = {
                "inherited": self.gamma * inherited,
                "anchor": self.weights["anchor"] * float(sims[0, i]),
                "context": self.weights["context"] * float(sims[1, i]),
                "url": self.weights["url"] * float(sims[2, i]),
            }
            scored.append(Scored(sum(signals.values()), signals))
        return scored

    def _inherited(self, parent: ParentPage) -> float:
        """The parent's own inherited relevance, recovered from its signal contribution."""
        return parent.signals.get("inherited", 0.0) / self.gamma if self.gamma else 0.0
