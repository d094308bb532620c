"""Keyword stuffing is told from the page's vocabulary, whatever its length."""

from __future__ import annotations

import pytest

from focused.pages.credibility import tokens
from focused.pages.spam import is_stuffed
from focused.pages.spam import word_diversity as diversity_of_words
from testbed.docsweb.hazards import BAIT

PROSE = (
    "A transaction groups statements so that they take effect together or not at all; the "
    "database keeps other sessions from seeing its changes until it commits, and the isolation "
    "level decides which anomalies a concurrent reader may observe while it runs. "
) * 12


def word_diversity(text: str) -> float | None:
    return diversity_of_words(tokens(text))


def test_word_diversity_by_hand():
    assert word_diversity("a b " * 100) == pytest.approx(2 / 100)  # two windows of two distinct words
    assert word_diversity(" ".join(f"w{i}" for i in range(200))) == 1.0
    assert word_diversity("too short to tell") is None


def test_stuffed_pages_are_told_from_prose_of_any_length():
    stuffing = " ".join(BAIT[(i * 7) % len(BAIT)] for i in range(400))
    assert is_stuffed(word_diversity(stuffing), 0.2)
    assert not is_stuffed(word_diversity(PROSE), 0.2) and not is_stuffed(word_diversity(PROSE * 10), 0.2)
    assert not is_stuffed(word_diversity("transaction " * 50), 0.2)  # under 100 words: no verdict
    assert not is_stuffed(word_diversity(stuffing), 0.0)  # 0 turns the check off
