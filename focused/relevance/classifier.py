"""The page classifier a crawl uses: a scikit-learn pipeline on disk, with its model card.

classifiers/<name>.joblib holds the pipeline; classifiers/<name>.json, its card, records
what it was trained on, its cross-validated metrics and the artifact's SHA-256, and names the
auditor (classifiers/<name>.audit.joblib: focused/relevance/audit.py). Pickles run code when loaded,
so each hash is checked before anything is unpickled.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

# The title and the main text up to this length: a page is on a topic by what its whole text says, not its
# first screen (the benchmark web's tuning topics: average precision of the page classifier over every page,
# 0.47 on 2,000 characters, 0.70 on 20,000: docs/benchmarks.md, session 39); beyond it, a long changelog
# or reference mentions everything. TF-IDF reads it at about 1.4 ms a page (0.4 on 2,000).
MAX_CHARS = 20_000


class ClassifierError(RuntimeError):
    """A classifier that must not be used; the message says why and what to do."""


def card_path(directory: Path, name: str) -> Path:
    return directory / f"{name}.json"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def page_text(title: str, text: str, chars: int = MAX_CHARS) -> str:
    return f"{title}\n{text}"[:chars]


def relevance(pipeline: Any, pages: Sequence[tuple[str, str]], chars: int = MAX_CHARS) -> np.ndarray:
    """The probability of each (title, text) page, read with its title and without, whichever is less: a title
    cannot make relevant a page its text does not bear out (a shop's page titled with a topic's words: Ntoulas et
    al. 2006 on title stuffing). On the real pages of the benchmark web's tuning topics, average precision moved
    by 0.003 at most (docs/benchmarks.md, session 40)."""
    texts = [page_text(title, text, chars) for title, text in pages] + [page_text("", text, chars) for _, text in pages]
    probabilities = pipeline.predict_proba(texts)[:, 1]
    return np.minimum(probabilities[: len(pages)], probabilities[len(pages) :])


@dataclass
class PageClassifier:
    """Relevance of pages: the calibrated probability that a page is on the profile's topic."""

    pipeline: Any
    card: dict[str, Any]

    def __call__(self, pages: Sequence[tuple[str, str]]) -> np.ndarray:
        return relevance(self.pipeline, pages)

    def read(self, texts: Sequence[str]) -> np.ndarray:
        """The probability of each text as it is: the auditor's one reading of a page (focused/relevance/audit.py)."""
        return self.pipeline.predict_proba(list(texts))[:, 1]

    @property
    def kind(self) -> str:
        return self.card["model"]


def load_classifier(directory: Path, profile_name: str) -> PageClassifier:
    """Load classifiers/<profile>.joblib after checking its card and its hash."""
    card_file = card_path(directory, profile_name)
    if not card_file.exists():
        raise ClassifierError(
            f"no classifier for profile {profile_name!r} in {directory}/: "
            f"train one with `scrapy train profiles/{profile_name}.toml`"
        )
    card = json.loads(card_file.read_text())
    if card.get("profile") != profile_name:
        raise ClassifierError(f"{card_file} was trained for profile {card.get('profile')!r}, not {profile_name!r}")
    return PageClassifier(_unpickle(directory / card["artifact"], card["sha256"], profile_name), card)


def load_auditor(directory: Path, classifier: PageClassifier) -> PageClassifier | None:
    """The model that audits the crawl's harvest (focused/relevance/audit.py): the classifier itself when it is the
    auditor, None when the card names none (trained without the embedding model)."""
    audit = classifier.card.get("audit") or {}
    if not audit.get("artifact"):
        return classifier if audit.get("model") == classifier.kind else None
    pipeline = _unpickle(directory / audit["artifact"], audit["sha256"], classifier.card["profile"])
    return PageClassifier(pipeline, {**classifier.card, "model": audit["model"]})


def _unpickle(artifact: Path, expected: str, profile_name: str) -> Any:
    """Pickles run code when loaded: the artifact's hash must match its card's first."""
    if not artifact.exists():
        raise ClassifierError(f"{artifact} is missing; train again with `scrapy train profiles/{profile_name}.toml`")
    actual = sha256(artifact)
    if actual != expected:
        raise ClassifierError(
            f"{artifact} does not match its card (SHA-256 {actual[:16]}... instead of {expected[:16]}...): "
            "refusing to unpickle it; train again to replace it"
        )
    import joblib

    return joblib.load(artifact)
