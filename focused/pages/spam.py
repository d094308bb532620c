"""Content spam: keyword stuffing, told by how few distinct words a page uses.

Ntoulas et al. (2006, "Detecting spam web pages through content analysis") found stuffed
pages repeat a small vocabulary: they compress well and their most frequent words cover
most of the text. The measure here is the mean share of distinct words in consecutive
100-word windows (independent of the page's length): prose and reference pages stay above
about 0.3 (tables of identifiers about 0.2), a page repeating a list of keywords below it.
"""

from __future__ import annotations

WINDOW = 100


def word_diversity(words: list[str]) -> float | None:
    """Mean share of distinct words (focused.pages.credibility.tokens) per 100-word window; None for texts too
    short to tell."""
    windows = [words[i : i + WINDOW] for i in range(0, len(words) - WINDOW + 1, WINDOW)]
    if not windows:
        return None
    return sum(len(set(window)) for window in windows) / (WINDOW * len(windows))


def is_stuffed(diversity: float | None, min_diversity: float) -> bool:
    """Whether a text of this word diversity (word_diversity: None, too short to tell) is keyword stuffing."""
    return diversity is not None and diversity < min_diversity
