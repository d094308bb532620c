"""Held-out predictions of examples read otherwise than they were trained: the auditor's calibration error."""

from __future__ import annotations

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict

from focused.relevance.training import cross_val_read, tfidf_pipeline

FOLDS = StratifiedKFold(n_splits=4, shuffle=True, random_state=0)


def test_read_as_trained_it_is_cross_val_predict():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), np.repeat([0, 1], 20)
    X[y == 1] += 1.5
    expected = cross_val_predict(LogisticRegression(), X, y, cv=FOLDS, method="predict_proba")[:, 1]
    assert np.allclose(cross_val_read(LogisticRegression(), X, X, y, FOLDS), expected)


def test_each_example_is_read_by_a_model_that_never_saw_it_and_as_read_given():
    """Trained on a feature the reading lacks (a page's title), the model judges the reading as it is."""
    y = np.repeat([0, 1], 20)
    titled = np.column_stack([y * 4.0 - 2.0, np.zeros(40)])  # the title alone tells the classes apart
    bare = np.zeros((40, 2))  # read without it, every example looks alike
    read = cross_val_read(LogisticRegression(), titled, bare, y, FOLDS)
    trained = cross_val_read(LogisticRegression(), titled, titled, y, FOLDS)
    assert np.allclose(read, read[0]) and 0.3 < read[0] < 0.7  # nothing to go on: near the prior
    assert (trained[y == 1] > 0.9).all() and (trained[y == 0] < 0.1).all()


def test_texts_are_rows_too():
    texts = [f"{'good' if i % 2 else 'bad'} words {i}" for i in range(20)]
    y = np.array([i % 2 for i in range(20)])
    read = cross_val_read(tfidf_pipeline(), texts, [t.split()[0] for t in texts], y, FOLDS)
    assert read.shape == (20,) and (read[y == 1].mean() > read[y == 0].mean())
