"""Refuse private, loopback and link-local hosts, so a crawl cannot reach into a private network.

A link to http://10.0.0.1/ or to a public name that resolves to 192.168.1.1 would let any
web page point the crawler at the machines beside it. Only globally routable addresses are
fetched, unless FOCUSED_ALLOWED_NETWORKS lists the network (the local test web needs
127.0.0.0/8). Two places see hosts:

- AddressGuardMiddleware, before any request, proxy or not: IP literals in every spelling a
  resolver accepts (2130706433, 0x7f.1, 0177.0.0.1, 127.1, [::ffff:127.0.0.1]), judged as the
  address they mean, and names that can only mean a local network (localhost and *.localhost,
  *.local, *.internal, *.home.arpa, the other suffixes of RFC 6762 appendix G, and names of one
  label). Through an HTTP proxy nothing else can be checked here: the proxy resolves names,
  and it would fetch http://localhost/ on its own machine.
- The resolver (focused.fetching.dns), for names that resolve to a refused address, when the crawl
  resolves names itself (no proxy). The proxy's own host is trusted.
FOCUSED_ALLOWED_NAMES opens names on purpose (an intranet crawl).
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from collections.abc import Iterable
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING
from urllib.parse import urlsplit
from urllib.request import getproxies

from scrapy.utils.httpobj import urlparse_cached

from focused.fetching.refusals import Refused

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
REFUSED_STAT = "focused/refused/private_address"
REFUSED_NAME_STAT = "focused/refused/private_name"
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

LOOPBACK = ipaddress.ip_address("127.0.0.1")  # what localhost means (RFC 6761)
# Suffixes that name a local network, never a public host: RFC 6762 (local and appendix G),
# RFC 8375 (home.arpa), ICANN's reserved internal.
LOCAL_SUFFIXES = ("local", "internal", "home.arpa", "intranet", "private", "corp", "home", "lan")
NUMERIC_HOST = re.compile(r"[0-9a-fx.]+", re.IGNORECASE)  # what inet_aton might take for an address
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def literal_address(host: str) -> IPAddress | None:
    """The address a host written as an IP literal means, in any spelling a resolver accepts;
    None for a name. IPv6 forms that carry an IPv4 address mean that address."""
    host = host.strip("[]").rstrip(".")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if not NUMERIC_HOST.fullmatch(host):
            return None
        try:  # the C library's parser: decimal, hex, octal and shortened forms
            address = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return embedded_ipv4(address) or address


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address."""
    if address.version == 4:
        return None
    if address.ipv4_mapped or address.sixtofour:
        return address.ipv4_mapped or address.sixtofour
    if address in NAT64 or (int(address) >> 32 == 0 and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def local_name(name: str) -> bool:
    """True for a name that can only mean a host on a local or private network."""
    labels = name.rstrip(".").lower().split(".")
    suffix = ".".join(labels[-2:])
    return len(labels) == 1 or labels[-1] in LOCAL_SUFFIXES or suffix in LOCAL_SUFFIXES


def loopback_name(name: str) -> bool:
    return name.rstrip(".").lower().split(".")[-1] == "localhost"


class AddressPolicy:
    def __init__(
        self, allowed: Iterable[str] = (), trusted_names: Iterable[str] = (), allowed_names: Iterable[str] = ()
    ):
        try:
            self.allowed = [ipaddress.ip_network(network, strict=False) for network in allowed]
        except ValueError as exc:
            raise ValueError(f"FOCUSED_ALLOWED_NETWORKS: {exc}") from None
        self.trusted_names = frozenset(name.lower() for name in trusted_names)
        self.allowed_names = tuple(pattern.lower() for pattern in allowed_names)

    @classmethod
    def from_settings(cls, settings) -> Self:
        proxies = (urlsplit(url).hostname for url in getproxies().values() if "://" in url)
        return cls(
            settings.getlist("FOCUSED_ALLOWED_NETWORKS"),
            [name for name in proxies if name],
            settings.getlist("FOCUSED_ALLOWED_NAMES"),
        )

    def refuses(self, address: str | IPAddress) -> bool:
        """True for an address that is not globally routable and not in an allowed network."""
        ip = ipaddress.ip_address(address.strip("[]")) if isinstance(address, str) else address
        ip = embedded_ipv4(ip) or ip
        return not ip.is_global and not any(ip in network for network in self.allowed)

    def allows_name(self, name: str) -> bool:
        """True for a name FOCUSED_ALLOWED_NAMES opens (patterns such as *.corp.internal)."""
        name = name.rstrip(".").lower()
        return any(fnmatchcase(name, pattern) for pattern in self.allowed_names)

    def trusts(self, name: str) -> bool:
        """True for a name whose address the resolver need not check: the proxy's, or one allowed."""
        return name.rstrip(".").lower() in self.trusted_names or self.allows_name(name)

    def refusal(self, host: str) -> str | None:
        """Why a URL's host is refused before any request ("private_address" or "private_name"),
        or None: an address by what it means, a name by what it can only mean."""
        address = literal_address(host)
        if address is not None:
            return "private_address" if self.refuses(address) else None
        if self.allows_name(host):  # not the proxy's name: through it, localhost is the proxy's machine
            return None
        if loopback_name(host):
            return "private_name" if self.refuses(LOOPBACK) else None
        return "private_name" if local_name(host) else None


class AddressGuardMiddleware:
    """Drops requests for hosts the policy refuses by their URL alone (before robots.txt)."""

    def __init__(self, crawler: Crawler, policy: AddressPolicy):
        self.stats = crawler.stats
        self.policy = policy
        self.logged: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler, AddressPolicy.from_settings(crawler.settings))

    def process_request(self, request: Request) -> None:
        host = urlparse_cached(request).hostname or ""
        reason = self.policy.refusal(host)
        if reason is None:
            return
        if host not in self.logged:
            self.logged.add(host)
            logger.warning(
                "Refusing host %s (%s): it can only mean a private, loopback or link-local network "
                "(see FOCUSED_ALLOWED_NETWORKS, FOCUSED_ALLOWED_NAMES)",
                host,
                request.url,
            )
        self.stats.inc_value(f"focused/refused/{reason}")
        raise Refused(reason, host)
