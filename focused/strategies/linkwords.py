"""What a link's own words are, computed once per link and kept while re-scorings meet it again.

A queued link's anchor, context and URL never change, so neither do their hashed counts nor their
similarities to the profile. The frontier's re-scoring (every FOCUSED_RESCORE_INTERVAL pages, up to
FOCUSED_RESCORE_LIMIT links) computed them again each time: about two thirds of its time, and the
re-scoring was the model thread's largest stage on real documentation (docs/benchmarks.md, session 59).
The most recently used links are kept, up to a limit; none are pickled with the strategy (a resumed
crawl computes them again).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.preprocessing import normalize

from focused.frontier.evidence import LinkEvidence
from focused.relevance.similarity import TopicSimilarity, url_words
from focused.strategies.crawlgraph import LAYERS

FEATURES = 2**18  # hashed columns of the link model's words
Key = tuple[str, str, str]  # url, anchor, context
Kept = tuple[np.ndarray, np.ndarray, np.ndarray]  # hashed columns, their counts, the four similarities


class LinkWords:
    """Links' words and similarities, by (url, anchor, context), the `limit` most recently used kept."""

    def __init__(self, similarity: TopicSimilarity, limit: int):
        self.similarity = similarity
        self.limit = limit
        # counts, not normalized: the link's distance word is added to them before the row is normalized
        self.hasher = HashingVectorizer(n_features=FEATURES, alternate_sign=False, norm=None, token_pattern=r"\S+")
        self.distance_columns = self.hasher.transform([f"d:{d}" for d in range(LAYERS)]).indices
        self.kept: OrderedDict[Key, Kept] = OrderedDict()

    def __call__(self, infos: list[LinkEvidence]) -> tuple[sparse.csr_matrix, np.ndarray]:
        """The links' hashed anchor (a:), context (c:) and URL (u:) word counts, one row each, and their
        similarities to the profile (TopicSimilarity.links: 4 × links)."""
        if not infos:
            return sparse.csr_matrix((0, FEATURES)), np.zeros((4, 0))
        keys = [(i["url"], i.get("anchor", ""), i.get("context", "")) for i in infos]
        self._compute([key for key in dict.fromkeys(keys) if key not in self.kept])
        rows = [self._get(key) for key in keys]
        while len(self.kept) > self.limit:  # after the batch's rows are taken: a batch may be larger than the limit
            self.kept.popitem(last=False)
        lengths = np.array([len(columns) for columns, _, _ in rows], dtype=np.int64)
        indptr = np.concatenate([[0], np.cumsum(lengths)])
        columns = np.concatenate([c for c, _, _ in rows])
        counts = np.concatenate([n for _, n, _ in rows])
        words = sparse.csr_matrix((counts, columns, indptr), shape=(len(rows), FEATURES))
        return words, np.array([s for _, _, s in rows]).T

    def with_distances(self, words: sparse.csr_matrix, distances: list[int]) -> sparse.csr_matrix:
        """The rows of `words` with each link's distance word (d:) counted in, l2-normalized: the features of
        the one text "a:... c:... u:... d:N"."""
        one_each = np.arange(len(distances) + 1)  # the rows' pointers: one distance word in each row
        distance = sparse.csr_matrix((np.ones(len(distances)), self.distance_columns[distances], one_each), words.shape)
        return normalize(words + distance)

    def _compute(self, keys: list[Key]) -> None:
        if not keys:
            return
        texts = [
            " ".join(
                [f"a:{w}" for w in anchor.lower().split()]
                + [f"c:{w}" for w in context.lower().split()]
                + [f"u:{w}" for w in url_words(url).split()]
            )
            for url, anchor, context in keys
        ]
        counts = self.hasher.transform(texts)
        sims = self.similarity.links([a for _, a, _ in keys], [c for _, _, c in keys], [u for u, _, _ in keys])
        for row, key in enumerate(keys):
            start, end = counts.indptr[row], counts.indptr[row + 1]
            self.kept[key] = (counts.indices[start:end].copy(), counts.data[start:end].copy(), sims[:, row].copy())

    def _get(self, key: Key) -> Kept:
        self.kept.move_to_end(key)
        return self.kept[key]

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "kept": OrderedDict()}
