"""The one place focused relies on parts of Scrapy's engine and downloader that Scrapy does not document.

The scheduler must see what the downloader knows of a host (requests in flight, when its last answer
came), set the delay the downloader enforces, and wake the engine when a host's delay ends (the
engine asks for requests only after a response or at its 5-second heartbeat); the stats must tell
apart why Scrapy's components dropped a request, which they say only in their messages. Scrapy has
no API for these. Everything here is keyed by the downloader's slot key, as Scrapy keys its slots;
tests/test_scrapyinternals.py fails loudly when a Scrapy upgrade changes what this module reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from scrapy.resolver import dnscache

# Why Scrapy's own components gave no page, by a phrase of their message (no exception type says it).
SCRAPY_DROPS = (
    ("during decompression", "decompression_bomb"),  # HttpCompressionMiddleware, DOWNLOAD_MAXSIZE while inflating
    ("max size", "too_large"),  # the download handler, DOWNLOAD_MAXSIZE
    ("max redirections", "redirect_loop"),  # RedirectMiddleware, REDIRECT_MAX_TIMES
    ("robots.txt", "robots"),  # RobotsTxtMiddleware
)

if TYPE_CHECKING:
    from scrapy.core.downloader import Downloader, Slot
    from scrapy.core.engine import ExecutionEngine


class DownloaderSlots:
    """The downloader's slots, read and set by host (the politeness unit of focused's frontier)."""

    def __init__(self, slots: Mapping[str, Slot], per_ip: bool = False):
        self.slots = slots
        self.per_ip = per_ip  # CONCURRENT_REQUESTS_PER_IP: Scrapy keys a slot by the host's address

    @classmethod
    def of(cls, downloader: Downloader) -> DownloaderSlots:
        return cls(downloader.slots, bool(downloader.ip_concurrency))

    def key(self, host: str) -> str:
        """The slot key Scrapy's Downloader.get_slot_key gives a request for `host` without a download_slot."""
        return dnscache.get(host, host) if self.per_ip else host

    def in_flight(self, host: str) -> int:
        slot = self.slots.get(self.key(host))
        return len(slot.active) if slot is not None else 0

    def answered_at(self, host: str) -> float:
        """When the host's last request ended, as far as the downloader counts its delay (0: never)."""
        slot = self.slots.get(self.key(host))
        return slot.lastseen if slot is not None else 0.0

    def mark_answered(self, host: str, when: float) -> None:
        """Count the host's delay from `when` (the downloader counts it from a request's start)."""
        slot = self.slots.get(self.key(host))
        if slot is not None:
            slot.lastseen = when

    def enforce_delay(self, host: str, seconds: float) -> None:
        """The delay the downloader keeps between the host's requests, with no jitter to undercut it."""
        slot = self.slots.get(self.key(host))
        if slot is not None:
            slot.delay = seconds
            slot.jitter = 0.0


def engine_wakeup(engine: ExecutionEngine) -> Callable[[], Any] | None:
    """What makes the engine ask the scheduler for a request soon (None while no spider is open)."""
    slot = engine._slot
    return slot.nextcall.schedule if slot is not None else None


def scrapy_drop_reason(exc: BaseException) -> str | None:
    """The stats name of why a Scrapy component dropped a request or download (None: not one of those)."""
    message = str(exc)
    return next((reason for phrase, reason in SCRAPY_DROPS if phrase in message), None)
