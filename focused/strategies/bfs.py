"""Breadth-first: the baseline every focused crawler is measured against."""

from __future__ import annotations

from focused.pages.extract import Link
from focused.strategies.base import ParentPage, Scored, Strategy


class BreadthFirst(Strategy):
    """Shallower first; the frontier's arrival order breaks ties, so this is FIFO by level."""

    name = "bfs"

    def seed(self, url: str) -> Scored:
        return Scored(0.0, {"depth": 0.0})

    def score(self, parent: ParentPage, links: list[Link]) -> list[Scored]:
        depth = -float(parent.depth + 1)
        return [Scored(depth, {"depth": depth})] * len(links)
