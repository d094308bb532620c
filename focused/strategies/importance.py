"""Link-based importance (Cho, Garcia-Molina & Page 1998): backlink counts and PageRank.

Used twice: by the `backlink` and `pagerank` strategies on the graph crawled so far, and by
`scrapy evaluate` on a web's whole graph, to say which pages are "hot".
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

DAMPING = 0.85  # Cho et al.'s d = 0.9 is close; 0.85 is the usual choice since Brin & Page


class LinkGraph:
    """A directed graph over URLs, grown one source page at a time (each page is added once;
    its repeated links to one target count once)."""

    def __init__(self) -> None:
        self.nodes: dict[str, int] = {}
        self.sources: list[int] = []
        self.targets: list[int] = []
        self.indegree: list[int] = []

    def __len__(self) -> int:
        return len(self.nodes)

    def node(self, url: str) -> int:
        number = self.nodes.setdefault(url, len(self.nodes))
        if number == len(self.indegree):
            self.indegree.append(0)
        return number

    def add_links(self, source: str, targets: list[str]) -> None:
        s = self.node(source)
        for t in {self.node(url) for url in targets} - {s}:
            self.sources.append(s)
            self.targets.append(t)
            self.indegree[t] += 1

    def backlinks(self, url: str) -> int:
        number = self.nodes.get(url)
        return 0 if number is None else self.indegree[number]

    def pagerank(self, damping: float = DAMPING, tolerance: float = 1e-9, iterations: int = 100) -> np.ndarray:
        """PageRank by power iteration; dangling nodes spread their rank evenly. Sums to 1."""
        n = len(self)
        if n == 0:
            return np.zeros(0)
        sources, targets = np.array(self.sources, dtype=np.int64), np.array(self.targets, dtype=np.int64)
        out = np.bincount(sources, minlength=n).astype(float)
        transition = sparse.csr_matrix((1.0 / out[sources], (targets, sources)), shape=(n, n))
        dangling = out == 0
        rank = np.full(n, 1.0 / n)
        for _ in range(iterations):
            new = damping * (transition @ rank + rank[dangling].sum() / n) + (1 - damping) / n
            if np.abs(new - rank).sum() < tolerance:
                return new
            rank = new
        return rank


def importance(graph: LinkGraph, kind: str) -> dict[str, float]:
    """Each node's importance: `backlink` (in-links) or `pagerank`."""
    values = np.asarray(graph.indegree, dtype=float) if kind == "backlink" else graph.pagerank()
    return {url: float(values[number]) for url, number in graph.nodes.items()}
