"""What a page's text is, before the crawl compares it with what it has read.

Near-duplicates, novelty, stuffing and plausibility each need a pass over the words of the main text
(a few milliseconds a page of real documentation). That part depends on the text alone, so it runs with
the extraction in a worker process (focused.pages.workers); the crawl's process keeps only the look-ups
in its indexes, which depend on every page read before.
"""

from __future__ import annotations

from dataclasses import dataclass

from focused.pages.credibility import content_features, sampled_shingles, tokens
from focused.pages.extract import Page
from focused.pages.neardup import Fingerprint, fingerprint
from focused.pages.spam import word_diversity


@dataclass(frozen=True)
class Analysis:
    fingerprint: Fingerprint | None  # of the main text (focused.pages.neardup); None: no words
    shingles: frozenset[int]  # sampled word 5-grams (focused.pages.credibility.NoveltyIndex)
    features: dict[str, float]  # content statistics (focused.pages.credibility.Envelope)
    diversity: float | None  # word diversity (focused.pages.spam); None: too short to tell


def analyze(page: Page, topic_words: frozenset[str]) -> Analysis:
    words = tokens(page.text)  # one pass for the three statistics that count the same words
    return Analysis(
        fingerprint(page.text),
        sampled_shingles(words),
        content_features(page.text, words, topic_words),
        word_diversity(words),
    )
