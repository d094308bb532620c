"""Crawler-trap guards, as a spider middleware: each guard counts what it drops.

Depth and URL length are Scrapy's own guards (DEPTH_LIMIT, URLLENGTH_LIMIT); the
per-host page budget is applied by the scheduler, after duplicates are removed.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

DATE_LIKE = re.compile(r"(?<!\d)(19|20)\d\d[/_-](0?[1-9]|1[0-2])(?!\d)|[?&](year|month|day|date|week)=", re.IGNORECASE)


class TrapGuard:
    """Pure URL rules: repeated path segments, calendars, query-parameter explosions."""

    def __init__(self, max_segment_repeat: int, max_calendar_urls: int, max_query_variants: int):
        self.max_segment_repeat = max_segment_repeat
        self.max_calendar_urls = max_calendar_urls
        self.max_query_variants = max_query_variants
        self.calendar: dict[str, set[str]] = {}
        self.variants: dict[tuple[str, str], set[str]] = {}

    def trap(self, url: str) -> str | None:
        """The name of the guard that rejects `url`, or None if it may be crawled."""
        parts = urlsplit(url)
        segments = [s for s in parts.path.split("/") if s]
        if segments and max(Counter(segments).values()) > self.max_segment_repeat:
            return "repeated_segment"
        if (
            self.max_calendar_urls
            and DATE_LIKE.search(url)
            and not self._admit(self.calendar.setdefault(parts.netloc, set()), url, self.max_calendar_urls)
        ):
            return "calendar"
        if (
            self.max_query_variants
            and parts.query
            and not self._admit(
                self.variants.setdefault((parts.netloc, parts.path), set()), parts.query, self.max_query_variants
            )
        ):
            return "query_variants"
        return None

    @staticmethod
    def _admit(seen: set[str], value: str, limit: int) -> bool:
        if value in seen:
            return True
        if len(seen) >= limit:
            return False
        seen.add(value)
        return True


class TrapGuardMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.guard = TrapGuard(
            settings.getint("FOCUSED_MAX_SEGMENT_REPEAT"),
            settings.getint("FOCUSED_MAX_CALENDAR_URLS"),
            settings.getint("FOCUSED_MAX_QUERY_VARIANTS"),
        )

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        trap = self.guard.trap(request.url)
        if trap is None:
            return request
        self.crawler.stats.inc_value(f"focused/trap/{trap}")
        return None
