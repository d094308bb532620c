"""Near-duplicate pages by SimHash of their main text (Charikar 2002; Manku et al. 2007).

Two 64-bit fingerprints within `max_distance` bits share at least one of
`max_distance + 1` bands exactly, so a lookup touches only a few candidates.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

WORDS = re.compile(r"\w+")
BITS = 64
MIN_WORDS = 30  # fewer words than this: too short to call a near-duplicate of anything


def fingerprint(text: str) -> int | None:
    """The SimHash of a text long enough to compare, else None."""
    words = WORDS.findall(text.lower())
    return simhash(words) if len(words) >= MIN_WORDS else None


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

    def duplicate_of(self, url: str, fingerprint: int | None) -> str | None:
        """The URL of an earlier near-duplicate of a page's text by its fingerprint, or None (and the fingerprint
        is remembered); a text too short to compare (None) is nobody's duplicate."""
        if fingerprint is None:
            return None
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
