"""Lexical relevance: how close a text is to the profile, before any classifier is trained."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.preprocessing import normalize

from focused.profile import Profile

WORDS = re.compile(r"[a-z0-9]+")


class TopicSimilarity:
    """Cosine similarity of texts to the profile's description and keywords.

    A stateless HashingVectorizer: nothing to fit, any vocabulary, one sparse product per batch. The query is
    a dense vector: a sparse column would be converted to rows (2^20 of them) on every product. Texts are
    counted unnormalized, so that the counts of a link's parts add up to those of its whole text.
    """

    def __init__(self, profile: Profile, keyword_weight: int = 3):
        self.vectorizer = HashingVectorizer(stop_words="english", alternate_sign=False, norm=None)
        query = profile.description + (" " + " ".join(profile.keywords)) * keyword_weight
        self.query = normalize(self.vectorizer.transform([query])).toarray().ravel()

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0)
        return self._cosines(self.vectorizer.transform(texts))

    def links(self, anchors: Sequence[str], contexts: Sequence[str], urls: Sequence[str]) -> np.ndarray:
        """Similarities of links' anchors, surrounding words, URL words and of the three together: rows in
        that order. The whole's counts are the sum of its parts', so it costs no second pass over the words."""
        if not urls:
            return np.zeros((4, 0))
        n = len(urls)
        counts = self.vectorizer.transform([*anchors, *contexts, *(url_words(u) for u in urls)])
        whole = counts[:n] + counts[n : 2 * n] + counts[2 * n :]
        return self._cosines(sparse.vstack([counts, whole], format="csr")).reshape(4, n)

    def _cosines(self, counts: sparse.csr_matrix) -> np.ndarray:
        return np.asarray(normalize(counts) @ self.query).ravel()


class KeywordCoverage:
    """Page relevance 0..1: the share of the profile's keywords the page mentions.

    Interpretable and threshold-friendly: 0.5 means half the keywords occur in title or text.
    """

    def __init__(self, profile: Profile):
        self.words = [k.lower() for k in profile.keywords if " " not in k.strip()]
        self.phrases = [k.lower() for k in profile.keywords if " " in k.strip()]

    def __call__(self, title: str, text: str) -> float:
        lowered = f"{title}\n{text}".lower()
        tokens = set(WORDS.findall(lowered))
        hits = sum(w in tokens for w in self.words) + sum(p in lowered for p in self.phrases)
        return hits / (len(self.words) + len(self.phrases))


def url_words(url: str) -> str:
    """The words of a URL's host and path, for matching against the topic."""
    return " ".join(WORDS.findall(url.lower().split("://", 1)[-1]))
