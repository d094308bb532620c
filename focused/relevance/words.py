"""A page's words as the TF-IDF page classifier reads them: all of them, those no example has included.

With the examples' vocabulary, a page kept only the words it shares with them: a manual that the negative
examples do not cover kept the generic words it shares with the positives (string, code, text), which then filled
its whole vector, and half of four such manuals read as on the topic (docs/benchmarks.md, session 56). Hashed, a
page's other words count toward its length and dilute those. How much they weigh is the choice: as words in no
example (the highest IDF) they diluted the on-topic pages of sites the examples do not come from as much, and a
tuning topic's crawl judged no page relevant; as words in half of the examples, the pages a crawl judged relevant
were more often so (held-out: `tls` 13% to 28%, `logging` 9% to 18%) and the crawls found as many (session 57).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.feature_extraction.text import HashingVectorizer, TfidfTransformer
from sklearn.pipeline import Pipeline

# Buckets for words and word pairs: on the benchmark web, 2**20 of them ranked pages no better (session 57).
FEATURES = 2**18


class UnseenWordsTfidf(TfidfTransformer):
    """TF-IDF (sublinear TF) in which a word that no example has weighs as one that `unseen_share` of them have."""

    def __init__(self, unseen_share: float = 0.5) -> None:
        super().__init__(sublinear_tf=True)
        self.unseen_share = unseen_share

    def fit(self, X: Any, y: Any = None) -> UnseenWordsTfidf:
        super().fit(X)
        examples = X.shape[0]
        self.idf_[X.getnnz(axis=0) == 0] = np.log((1 + examples) / (1 + self.unseen_share * examples)) + 1
        return self


def tfidf_features() -> Pipeline:
    """Hashed words and word pairs (English stop words dropped), weighed by UnseenWordsTfidf."""
    words = HashingVectorizer(
        ngram_range=(1, 2), stop_words="english", alternate_sign=False, norm=None, n_features=FEATURES
    )
    return Pipeline([("words", words), ("tfidf", UnseenWordsTfidf())])
