"""DNS caching: Scrapy's caching resolver, with its hits and misses in the crawl stats.

The resolver (TWISTED_DNS_RESOLVER) is built once per process, before any crawler has
stats, so it counts by itself and the DnsCacheStats extension copies the counts over.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.resolver import CachingThreadedResolver, dnscache

if TYPE_CHECKING:
    from collections.abc import Sequence

    from scrapy.crawler import Crawler
    from twisted.internet.defer import Deferred
    from typing_extensions import Self


class CountingCachingResolver(CachingThreadedResolver):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.counts: Counter[str] = Counter()

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:
        self.counts["hit" if name in dnscache else "miss"] += 1
        deferred = super().getHostByName(name, timeout)
        deferred.addErrback(self._count_error)
        return deferred

    def _count_error(self, failure: Any) -> Any:
        self.counts["error"] += 1
        return failure


class DnsCacheStats:
    """Puts the resolver's counts into the stats as dnscache/hit, /miss and /error."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        extension = cls(crawler)
        crawler.signals.connect(extension.record, signal=signals.spider_closed)
        return extension

    def record(self) -> None:
        from twisted.internet import reactor

        for name, count in getattr(reactor.resolver, "counts", {}).items():
            self.crawler.stats.set_value(f"dnscache/{name}", count)
