"""Per-host politeness: how long a host must rest, and whether it may be fetched now.

Scrapy's downloader enforces a slot's concurrency and delay; this module decides the
delay (configured delay, robots.txt Crawl-delay, a multiple of the host's recent
response time, doubled per consecutive failure) and writes it into the slot
(focused.scrapyinternals), so the scheduler and the downloader agree. The scheduler asks `wait(host)` before handing a
host's request out, so no request queues inside the downloader behind a resting host.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from time import monotonic
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from focused.scrapyinternals import DownloaderSlots

PENDING_TTL = 30.0  # seconds a handed-out request may take to reach the downloader
LATENCY_SMOOTHING = 0.3  # weight of the newest response time in the moving average
BACKOFF_BASE = 0.5  # seconds, doubled per consecutive failure of a host


def polite_delay(
    base: float, crawl_delay: float, latency: float, failures: int, latency_factor: float, max_delay: float
) -> float:
    """Seconds between two requests to a host: the largest of the configured delay, Crawl-delay and
    a multiple of its response time, doubled per consecutive failure; Crawl-delay is a floor even
    above max_delay."""
    polite = max(base, crawl_delay, latency_factor * latency)
    if failures:
        polite = max(polite, BACKOFF_BASE) * 2**failures
    return max(min(polite, max_delay), crawl_delay)


class HostPoliteness:
    def __init__(
        self,
        slots: DownloaderSlots,
        concurrency: int,
        delay: float,
        latency_factor: float,
        max_delay: float,
        max_failures: int,
        clock: Callable[[], float] = monotonic,
        slot_delays: bool = True,
    ):
        self.slots = slots
        self.slot_delays = slot_delays  # False in a shared crawl: the shared gate spaces requests instead
        self.concurrency = concurrency
        self.base_delay = delay
        self.latency_factor = latency_factor
        self.max_delay = max_delay
        self.max_failures = max_failures
        self.clock = clock
        self.crawl_delays: dict[str, float] = {}
        self.robots: dict[str, Any] = {}  # host -> robots parser, once parsed
        self.latency: dict[str, float] = {}
        self.failures: dict[str, int] = {}
        self.dead: set[str] = set()
        self.last_handout: dict[str, float] = {}
        self.pending: dict[str, dict[int, float]] = defaultdict(dict)  # handed out, not yet in the downloader

    def delay(self, host: str) -> float:
        return polite_delay(
            self.base_delay,
            self.crawl_delays.get(host, 0.0),
            self.latency.get(host, 0.0),
            self.failures.get(host, 0),
            self.latency_factor,
            self.max_delay,
        )

    def wait(self, host: str) -> tuple[float, bool]:
        """(Seconds until `host` may get another request, whether it is at its concurrency limit).

        A busy host's seconds are its smoothed response time: when it will likely be free.
        """
        now = self.clock()
        pending = self._pending(host, now)
        if self.slots.in_flight(host) + pending >= self.concurrency:
            return self.latency.get(host, 0.0), True
        last = max(self.slots.answered_at(host), self.last_handout.get(host, 0.0))
        return max(0.0, last + self.delay(host) - now), False

    def handed_out(self, host: str, request_id: int) -> None:
        now = self.clock()
        self.last_handout[host] = now
        self.pending[host][request_id] = now

    def finished(self, host: str) -> None:
        """A response (or failure) arrived: the host's delay counts from now, not from when the
        request started, so a slow answer is never followed at once by the next request."""
        self.slots.mark_answered(host, self.clock())

    def dropped(self, host: str, request_id: int) -> bool:
        """True for a handed-out request that ended before reaching the downloader (a middleware
        refused it): it never occupied the host, which is free again at once."""
        return self.pending[host].pop(request_id, None) is not None

    def reached_downloader(self, host: str, request_id: int) -> None:
        self.pending[host].pop(request_id, None)
        self.apply(host)

    def allowed(self, host: str, url: str, user_agent: str) -> bool:
        parser = self.robots.get(host)
        return parser is None or parser.allowed(url, user_agent)

    def robots_parsed(self, host: str, parser: Any, user_agent: str) -> None:
        self.robots[host] = parser
        crawl_delay = getattr(parser, "crawl_delay", lambda ua: None)(user_agent)
        if crawl_delay:
            self.crawl_delays[host] = float(crawl_delay)
        self.apply(host)

    def observe_latency(self, host: str, seconds: float) -> None:
        old = self.latency.get(host)
        self.latency[host] = seconds if old is None else old + LATENCY_SMOOTHING * (seconds - old)
        self.apply(host)

    def failed(self, host: str) -> bool:
        """Count a failure; returns True when the host has just been given up on."""
        self.failures[host] = self.failures.get(host, 0) + 1
        self.apply(host)
        if self.failures[host] >= self.max_failures and host not in self.dead:
            self.dead.add(host)
            return True
        return False

    def succeeded(self, host: str) -> None:
        if self.failures.pop(host, 0):
            self.apply(host)

    def apply(self, host: str) -> None:
        """Write the host's delay into its downloader slot; no jitter may undercut it."""
        self.slots.enforce_delay(host, self.delay(host) if self.slot_delays else 0.0)

    def _pending(self, host: str, now: float) -> int:
        entries = self.pending.get(host)
        if not entries:
            return 0
        for request_id, since in list(entries.items()):
            if now - since > PENDING_TTL:
                del entries[request_id]
        return len(entries)
