"""Near-duplicate pages by SimHash of their main text (Charikar 2002; Manku et al. 2007).

Two 64-bit fingerprints within `max_distance` bits share at least one of
`max_distance + 1` bands exactly, so a lookup touches only a few candidates.
A text too short for SimHash (a few shingles decide every bit, so unrelated short pages land
within a few bits) is a duplicate of the same words only: an index page served again under
another URL is still a copy (docs/benchmarks.md, session 85).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import numpy as np

WORDS = re.compile(r"\w+")
BITS = 64
MIN_WORDS = 30  # fewer words than this: too short for SimHash


@dataclass(frozen=True)
class Fingerprint:
    value: int  # the SimHash of the text's words, or a hash of them all when `exact`
    exact: bool


def fingerprint(text: str) -> Fingerprint | None:
    """The SimHash of a text long enough for it, a hash of the words of a shorter one; None: no words."""
    words = WORDS.findall(text.lower())
    if len(words) >= MIN_WORDS:
        return Fingerprint(simhash(words), exact=False)
    if not words:
        return None
    return Fingerprint(int.from_bytes(hashlib.blake2b(" ".join(words).encode(), digest_size=8).digest()), exact=True)


def simhash(words: list[str], shingle: int = 3) -> int:
    grams = {" ".join(words[i : i + shingle]) for i in range(max(1, len(words) - shingle + 1))}
    digests = b"".join(hashlib.blake2b(g.encode(), digest_size=8).digest() for g in grams)
    bits = np.unpackbits(np.frombuffer(digests, dtype=np.uint8)).reshape(-1, BITS)
    majority = bits.sum(axis=0) * 2 > len(grams)
    return int.from_bytes(np.packbits(majority).tobytes(), "big")


class SimHashIndex:
    def __init__(self, max_distance: int = 3):
        self.max_distance = max_distance
        self.bands = max_distance + 1
        self.width = BITS // self.bands
        self.urls: dict[int, str] = {}
        self.buckets: dict[tuple[int, int], list[int]] = {}
        self.short: dict[int, str] = {}  # exact fingerprints of short texts -> the first URL read with it

    def duplicate_of(self, url: str, fingerprint: Fingerprint | None) -> str | None:
        """The URL of an earlier near-duplicate of a page's text by its fingerprint, or None (and the fingerprint
        is remembered); a text without words (None) is nobody's duplicate."""
        if fingerprint is None:
            return None
        if fingerprint.exact:
            first = self.short.setdefault(fingerprint.value, url)
            return first if first != url else None
        return self._near(url, fingerprint.value)

    def _near(self, url: str, fingerprint: int) -> str | None:
        keys = self._keys(fingerprint)
        for key in keys:
            for other in self.buckets.get(key, ()):
                if (fingerprint ^ other).bit_count() <= self.max_distance:
                    return self.urls[other]
        self.add(fingerprint, url)
        return None

    def add(self, fingerprint: int, url: str) -> None:
        self.urls.setdefault(fingerprint, url)
        for key in self._keys(fingerprint):
            self.buckets.setdefault(key, []).append(fingerprint)

    def _keys(self, fingerprint: int) -> list[tuple[int, int]]:
        mask = (1 << self.width) - 1
        return [(band, (fingerprint >> (band * self.width)) & mask) for band in range(self.bands)]
