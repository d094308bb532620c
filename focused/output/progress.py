"""A progress line every FOCUSED_PROGRESS_INTERVAL seconds: is the crawl finding its topic?

The harvest it reports is the crawl's own estimate: the share of its pages judged relevant by
the auditor, a model the crawl does not follow, on its sample of the pages (focused/relevance/audit.py),
with a 95% interval (Wilson's for that many trials, widened by the auditor's calibration
error on examples held out of training). Without an auditor, the share of all pages the
classifier judged relevant (credible probability over the threshold), which a crawl ordered
by that classifier overstates. Not the mean probability: most of a crawl's pages are near the
topic without being on it, and a classifier trained on a few examples gives them 0.1 to 0.4
where one in twenty is relevant; summed over hundreds of pages, those small probabilities made
a harvest two to three times the truth (docs/design.md, "The crawl's own estimate"). A verdict over
the threshold leaves them out. The last line, at the close, is the crawl's summary.
"""

from __future__ import annotations

import logging
from time import monotonic
from typing import TYPE_CHECKING

from scipy.stats import binomtest
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
            "%s: %d pages, %d judged relevant: estimated harvest %.1f%% (95%%: %.1f-%.1f%%, %s), "
            "frontier %d URLs on %d hosts, %.1f pages/s",
            label,
            pages,
            stats.get_value("focused/relevant", 0),
            100 * estimate,
            100 * low,
            100 * high,
            estimate_basis(stats),
            stats.get_value("focused/frontier/size", 0),
            stats.get_value("focused/frontier/hosts", 0),
            pages / elapsed,
        )
        revisits = {
            change: stats.get_value(f"focused/refresh/{change}", 0) for change in ("changed", "unchanged", "gone")
        }
        if any(revisits.values()):  # a refresh crawl
            logger.info(
                "%s: revisits found %d pages changed, %d unchanged, %d gone; %d new pages",
                label,
                *revisits.values(),
                stats.get_value("focused/refresh/new", 0),
            )


def harvest_estimate(stats: StatsCollector) -> tuple[float, float, float]:
    """Estimated harvest and its 95% interval from the counts the spider keeps in the stats: the auditor's on its
    sample of pages, or, without an auditor, the classifier's on every page."""
    counts = "focused/audit/" if stats.get_value("focused/estimate/source") == "audit" else "focused/"
    pages = stats.get_value(counts + "pages", 0)
    if not pages:
        return 0.0, 0.0, 1.0
    relevant = stats.get_value(counts + "relevant", 0)
    interval = binomtest(relevant, pages).proportion_ci(confidence_level=0.95, method="wilson")
    error = stats.get_value("focused/estimate/calibration_error", 0.0)
    return relevant / pages, max(0.0, interval.low - error), min(1.0, interval.high + error)


def estimate_basis(stats: StatsCollector) -> str:
    if stats.get_value("focused/estimate/source") == "audit":
        return f"audited on {stats.get_value('focused/audit/pages', 0)} pages"
    return "unaudited"
