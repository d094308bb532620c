"""Refuse private, loopback and link-local addresses, so a crawl cannot reach into a private network.

A link to http://10.0.0.1/ or to a public name that resolves to 192.168.1.1 would let any
web page point the crawler at the machines beside it. Only globally routable addresses are
fetched, unless FOCUSED_ALLOWED_NETWORKS lists the network (the local test web needs
127.0.0.0/8). Two places see addresses: the resolver (names, see focused.dns) and
AddressGuardMiddleware (IP literals in URLs, which are never resolved). Through an HTTP
proxy, name resolution is the proxy's job: the proxy's own host is trusted.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit
from urllib.request import getproxies

from scrapy.exceptions import IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.error import DNSLookupError

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
REFUSED_STAT = "focused/refused/private_address"


class PrivateAddressRefused(DNSLookupError):
    """A name resolved to an address the crawl may not reach: to the downloader, a failed lookup."""


class AddressPolicy:
    def __init__(self, allowed: Iterable[str] = (), trusted_names: Iterable[str] = ()):
        try:
            self.allowed = [ipaddress.ip_network(network, strict=False) for network in allowed]
        except ValueError as exc:
            raise ValueError(f"FOCUSED_ALLOWED_NETWORKS: {exc}") from None
        self.trusted_names = frozenset(name.lower() for name in trusted_names)

    @classmethod
    def from_settings(cls, settings) -> Self:
        proxies = (urlsplit(url).hostname for url in getproxies().values() if "://" in url)
        return cls(settings.getlist("FOCUSED_ALLOWED_NETWORKS"), [name for name in proxies if name])

    def refuses(self, address: str) -> bool:
        """True for an address that is not globally routable and not in an allowed network."""
        ip = ipaddress.ip_address(address.strip("[]"))
        return not ip.is_global and not any(ip in network for network in self.allowed)

    def refuses_literal(self, host: str) -> bool:
        """True for an IP-literal host the policy refuses; names are the resolver's to check."""
        try:
            return self.refuses(host)
        except ValueError:
            return False  # a name, not an address


class AddressGuardMiddleware:
    """Drops requests for IP literals the policy refuses (names are refused by the resolver)."""

    def __init__(self, crawler: Crawler, policy: AddressPolicy):
        self.stats = crawler.stats
        self.policy = policy

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler, AddressPolicy.from_settings(crawler.settings))

    def process_request(self, request: Request) -> None:
        host = urlparse_cached(request).hostname or ""
        if self.policy.refuses_literal(host):
            logger.warning("Refusing %s: a private, loopback or link-local address (see FOCUSED_ALLOWED_NETWORKS)",
                           request.url)
            self.stats.inc_value(REFUSED_STAT)
            raise IgnoreRequest(f"private address refused: {host}")
