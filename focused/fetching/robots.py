"""A robots.txt that cannot be read forbids the whole host (RFC 9309, section 2.3.1.3).

Scrapy's RobotsTxtMiddleware parses whatever body a robots.txt request returns and allows
everything when the request fails: a 503 page, a proxy's 502 or a timeout would open the host
to the crawl. This middleware sits below RetryMiddleware, so it sees what is left once the
retries are spent, and turns a server or network error on a robots.txt request into rules
that disallow every path. A 4xx robots.txt still means no rules (the RFC's "unavailable").
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

DISALLOW_ALL = b"User-agent: *\nDisallow: /\n"
UNREACHABLE = "robots-unreachable"  # flags the disallow-all answer that stands in for a failed robots.txt


def is_robots(request: Request) -> bool:
    return bool(request.meta.get("dont_obey_robotstxt")) and request.url.endswith("/robots.txt")


class UnreachableRobotsMiddleware:
    def __init__(self, stats: StatsCollector):
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler.stats)

    def process_response(self, request: Request, response: Response) -> Response:
        if is_robots(request) and response.status >= 500 and UNREACHABLE not in response.flags:
            return self._disallow_all(request, response, f"http_{response.status}")
        return response

    def process_exception(self, request: Request, exception: Exception) -> Response | None:
        if not is_robots(request) or isinstance(exception, IgnoreRequest):
            return None
        # 599: no HTTP answer came; the response chain after this sees the stand-in
        return self._disallow_all(request, Response(request.url, status=599), type(exception).__name__)

    def _disallow_all(self, request: Request, response: Response, reason: str) -> Response:
        logger.warning("%s is unreachable (%s): the host is disallowed for this crawl", request.url, reason)
        self.stats.inc_value(f"focused/robots/unreachable/{reason}")
        return response.replace(body=DISALLOW_ALL, flags=[*response.flags, UNREACHABLE])
