"""A progress line every FOCUSED_PROGRESS_INTERVAL seconds: is the crawl finding its topic?

The harvest it reports is the crawl's own estimate, the mean credible probability of its
pages (focused/credibility.py), with a 95% interval: the spread of that many Bernoulli trials,
widened by the classifier's calibration error on examples held out of training. The count of
pages over the relevance threshold is shown too, but it is a verdict, not an estimate. The
last line, at the close, is the crawl's summary.
"""

from __future__ import annotations

import logging
import math
from time import monotonic
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)


class Progress:
    def __init__(self, crawler: Crawler, interval: float):
        self.crawler = crawler
        self.interval = interval
        self.loop = task.LoopingCall(self.log)
        self.started = monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        interval = crawler.settings.getfloat("FOCUSED_PROGRESS_INTERVAL")
        if interval <= 0:
            raise NotConfigured
        extension = cls(crawler, interval)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self) -> None:
        self.started = monotonic()
        self.loop.start(self.interval, now=False)

    def spider_closed(self) -> None:
        if self.loop.running:
            self.loop.stop()
        self.log("Summary")

    def log(self, label: str = "Progress") -> None:
        stats = self.crawler.stats
        pages = stats.get_value("focused/pages", 0)
        estimate, low, high = harvest_estimate(stats)
        if label == "Summary":
            for name, value in (("estimate", estimate), ("estimate_low", low), ("estimate_high", high)):
                stats.set_value(f"focused/harvest/{name}", round(value, 4))
        elapsed = max(monotonic() - self.started, 1e-9)
        logger.info(
            "%s: %d pages, estimated harvest %.1f%% (95%%: %.1f-%.1f%%), %d over the threshold, "
            "frontier %d URLs on %d hosts, %.1f pages/s",
            label,
            pages,
            100 * estimate,
            100 * low,
            100 * high,
            stats.get_value("focused/relevant", 0),
            stats.get_value("focused/frontier/size", 0),
            stats.get_value("focused/frontier/hosts", 0),
            pages / elapsed,
        )


def harvest_estimate(stats: StatsCollector) -> tuple[float, float, float]:
    """Estimated harvest and its 95% interval from the sums the spider keeps in the stats."""
    pages = stats.get_value("focused/pages", 0)
    if not pages:
        return 0.0, 0.0, 0.0
    mean = stats.get_value("focused/estimate/probability_sum", 0.0) / pages
    half = 1.96 * math.sqrt(stats.get_value("focused/estimate/variance_sum", 0.0)) / pages
    half += stats.get_value("focused/estimate/calibration_error", 0.0)
    return mean, max(0.0, mean - half), min(1.0, mean + half)
