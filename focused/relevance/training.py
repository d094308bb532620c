"""Training the page classifier from a profile's examples, with honest cross-validation.

Three models: TF-IDF with a linear head; MiniLM sentence embeddings with a linear head; and the ensemble, TF-IDF's
verdict averaged with a linear head's on a static embedding distilled from MiniLM (the words a page uses, and what
they mean). All calibrated (sigmoid) so that their probabilities can serve as priorities and add up to
an estimate of the crawl's harvest. `auto` keeps the model that buys the most in the crawl:
its cross-validated ROC AUC above chance times the pages per second a crawl can classify
with it (a model ten times as slow must be that much better), among the models installed (the
embedding model is an extra: pip install "focused[embedding]"). The profile's description and
keywords are one more positive example, so a topic with few examples still trains. The card
also records the range of the examples' content statistics (focused/pages/credibility.py), and the
auditor: the embedding model, trained beside the crawl's model whenever it is installed, that
judges the crawl's harvest on a sample of its pages (focused/relevance/audit.py).
"""

from __future__ import annotations

import hashlib
import json
import platform
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import numpy as np
from scrapy.http import HtmlResponse
from sklearn.base import clone
from sklearn.calibration import CalibratedClassifierCV
from sklearn.ensemble import VotingClassifier
from sklearn.feature_selection import VarianceThreshold
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, precision_score, recall_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import Pipeline

from focused import __version__
from focused.pages.credibility import Envelope, content_features, tokens, topic_words
from focused.pages.extract import extract
from focused.profile import Profile
from focused.relevance.classifier import card_path, page_text, sha256
from focused.relevance.embedding import MODEL_NAME, SentenceEmbedder, StaticEmbedder
from focused.relevance.words import tfidf_features

MIN_PER_CLASS = 5
# Seconds a crawl spends on a page besides classifying it (fetch, extraction, link scoring), as
# measured on the local web (about 30 pages/s): what a slower model's cost is added to.
PAGE_SECONDS = 1 / 30
CALIBRATION_BINS = 10
TEXT_SUFFIXES = {".html", ".htm", ".txt"}
AUDITOR = "embedding"  # the model of another kind than TF-IDF's word counts: its errors are not the crawl's
EMBEDDING_KINDS = ("ensemble", "embedding")  # the models that need the embedding extra


class TrainingError(ValueError):
    """Examples that cannot make a classifier; the message says which and why."""


@dataclass(frozen=True)
class Example:
    source: str  # URL or file path
    label: int  # 1: on the topic
    title: str
    text: str
    sha256: str  # of the raw content


def example_from(source: str, label: int, body: bytes, url: str | None = None) -> Example:
    """Title and main text, extracted exactly as the crawler extracts fetched pages."""
    digest = hashlib.sha256(body).hexdigest()
    if source.endswith(".txt"):
        return Example(source, label, Path(source).stem, body.decode("utf-8", "replace"), digest)
    page = extract(HtmlResponse(url or Path(source).resolve().as_uri(), body=body, encoding="utf-8"), 0)
    return Example(source, label, page.title, page.text, digest)


def split_sources(profile: Profile) -> tuple[list[tuple[str, int]], list[tuple[Path, int]]]:
    """The profile's examples as (URL, label) and (file, label); folders are expanded."""
    urls, files = [], []
    for label, entries in ((1, profile.positive), (0, profile.negative)):
        for entry in entries:
            if entry.startswith(("http://", "https://")):
                urls.append((entry, label))
            else:
                files += [(path, label) for path in _files(profile, entry)]
    return urls, files


def _files(profile: Profile, entry: str) -> list[Path]:
    path = Path(entry)
    if not path.is_absolute() and not path.exists():
        path = profile.path.parent / entry
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.suffix.lower() in TEXT_SUFFIXES)
    if path.is_file():
        return [path]
    raise TrainingError(f"{profile.path}: examples: {entry!r} is neither a URL nor an existing file or folder")


def local_examples(files: Iterable[tuple[Path, int]]) -> list[Example]:
    return [example_from(str(path), label, path.read_bytes()) for path, label in files]


def profile_example(profile: Profile) -> Example:
    """The profile's own words as a positive example: what the user said the topic is."""
    text = f"{profile.description}\n{', '.join(profile.keywords)}"
    return Example(f"profile:{profile.name}", 1, profile.name, text, hashlib.sha256(text.encode()).hexdigest())


def check_examples(examples: list[Example]) -> None:
    counts = {label: sum(e.label == label for e in examples) for label in (1, 0)}
    for label, name in ((1, "positive"), (0, "negative")):
        if counts[label] == 0:
            raise TrainingError(f"no {name} examples: add some to the profile's [examples] {name} list")
    if min(counts.values()) < MIN_PER_CLASS:
        raise TrainingError(
            f"too few examples to train and cross-validate: need at least {MIN_PER_CLASS} of each class, "
            f"got {counts[1]} positive and {counts[0]} negative"
        )


def head() -> CalibratedClassifierCV:
    return CalibratedClassifierCV(LogisticRegression(max_iter=2000, class_weight="balanced"), cv=3, method="sigmoid")


def tfidf_pipeline() -> Pipeline:
    """A bucket no example fills weighs 0 in a linear model fitted on them, so the buckets of zero variance are
    dropped before it: the solver's cost follows the features it is given (2^18 against a few thousand filled)."""
    return Pipeline([("words", tfidf_features()), ("used", VarianceThreshold()), ("clf", head())])


def ensemble_pipeline() -> VotingClassifier:
    """TF-IDF's probability averaged with the static embedding's. Word counts judge a page by the examples' words,
    an embedding by what they mean; where one is wrong the other rarely agrees. On the benchmark web's pages
    (docs/benchmarks.md, session 67), the pages judged relevant were two to ten times as precise as TF-IDF's alone
    on the narrow topics, at about the same average precision. In crawls of the held-out topics (session 68) it gave
    more of the budget to hazard hosts and less to pandas' pages on `dataframes`: `auto` does not choose it."""
    meaning = Pipeline([("embed", StaticEmbedder()), ("clf", head())])
    return VotingClassifier([("words", tfidf_pipeline()), ("meaning", meaning)], voting="soft")


def evaluate(
    kind: str, texts: list[str], y: np.ndarray, show_progress: bool, audit_texts: list[str] | None = None
) -> tuple[Pipeline, dict[str, float]]:
    """Cross-validated metrics, then the pipeline refit on every example. With `audit_texts` (each example as the
    auditor reads a page: its main text alone), also the calibration error of that reading, which widens the
    crawl's harvest estimate (focused/relevance/audit.py)."""
    folds = StratifiedKFold(n_splits=min(5, int(min(y.sum(), len(y) - y.sum()))), shuffle=True, random_state=0)
    embedding_seconds = 0.0  # the texts' embedding, timed once: what the model costs a crawl's page
    if kind == "embedding":
        embedder = SentenceEmbedder(show_progress_bar=show_progress)
        embedder.transform(texts[:1])  # the network's loading is not a page's cost
        started = time.perf_counter()
        features: Any = embedder.transform(texts)  # stateless: embedding once is the same as per fold
        embedding_seconds = time.perf_counter() - started
        audit_features: Any = embedder.transform(audit_texts) if audit_texts else None
        embedder.show_progress_bar = False
        model = head()
    else:
        features, audit_features = texts, audit_texts
        model = ensemble_pipeline() if kind == "ensemble" else tfidf_pipeline()
    probabilities = cross_val_predict(model, features, y, cv=folds, method="predict_proba")[:, 1]
    predicted = probabilities >= 0.5
    metrics = {
        "precision": float(precision_score(y, predicted, zero_division=0)),
        "recall": float(recall_score(y, predicted, zero_division=0)),
        "f1": float(f1_score(y, predicted, zero_division=0)),
        "roc_auc": float(roc_auc_score(y, probabilities)),
        "calibration_error": calibration_error(probabilities, y),
    }
    if audit_features is not None:
        read = cross_val_read(model, features, audit_features, y, folds)
        metrics["audit_calibration_error"] = calibration_error(read, y)
    model.fit(features, y)
    started = time.perf_counter()
    model.predict_proba(features)
    metrics["texts_per_second"] = len(texts) / (embedding_seconds + time.perf_counter() - started)
    pipeline = Pipeline([("embed", embedder), ("clf", model)]) if kind == "embedding" else model
    return pipeline, metrics


def cross_val_read(model: Any, features: Any, read: Any, y: np.ndarray, folds: StratifiedKFold) -> np.ndarray:
    """Held-out probabilities of the examples as `read` gives them, each from the model fitted on the other folds'
    `features`: a model trained on pages with their titles, judged as it reads pages without them."""
    probabilities = np.zeros(len(y))
    for train, test in folds.split(features, y):
        fitted = clone(model).fit(_rows(features, train), y[train])
        probabilities[test] = fitted.predict_proba(_rows(read, test))[:, 1]
    return probabilities


def _rows(X: Any, rows: np.ndarray) -> Any:
    """Rows of an array of features, or of a list of texts."""
    return X[rows] if isinstance(X, np.ndarray) else [X[i] for i in rows]


def calibration_error(probabilities: np.ndarray, y: np.ndarray) -> float:
    """Expected calibration error of held-out predictions: how far, on average, a predicted probability
    is from the share of positives among examples predicted alike."""
    bins = np.minimum((probabilities * CALIBRATION_BINS).astype(int), CALIBRATION_BINS - 1)
    error = sum(abs(probabilities[bins == b].mean() - y[bins == b].mean()) * (bins == b).sum() for b in np.unique(bins))
    return float(error / len(y))


def crawl_value(metrics: dict[str, float]) -> float:
    """What a model buys in the crawl: ranking quality above chance per second of crawling."""
    return (metrics["roc_auc"] - 0.5) / (PAGE_SECONDS + 1 / metrics["texts_per_second"])


@dataclass
class Trained:
    pipelines: dict[str, Pipeline]  # by kind: the one kept, and the auditor if it is another
    kind: str  # the model kept for the crawl
    metrics: dict[str, dict[str, float]]  # by kind: every model fitted
    auditor: str | None  # the model that audits the crawl's harvest (None: not installed)

    @property
    def pipeline(self) -> Pipeline:
        return self.pipelines[self.kind]


def train(examples: list[Example], model: str, show_progress: bool = True) -> Trained:
    """Fit the requested model (or both, for `auto`) and the auditor; keep the best requested one."""
    check_examples(examples)
    texts = [page_text(e.title, e.text) for e in examples]
    y = np.array([e.label for e in examples])
    installed = find_spec("sentence_transformers") is not None and find_spec("model2vec") is not None
    if model in EMBEDDING_KINDS and not installed:
        raise TrainingError(f'the {model} model needs the embedding extra: pip install "focused[embedding]"')
    requested = [model] if model != "auto" else ["tfidf", "embedding"] if installed else ["tfidf"]
    auditor = AUDITOR if installed else None
    kinds = list(dict.fromkeys(requested + ([AUDITOR] if installed else [])))  # the auditor too, once
    audit_texts = [page_text("", e.text) for e in examples]  # as the auditor reads a page: focused/relevance/audit.py
    fitted = {kind: evaluate(kind, texts, y, show_progress, audit_texts if kind == auditor else None) for kind in kinds}
    for _, metrics in fitted.values():
        metrics["crawl_value"] = crawl_value(metrics)
    chosen = max(requested, key=lambda k: fitted[k][1]["crawl_value"])
    kept = {k: fitted[k][0] for k in (chosen, auditor) if k}
    return Trained(kept, chosen, {k: m for k, (_, m) in fitted.items()}, auditor)


def fit_envelope(examples: list[Example], profile: Profile) -> Envelope:
    """The range of content statistics over the fetched examples (the profile's own words excluded)."""
    words = topic_words(profile.keywords)
    pages = [e for e in examples if not e.source.startswith("profile:")]
    return Envelope.fit([content_features(e.text, tokens(e.text), words) for e in pages], [e.label == 1 for e in pages])


def save(
    trained: Trained, examples: list[Example], profile: Profile, directory: Path, skipped: dict[str, str] | None = None
) -> Path:
    """Write classifiers/<name>.joblib (the auditor's: <name>.audit.joblib) and the card
    classifiers/<name>.json; `skipped` lists the examples that could not be fetched, and why."""
    import joblib
    import sklearn

    directory.mkdir(parents=True, exist_ok=True)
    artifact = directory / f"{profile.name}.joblib"
    joblib.dump(trained.pipeline, artifact, compress=3)  # hashed weights: mostly zeros
    card = {
        "profile": profile.name,
        "profile_file": str(profile.path),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "model": trained.kind,
        "embedding_model": MODEL_NAME if set(trained.pipelines) & set(EMBEDDING_KINDS) else None,
        "versions": _versions(sklearn.__version__),
        "training_set": [{"source": e.source, "label": e.label, "sha256": e.sha256} for e in examples],
        "skipped_examples": [{"source": url, "reason": why} for url, why in sorted((skipped or {}).items())],
        "metrics": trained.metrics,
        "envelope": fit_envelope(examples, profile).to_dict(),
        "prior": sum(e.label for e in examples) / len(examples),
        "cross_validation": "stratified k-fold (k = min(5, smaller class)), threshold 0.5; "
        "calibration_error: expected calibration error of the held-out predictions",
        "artifact": artifact.name,
        "sha256": sha256(artifact),
        "audit": _save_auditor(trained, directory / f"{profile.name}.audit.joblib"),
    }
    path = card_path(directory, profile.name)
    path.write_text(json.dumps(card, indent=2) + "\n")
    return path


def _save_auditor(trained: Trained, artifact: Path) -> dict[str, str] | None:
    """The auditor's artifact, unless it is the crawl's own model (then the crawl's verdicts are the audit's)."""
    artifact.unlink(missing_ok=True)  # a retrained profile keeps no stale auditor
    if trained.auditor is None:
        return None
    if trained.auditor == trained.kind:
        return {"model": trained.auditor}
    import joblib

    joblib.dump(trained.pipelines[trained.auditor], artifact, compress=3)
    return {"model": trained.auditor, "artifact": artifact.name, "sha256": sha256(artifact)}


def _versions(sklearn_version: str) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {"python": platform.python_version(), "focused": __version__, "scikit-learn": sklearn_version}
    for package in ("sentence-transformers", "model2vec", "torch", "joblib", "trafilatura"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            pass
    return found
