"""DNS caching: Scrapy's caching resolver, plus failed names, with counts in the crawl stats.

A name that did not resolve is answered from a negative cache for
FOCUSED_DNS_NEGATIVE_TTL seconds: a dead host fails fast instead of costing a lookup
per URL. A name that resolves to an address the AddressPolicy refuses (private, loopback,
link-local) fails as PrivateAddressRefused, with no connection made. The resolver (TWISTED_DNS_RESOLVER) is built once per process, before any
crawler has stats, so it counts by itself and the DnsCacheStats extension copies the
counts over. (Twisted turns every resolver failure into "no results", so the refusal is
logged and counted here, where its reason is known.)
"""

from __future__ import annotations

import logging
from collections import Counter
from time import monotonic
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.resolver import CachingThreadedResolver, dnscache
from twisted.internet import defer
from twisted.internet.error import DNSLookupError

from focused.fetching.addresses import REFUSED_STAT, AddressPolicy
from focused.fetching.refusals import PrivateAddressRefused

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Self

    from scrapy.crawler import Crawler
    from twisted.internet.base import ReactorBase
    from twisted.internet.defer import Deferred


class CountingCachingResolver(CachingThreadedResolver):
    def __init__(
        self, reactor: ReactorBase, cache_size: int, timeout: float, negative_ttl: float, policy: AddressPolicy
    ):
        super().__init__(reactor, cache_size, timeout)
        self.negative_ttl = negative_ttl
        self.policy = policy
        self.failed: dict[str, float] = {}  # name -> when to try it again
        self.counts: Counter[str] = Counter()

    @classmethod
    def from_crawler(cls, crawler: Crawler, reactor: ReactorBase) -> Self:
        settings = crawler.settings
        cache_size = settings.getint("DNSCACHE_SIZE") if settings.getbool("DNSCACHE_ENABLED") else 0
        return cls(
            reactor,
            cache_size,
            settings.getfloat("DNS_TIMEOUT"),
            settings.getfloat("FOCUSED_DNS_NEGATIVE_TTL"),
            AddressPolicy.from_settings(settings),
        )

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:
        if self.failed.get(name, 0.0) > monotonic():
            self.counts["dnscache/negative_hit"] += 1
            return defer.fail(DNSLookupError(name))
        self.counts["dnscache/hit" if name in dnscache else "dnscache/miss"] += 1
        deferred = super().getHostByName(name, timeout)
        if not self.policy.trusts(name):
            deferred.addCallback(self._check, name)
        deferred.addErrback(self._failed, name)
        return deferred

    def _check(self, address: str, name: str) -> str:
        if self.policy.refuses(address):
            logger.warning("Refusing host %s: it resolves to %s (see FOCUSED_ALLOWED_NETWORKS)", name, address)
            self.counts[REFUSED_STAT] += 1
            raise PrivateAddressRefused(f"{name} resolves to {address}, a private address")
        return address

    def _failed(self, failure: Any, name: str) -> Any:
        self.counts["dnscache/error"] += 1
        if self.negative_ttl > 0:
            self.failed[name] = monotonic() + self.negative_ttl
        return failure


class DnsCacheStats:
    """Adds the resolver's counts to the stats: dnscache/hit, /miss, /error, /negative_hit, and
    names refused for their address (focused/refused/private_address)."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        extension = cls(crawler)
        crawler.signals.connect(extension.record, signal=signals.spider_closed)
        return extension

    def record(self) -> None:
        from twisted.internet import reactor

        resolver = getattr(reactor, "resolver", None)  # installed by Scrapy's DNS_RESOLVER, not in the interfaces
        for name, count in getattr(resolver, "counts", {}).items():
            self.crawler.stats.inc_value(name, count)
