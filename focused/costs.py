"""Where a crawl's time goes: seconds spent in each stage of a page's way through the crawler, summed in the
stats as focused/seconds/<stage>, so that a benchmark divides them by the pages and compares the stages
(benchmarks/crawl_speed.py) and a user sees what a setting costs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from time import perf_counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy.statscollectors import StatsCollector


@contextmanager
def timed(stats: StatsCollector, stage: str) -> Iterator[None]:
    started = perf_counter()
    try:
        yield
    finally:
        spent(stats, stage, perf_counter() - started)


def spent(stats: StatsCollector, stage: str, seconds: float) -> None:
    """Seconds a stage took elsewhere (an extraction worker's, the model thread's)."""
    stats.inc_value(f"focused/seconds/{stage}", seconds)  # type: ignore[arg-type]  # annotated int, adds any number
