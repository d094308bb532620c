"""Requests focused itself refuses, as exceptions that carry the reason the stats count them under
(focused/failed/<reason>): no reason is read back out of a message."""

from __future__ import annotations

from scrapy.exceptions import IgnoreRequest
from twisted.internet.error import DNSLookupError


class Refused(IgnoreRequest):
    """A request dropped before download: a private host (focused.fetching.addresses), a host the shared crawl gave up
    on (focused.frontier.sharedhosts)."""

    def __init__(self, reason: str, host: str):
        super().__init__(f"{reason.replace('_', ' ')}: {host}")
        self.reason = reason


class PrivateAddressRefused(DNSLookupError):
    """A name resolved to an address the crawl may not reach: to the downloader, a failed lookup."""

    reason = "private_address"
