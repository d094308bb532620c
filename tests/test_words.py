"""The TF-IDF classifier's words: a page's words that no example has still count, at a moderate weight."""

from __future__ import annotations

import numpy as np
from sklearn.pipeline import Pipeline

from focused.relevance.training import tfidf_pipeline
from focused.relevance.words import FEATURES, UnseenWordsTfidf, tfidf_features

GENERIC = "the string holds text and code; see the url for support"
POSITIVES = [f"unicode code points and utf-8 encoding {i}: decode bytes to text. {GENERIC}" for i in range(6)]
NEGATIVES = [f"dataframe {i} columns: group rows, pivot tables and merge indexes of the frame" for i in range(12)]


def test_an_unseen_word_weighs_as_a_word_in_unseen_share_of_the_examples():
    examples = ["alpha beta", "alpha gamma", "delta", "epsilon"]
    features = tfidf_features().fit(examples)
    weights = features.transform(["alpha zeta"]).toarray().ravel()
    assert np.allclose(weights[weights > 0], 3**-0.5)  # alpha is in 2 of 4 examples; zeta and "alpha zeta" in none
    words = features[0]
    one_in_four = UnseenWordsTfidf(unseen_share=0.25).fit(words.transform(examples))
    beta, zeta = one_in_four.idf_[words.transform(["beta", "zeta"]).indices]
    assert np.isclose(zeta, beta) and zeta > one_in_four.idf_[words.transform(["alpha"]).indices[0]]


def test_a_page_of_its_own_vocabulary_is_not_relevant_by_the_generic_words_it_shares():
    """With the examples' vocabulary both pages were the same vector: only GENERIC's words were kept."""
    model = tfidf_pipeline().fit(POSITIVES + NEGATIVES, [1] * len(POSITIVES) + [0] * len(NEGATIVES))
    manual = " ".join(f"migration{i} queryset{i} middleware{i} template{i}" for i in range(40))
    generic_only, own_manual = model.predict_proba([GENERIC, f"{GENERIC} {manual}"])[:, 1]
    assert own_manual < generic_only and own_manual < 0.5


def test_the_linear_head_sees_only_the_words_of_its_examples_and_judges_as_if_it_saw_all():
    """A bucket no example fills weighs 0 in the fitted model; dropping the 2^18 - a few hundred of them before the
    solver runs changes its cost (lbfgs works on every feature it is given), not its probabilities."""
    texts, y = POSITIVES + NEGATIVES, [1] * len(POSITIVES) + [0] * len(NEGATIVES)
    model = tfidf_pipeline().fit(texts, y)
    every_bucket = Pipeline([step for step in tfidf_pipeline().steps if step[0] != "used"]).fit(texts, y)
    assert model["used"].get_support().sum() < 1000 < FEATURES
    pages = [GENERIC, "utf-8 bytes decoded to text, unseen words aside", "merge a dataframe's rows", "nothing known"]
    assert np.allclose(model.predict_proba(pages), every_bucket.predict_proba(pages), atol=1e-9)
