"""A progress line every FOCUSED_PROGRESS_INTERVAL seconds: is the crawl finding its topic?"""

from __future__ import annotations

import logging
from time import monotonic
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

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
        self.log()

    def log(self) -> None:
        stats = self.crawler.stats
        pages = stats.get_value("focused/pages", 0)
        relevant = stats.get_value("focused/relevant", 0)
        elapsed = max(monotonic() - self.started, 1e-9)
        logger.info(
            "Progress: %d pages, %d relevant (harvest %.1f%%), frontier %d URLs on %d hosts, %.1f pages/s",
            pages,
            relevant,
            100.0 * relevant / pages if pages else 0.0,
            stats.get_value("focused/frontier/size", 0),
            stats.get_value("focused/frontier/hosts", 0),
            pages / elapsed,
        )
