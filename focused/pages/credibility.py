"""How much a page classifier's verdict deserves belief: content plausibility and novelty.

A classifier trained on a few examples calls any page relevant that uses the topic's words,
and the crawl learns from its verdicts, so one systematic error (pages stuffed with those
words, text spun from real pages) turns into a spiral. Two properties that hold whatever
generated the page temper the verdict before anything learns from it:

- plausibility: the page's content statistics fall within the range of the user's own
  examples (Ntoulas et al. 2006: spam pages differ in compressibility and share of common
  words; a stuffed page's density of topic words is far beyond any positive example's).
  A page outside that envelope is uncertain, not relevant: its probability is shrunk.
- cohesion: the share of successive sentences that share a content word (neither common nor
  one of the topic's words). A real page keeps to its subject and repeats its terms; text
  assembled from other texts (spun sentences, a word-trigram walk, templated filler around
  quoted lines) drifts from sentence to sentence even where each sentence is on topic. On the
  benchmark web's tuning topics, relevant pages have a median of 0.32 and generated farm
  pages 0.0 to 0.12 (docs/design.md, "Credibility"). A page below the positive examples' median is
  believed in proportion. A short page is judged too, from three sentences on, its few pairs shrunk toward
  that median: a directory's reviews, three sentences of three of the topic's pages, are too short for the
  envelope, and were believed at 0.7 to 0.99 (docs/benchmarks.md, session 96).
- novelty: the share of the page's word 5-grams the crawl has not seen before (a sample of
  them, chosen by hash, so the memory stays small; all of them on a page too short for a
  sample). Spun text, copies and page variants repeat what the crawl has read: they are not
  *new* relevant pages. Which of two copies is the original is not which came first: a copy
  met before its original would take the original's credit, so the index remembers where each
  5-gram was first read, and the strategy gives the credit to the page on the site more trusted
  from the seeds, text by text: a page spun from the sentences of twenty-five pages is read before
  most of them, and loses a twenty-fifth of what it was credited with to each as it is read.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

WORDS = re.compile(r"[a-z0-9]+")
SHINGLE = 5
SAMPLE = 8  # keep one 5-gram in SAMPLE, chosen by its hash: the same ones on every page that has them
MIN_WORDS = 100
MIN_SHINGLES = 20  # fewer 5-grams than this: too short to tell, novelty 1
MIN_SAMPLED = 5  # sampled 5-grams a short page needs (about 40 words) to be measured over them too (NoveltyIndex.read)
SENTENCES = re.compile(r"(?<=[.!?:])\s+|\n+")
MIN_SENTENCES = 3  # fewer sentences of 5 words or more: too short to tell, cohesion not judged
COHESION_PRIOR = 2.0  # successive pairs' worth of belief in the positives' median: a short text's few say little
# Content statistics mean little on a short page (a table of identifiers has no common words):
# the envelope is fitted on examples of at least MIN_WORDS words and judges only such pages.
# Chosen on the tuning topics' examples: from 100 words on, the share of common words of real
# pages stays above 0.015, where below 100 it reaches 0.
# The most common English words: prose uses them for a third to a half of its words; text
# generated from keyword lists hardly at all (Ntoulas et al.: "fraction of popular words").
POPULAR = frozenset(
    "the of and to a in is that for it as with was on be by this are or from at an which not have can "
    "but you if one all has will its more their there when they been we would other into also may use "
    "used so these only than any some each such then what how no new two most first should must do".split()
)
FEATURES = ("topic_density", "compression", "popular_words")
# A topic's pages may be this many times as dense in its keywords as its densest positive example: ten examples'
# maximum bounds a topic poorly. At the maximum itself, 10% to 24% of the tuning topics' labeled pages were judged
# implausible, and on `unicode` the Unicode HOWTO, `codecs` and `unicodedata` (2 to 3 times the examples' 0.024);
# stuffed pages read 0.29 to 0.46, real relevant pages at most 0.175 (docs/benchmarks.md, session 60).
DENSITY_HEADROOM = 2.0
CREDIBLE = 0.5  # a relevant page at least this credible as a source vouches for its site (frontier.probation)


def tokens(text: str) -> list[str]:
    """The lowercased words of a text, as every word statistic here counts them."""
    return WORDS.findall(text.lower())


def content_features(text: str, words: list[str], topic_words: frozenset[str]) -> dict[str, float]:
    """Content statistics of a page's main text (and its tokens) that spam changes and real pages share."""
    count = max(len(words), 1)
    raw = text.encode("utf-8", "replace")[:20000]
    sentences = _sentence_words(text, topic_words)
    return {
        "topic_density": sum(w in topic_words for w in words) / count,
        "compression": len(zlib.compress(raw)) / max(len(raw), 1) if len(raw) > 200 else 0.5,
        "popular_words": sum(w in POPULAR for w in words) / count,
        "cohesion": _cohesion(sentences),
        "sentence_pairs": float(len(sentences) - 1),
        "words": float(len(words)),
    }


def judges(features: dict[str, float]) -> bool:
    """Whether a text is long enough for the envelope to judge: a shorter one is judged by its cohesion alone."""
    return features["words"] >= MIN_WORDS


def _cohesion(bags: list[set[str]]) -> float:
    """Share of successive sentences (`_sentence_words`) that share a content word; -1 for too few sentences."""
    if len(bags) < MIN_SENTENCES:
        return -1.0
    return sum(bool(a & b) for a, b in zip(bags, bags[1:])) / (len(bags) - 1)


def _sentence_words(text: str, topic_words: frozenset[str]) -> list[set[str]]:
    """The content words (neither common nor the topic's) of each sentence of 5 words or more."""
    sentences = [s for s in SENTENCES.split(text) if len(s.split()) >= 5]
    return [
        {w for w in WORDS.findall(s.lower()) if len(w) > 3 and w not in POPULAR and w not in topic_words}
        for s in sentences
    ]


def topic_words(keywords: Iterable[str]) -> frozenset[str]:
    """The words of the profile's keywords (the words a stuffer would repeat)."""
    return frozenset(w for k in keywords for w in WORDS.findall(k.lower()) if len(w) > 2)


@dataclass
class Envelope:
    """The range of each content feature over the user's examples: low and high quantiles,
    and for topic density only the positives' high end, with headroom (far more topic words than any positive
    example has is stuffing, not relevance); for cohesion the positives' median (`low`)."""

    low: dict[str, float]
    high: dict[str, float]
    tolerance: float = (
        0.25  # outside the range by this share of its width halves the plausibility (FOCUSED_OOD_TOLERANCE)
    )

    @classmethod
    def fit(cls, rows: list[dict[str, float]], positive: list[bool]) -> Envelope:
        """Fitted on the examples of at least MIN_WORDS words (all of them if fewer than ten are)."""
        long = [i for i, row in enumerate(rows) if judges(row)]
        if len(long) >= 10:
            rows, positive = [rows[i] for i in long], [positive[i] for i in long]
        low, high = {}, {}
        for name in FEATURES:
            values = np.array([row[name] for row in rows])
            low[name], high[name] = (float(v) for v in np.quantile(values, [0.02, 0.98]))
        density = np.array([row["topic_density"] for row, p in zip(rows, positive) if p])
        if len(density):
            high["topic_density"] = DENSITY_HEADROOM * float(density.max())
        low["topic_density"] = 0.0
        judged = [row["cohesion"] for row, p in zip(rows, positive) if p and row["cohesion"] >= 0]
        if judged:
            low["cohesion"] = float(np.median(judged))
        return cls(low, high)

    def plausibility(self, features: dict[str, float]) -> float:
        """1 inside the envelope; halved for every `tolerance` × the range's width outside it, per feature; times
        the page's cohesion against the positives' median. A page too short for the envelope has cohesion alone."""
        cohesive = self._cohesive(features)
        if not judges(features):
            return cohesive
        outside = 0.0
        for name in FEATURES:
            lo, hi = self.low[name], self.high[name]
            # A narrow set of examples (pages of one template) must not make every other page implausible:
            # the range counts as at least a quarter of its bounds' sum wide.
            width = max(hi - lo, (abs(lo) + abs(hi)) / 4, 1e-6)
            value = features[name]
            outside += max(lo - value, value - hi, 0.0) / width
        return 0.5 ** (outside / self.tolerance) * cohesive

    def _cohesive(self, features: dict[str, float]) -> float:
        """The page's cohesion, its pairs shrunk toward the positives' median by COHESION_PRIOR, against that median."""
        reference = self.low.get("cohesion")  # absent from envelopes trained before cohesion was measured
        value, pairs = features.get("cohesion", -1.0), features.get("sentence_pairs", 0.0)
        if not reference or value < 0:
            return 1.0
        return min(1.0, (value * pairs + COHESION_PRIOR * reference) / (pairs + COHESION_PRIOR) / reference)

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {"low": self.low, "high": self.high}

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, float]], tolerance: float) -> Envelope:
        return cls(data["low"], data["high"], tolerance)


@dataclass(frozen=True)
class Reading:
    """What the crawl had read of a page before: the share that is new, and the earlier pages that held the rest,
    each a copy of this page's text or its original (focused.strategies.base.Strategy.original)."""

    novelty: float = 1.0
    # (earlier page, share of this page's sampled 5-grams first read there, share of that page's), most first
    sources: tuple[tuple[str, float, float], ...] = ()

    @property
    def source(self) -> str | None:
        """The earlier page that held most of the text read before."""
        return self.sources[0][0] if self.sources else None

    @property
    def copied(self) -> float:
        """The share of the page first read on `source`."""
        return self.sources[0][1] if self.sources else 0.0


@dataclass
class NoveltyIndex:
    """Sampled word 5-grams of every page read so far, each with the page it was first read on, and each page's
    number of them, all and sampled; lives in spider.state (kept by JOBDIR). The URLs are shared strings: a page
    costs one per 5-gram kept."""

    first: dict[int, str] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    sampled: dict[str, int] = field(default_factory=dict)  # per page, its 5-grams one in SAMPLE keeps

    def read(self, url: str, shingles: frozenset[int]) -> Reading:
        """How much of a text, by its sampled_shingles, was read before, and where; the text is then remembered as
        read on `url`. A short page keeps every 5-gram and a long one only those the sample keeps, so a short
        page's text taken from a long page matches in those alone: counted over all its 5-grams, a mailing-list
        message quoting a manual's paragraph read before was 7/8 new. So a short page is also measured over its
        sampled 5-grams, where it has enough of them, and the larger share read before is what it repeats."""
        sample = frozenset(s for s in shingles if s % SAMPLE == 0)
        reading = self._reading(shingles, sample)
        for shingle in shingles:
            self.first.setdefault(shingle, url)
        self.sizes[url], self.sampled[url] = len(shingles), len(sample)
        return reading

    def _reading(self, shingles: frozenset[int], sample: frozenset[int]) -> Reading:
        """The reading before the text is remembered; over the sample too only for a short page with enough of it
        (a long page's shingles are its sample)."""
        if len(shingles) < MIN_SHINGLES:
            return Reading()
        reading = _share_read(self._earlier(shingles), len(shingles), self.sizes)
        if MIN_SAMPLED <= len(sample) < len(shingles):
            return min(reading, _share_read(self._earlier(sample), len(sample), self.sampled), key=lambda r: r.novelty)
        return reading

    def _earlier(self, shingles: frozenset[int]) -> Counter[str]:
        return Counter(self.first[s] for s in shingles if s in self.first)


def _share_read(earlier: Counter[str], size: int, sizes: dict[str, int]) -> Reading:
    """What `earlier` (the page each 5-gram read before was first read on) says of a text of `size` 5-grams, each
    earlier page's share counted against `sizes` (its number of 5-grams, counted the same way)."""
    novelty = 1.0 - sum(earlier.values()) / size
    return Reading(novelty, tuple((page, count / size, count / sizes[page]) for page, count in earlier.most_common()))


def sampled_shingles(words: list[str]) -> frozenset[int]:
    """One 5-gram in SAMPLE, or every one where a sample would be too few to tell: a short page is judged too.
    A generated reference's stubs (a page per method of each of about 40 classes, the same sentence in each)
    are short, and read as new they drew 800 of a crawl's 2,000 pages (docs/benchmarks.md, session 51)."""
    grams = (" ".join(words[i : i + SHINGLE]).encode() for i in range(len(words) - SHINGLE + 1))
    hashes = list(map(zlib.crc32, grams))
    sample = frozenset(h for h in hashes if h % SAMPLE == 0)
    return sample if len(sample) >= MIN_SHINGLES else frozenset(hashes)


def credible(probability: float, plausibility: float, prior: float) -> float:
    """The classifier's probability shrunk toward the prior as plausibility falls: an implausible page
    is as uncertain as a page the crawl knows nothing about."""
    return plausibility * probability + (1.0 - plausibility) * min(prior, probability)


def new_content(novelty: float) -> float:
    """How much of a page counts as new: a page more than half read before is a derivative (spun from
    other pages, a copy, a variant) and counts as nothing new; above half, linearly up to 1. Real pages
    of the benchmark web are read at novelty 0.97 or more (9 in 10 of them); spun and trigram pages at a
    median of 0.43 and 0.59 (docs/design.md, "Credibility")."""
    return max(0.0, 2.0 * novelty - 1.0)
