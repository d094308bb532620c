"""Dead hosts fail fast: classify download outcomes per host, stop hopeless retries.
failure_reason names, for the stats, why any fetch gave no page.

An unresolvable host, or a proxy's 502 or refused CONNECT tunnel for a host it cannot reach,
will not answer on a retry either: those requests are not retried. Every failure and success is reported to
the scheduler, which backs a failing host off and gives up on it after
FOCUSED_HOST_MAX_FAILURES consecutive failures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.core.downloader.handlers.http11 import TunnelError
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadTimeoutError,
    IgnoreRequest,
)
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import ConnectionRefusedError, DNSLookupError, TCPTimedOutError, TimeoutError

from focused import signals
from focused.fetching.refusals import PrivateAddressRefused, Refused
from focused.fetching.robots import UNREACHABLE
from focused.frontier.urls import host_of
from focused.scrapyinternals import scrapy_drop_reason

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure

HOPELESS_STATUS = {502}
FAILURE_STATUS = {500, 502, 503, 504, 522, 524}
HOPELESS_ERRORS = (CannotResolveHostError, DNSLookupError, TunnelError)
HOST_ERRORS = HOPELESS_ERRORS + (
    DownloadConnectionRefusedError,
    DownloadTimeoutError,
    ConnectionRefusedError,
    TimeoutError,
    TCPTimedOutError,
)


def failed_request(failure: Failure) -> Request:
    """The request of an errback's failure: Scrapy sets it on the failure, Twisted's type does not declare it."""
    return getattr(failure, "request")


def failure_reason(exc: BaseException) -> str:
    """The stats bucket of a fetch that gave no page (focused/failed/<reason>)."""
    if isinstance(exc, HttpError):
        return f"http_{exc.response.status}"
    if isinstance(exc, Refused | PrivateAddressRefused):
        return exc.reason
    return scrapy_drop_reason(exc) or ("ignored" if isinstance(exc, IgnoreRequest) else type(exc).__name__)


class HostHealthMiddleware:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if UNREACHABLE in response.flags:  # stands in for an exception already counted
            return response
        host = host_of(request.url)
        if response.status in FAILURE_STATUS:
            self._failed(request, f"HTTP {response.status}", hopeless=response.status in HOPELESS_STATUS)
        else:
            self.crawler.signals.send_catch_log(signals.host_succeeded, host=host)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        if isinstance(exception, IgnoreRequest) or not isinstance(exception, HOST_ERRORS):
            return
        self._failed(request, type(exception).__name__, hopeless=isinstance(exception, HOPELESS_ERRORS))

    def _failed(self, request: Request, reason: str, hopeless: bool) -> None:
        stats = self.crawler.stats
        stats.inc_value(f"focused/host_failure/{reason}")
        if hopeless:
            request.meta["dont_retry"] = True
            stats.inc_value("focused/host_failure/not_retried")
        self.crawler.signals.send_catch_log(signals.host_failed, host=host_of(request.url), reason=reason)
