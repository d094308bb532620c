"""Crawl quality against labels: the share of fetched pages that are relevant."""

from __future__ import annotations

from collections.abc import Collection, Sequence


def harvest_rate(urls: Sequence[str], relevant: Collection[str], budget: int | None = None) -> float:
    """Fraction of the first `budget` fetched URLs (all if None) that are labeled relevant."""
    fetched = urls[:budget] if budget else urls
    return sum(url in relevant for url in fetched) / len(fetched) if fetched else 0.0
