"""The crawled graph: which fetched page led to which, who links to whom, and what follows.

Two link analyses run on it, in batches, never per page:
- what each page led to (the context graph of Diligenti et al. 2000, as observed values
  rather than layers): the mean relevance of the pages fetched through its links, or a
  discounted share of the mean one link further;
- hub scores (HITS, as in Chakrabarti et al. 1999): authorities are weighted by relevance,
  so a hub is a page that links to many relevant pages.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

LAYERS = 4  # links since the last relevant ancestor: 0, 1, 2, and 3 or more


def url_key(url: str) -> int:
    """A compact, stable key for a URL (CRC-32 of its two halves: 64 bits)."""
    data = url.encode()
    half = len(data) // 2
    return (zlib.crc32(data[:half]) << 32) | zlib.crc32(data[half:])


@dataclass
class CrawlGraph:
    index: dict[int, int] = field(default_factory=dict)  # url key -> page number
    parents: list[int] = field(default_factory=list)  # page number of the page that led here, or -1
    relevance: list[float] = field(default_factory=list)
    relevant: list[bool] = field(default_factory=list)
    duplicate: list[bool] = field(default_factory=list)  # near-duplicates lead nowhere new
    distance: list[int] = field(default_factory=list)  # links since the last relevant ancestor
    outlinks: list[np.ndarray] = field(default_factory=list)  # url keys of each page's links

    def __len__(self) -> int:
        return len(self.parents)

    def add(
        self,
        url: str,
        parent_url: str | None,
        relevance: float,
        relevant: bool,
        links: list[str],
        duplicate: bool = False,
    ) -> int:
        """Record a fetched page; returns its page number."""
        number = len(self.parents)
        self.index[url_key(url)] = number
        parent = self.index.get(url_key(parent_url), -1) if parent_url else -1
        self.parents.append(parent)
        self.relevance.append(relevance)
        self.relevant.append(relevant)
        self.duplicate.append(duplicate)
        self.distance.append(0 if relevant else (self.distance[parent] + 1 if parent >= 0 else LAYERS))
        self.outlinks.append(np.fromiter((url_key(u) for u in links), dtype=np.uint64, count=len(links)))
        return number

    def disown(self, number: int) -> None:
        """Page `number` turned out to be a copy of a page read later: it counts as a near-duplicate."""
        self.relevance[number], self.relevant[number], self.duplicate[number] = 0.0, False, True

    def page(self, url: str | None) -> int:
        return self.index.get(url_key(url), -1) if url else -1

    def lead_values(self, discount: float) -> np.ndarray:
        """What each fetched page led to, as observed: the mean relevance of the pages fetched through its
        links, or `discount` times the mean of what those led to; -1 where none of its links was followed.
        The mean, not the best: a reference page whose 800 stubs gave one relevant page is not worth a guide
        whose every link did (`datetime`, session 53)."""
        parents = np.asarray(self.parents, dtype=int)
        children = _mean(*self.followed())
        valued = np.flatnonzero((parents >= 0) & (children >= 0))
        grandchildren = _mean(*_count_and_sum(parents[valued], children[valued], len(self)))
        return np.where(children >= 0, np.maximum(children, discount * grandchildren), -1.0)

    def followed(self) -> tuple[np.ndarray, np.ndarray]:
        """Per page: how many pages were fetched through its links, and their relevance summed."""
        relevance, parents = np.asarray(self.relevance, dtype=float), np.asarray(self.parents, dtype=int)
        followed = parents >= 0
        return _count_and_sum(parents[followed], relevance[followed], len(self))

    def hub_scores(self, iterations: int = 20) -> np.ndarray:
        """HITS hub scores in 0..1 on the fetched subgraph, authorities weighted by relevance."""
        n = len(self)
        if n == 0:
            return np.zeros(0)
        rows, cols = [], []
        for source, keys in enumerate(self.outlinks):
            for key in keys.tolist():
                target = self.index.get(key)
                if target is not None and target != source:
                    rows.append(source)
                    cols.append(target)
        links = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
        weight = np.asarray(self.relevance)
        hubs = np.ones(n)
        for _ in range(iterations):
            authorities = weight * (links.T @ hubs)
            hubs = links @ authorities
            top = hubs.max()
            if top <= 0:
                return np.zeros(n)
            hubs /= top
        return hubs


def _count_and_sum(groups: np.ndarray, values: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """How many values fall in each group 0..n-1, and their sum."""
    return np.bincount(groups, minlength=n), np.bincount(groups, weights=values, minlength=n)


def _mean(counts: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """Mean per group; -1 for a group with none."""
    return np.where(counts > 0, sums / np.maximum(counts, 1), -1.0)
