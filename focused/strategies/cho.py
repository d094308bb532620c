"""The orderings of Cho, Garcia-Molina & Page (1998), so their comparison can be rerun.

- backlink: most in-links seen so far first (their IB'), counted live on the crawled graph.
- pagerank: PageRank estimated on the crawled graph (their IR'), recomputed every
  FOCUSED_RESCORE_INTERVAL pages; a URL not yet ranked scores 0.
- hotqueue: their similarity crawler (Algorithm 5.3 of the slides). A URL goes to the hot
  queue if its anchor or URL contains a profile keyword, or if it lies fewer than
  FOCUSED_HOTQUEUE_DISTANCE links from a relevant page; each queue is ordered by backlinks.
  "Relevant" is the crawl's page classifier, as for every other strategy.

Scores change as the graph grows, so each strategy bumps `version` every
FOCUSED_RESCORE_INTERVAL pages and the scheduler re-scores the frontier.
"""

from __future__ import annotations

import re

import numpy as np
from scrapy.settings import BaseSettings

from focused.frontier.evidence import LinkEvidence
from focused.pages.extract import Link
from focused.profile import Profile
from focused.relevance.similarity import url_words
from focused.strategies.base import ParentPage, Scored, Strategy
from focused.strategies.importance import LinkGraph


class Backlink(Strategy):
    name = "backlink"

    def __init__(self, profile: Profile, settings: BaseSettings):
        super().__init__(profile, settings)
        self.interval = settings.getint("FOCUSED_RESCORE_INTERVAL")
        self.graph = LinkGraph()
        self.pages = 0
        self.version = 0

    def score(self, parent: ParentPage, links: list[Link]) -> list[Scored]:
        self._observe(parent)
        self.graph.add_links(parent.url, [link.url for link in links])
        self.pages += 1
        if self.pages % self.interval == 0:
            self._update()
        return self.rescore([LinkEvidence(url=link.url, anchor=link.anchor, parent_url=parent.url) for link in links])

    def rescore(self, infos: list[LinkEvidence]) -> list[Scored]:
        return [self._scored(info) for info in infos]

    def _observe(self, parent: ParentPage) -> None:
        """What a subclass learns from a fetched page before its links are scored."""

    def _update(self) -> None:
        self.version += 1

    def _scored(self, info: LinkEvidence) -> Scored:
        value = float(self.graph.backlinks(info["url"]))
        return Scored(value, {"backlinks": value})


class PageRank(Backlink):
    name = "pagerank"

    def __init__(self, profile: Profile, settings: BaseSettings):
        super().__init__(profile, settings)
        self.rank = np.zeros(0)

    def _update(self) -> None:
        self.rank = self.graph.pagerank() * len(self.graph)  # 1 is an average page
        super()._update()

    def _scored(self, info: LinkEvidence) -> Scored:
        number = self.graph.nodes.get(info["url"], len(self.rank))
        value = float(self.rank[number]) if number < len(self.rank) else 0.0
        return Scored(value, {"pagerank": value})


class HotQueue(Backlink):
    name = "hotqueue"

    def __init__(self, profile: Profile, settings: BaseSettings):
        super().__init__(profile, settings)
        self.limit = settings.getint("FOCUSED_HOTQUEUE_DISTANCE")
        words = sorted((re.escape(k.lower()) for k in profile.keywords), key=len, reverse=True)
        self.keywords = re.compile(r"\b(?:" + "|".join(words) + r")\b")
        self.distance: dict[str, int] = {}  # fetched URL -> links since the last relevant page

    def _observe(self, parent: ParentPage) -> None:
        above = self.distance.get(parent.info.get("parent_url") or "", self.limit)
        self.distance[parent.url] = 0 if parent.relevant else min(above + 1, self.limit)

    def _scored(self, info: LinkEvidence) -> Scored:
        backlinks = float(self.graph.backlinks(info["url"]))
        text = f"{info.get('anchor', '')} {url_words(info['url'])}".lower()
        near = self.distance.get(info.get("parent_url") or "", self.limit) + 1 < self.limit
        signals = {"hot": float(near or bool(self.keywords.search(text))), "backlinks": backlinks / (backlinks + 1)}
        return Scored(sum(signals.values()), signals)
