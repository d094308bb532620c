"""WARC output: every fetched response as a WARC record (warcio), the format web archives share.

Enabled by FOCUSED_WARC (a file path, e.g. crawl.warc.gz): each response the downloader
receives, robots.txt and redirects included, is written as a `request` and a `response`
record, gzipped one record per member, as Heritrix and wget do. The file is opened for
appending, so a resumed crawl (JOBDIR) adds to it. A refresh crawl's revisit that found the version
the collection holds is a `revisit` record instead of a response: "server-not-modified" for a 304,
"identical-payload-digest" for the same body again, referring to the version it repeats. `python -m testbed.localweb serve --warc
FILE` serves an archive back (testbed.localweb.warcweb), for re-running crawls and evaluations offline.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from urllib.parse import urlsplit

import scrapy
from scrapy import signals
from scrapy.exceptions import NotConfigured
from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from focused import __version__
from focused.refresh.revisits import revisit_of
from focused.refresh.versions import body_digest

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)
HOP_BY_HOP = {b"transfer-encoding", b"connection", b"keep-alive"}  # the body is stored de-chunked
NOT_MODIFIED = "http://netpreserve.org/warc/1.0/revisit/server-not-modified"  # the profile for a 304


def _headers(headers) -> list[tuple[str, str]]:
    return [
        (name.decode("latin-1"), value.decode("latin-1"))
        for name, values in headers.items()
        if name.lower() not in HOP_BY_HOP
        for value in values
    ]


class WarcWriter:
    """The extension: writes at response_downloaded, before any middleware changes the response."""

    def __init__(self, crawler: Crawler, path: Path):
        self.crawler = crawler
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file: BinaryIO = path.open("ab")
        self.writer = WARCWriter(self.file, gzip=path.suffix == ".gz")
        info = {
            "software": f"focused/{__version__} (Scrapy {scrapy.__version__})",
            "http-header-user-agent": crawler.settings.get("USER_AGENT"),
            "format": "WARC File Format 1.0",
        }
        self.writer.write_record(self.writer.create_warcinfo_record(path.name, info))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        path = crawler.settings.get("FOCUSED_WARC")
        if not path:
            raise NotConfigured
        extension = cls(crawler, Path(path))
        crawler.signals.connect(extension.write, signal=signals.response_downloaded)
        crawler.signals.connect(extension.close, signal=signals.spider_closed)
        return extension

    def write(self, response: Response, request: Request) -> None:
        url = response.url
        status = f"{response.status} {self._reason(response.status)}"
        protocol = getattr(response, "protocol", None) or "HTTP/1.1"
        response_headers = StatusAndHeaders(status, _headers(response.headers), protocol=protocol)
        parts = urlsplit(request.url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        request_headers = StatusAndHeaders(
            f"{request.method} {target} HTTP/1.1", _headers(request.headers), is_http_request=True
        )
        record = self._revisit(response, response_headers, revisit_of(request)) or self.writer.create_warc_record(
            url, "response", payload=BytesIO(response.body), http_headers=response_headers
        )
        self.writer.write_request_response_pair(
            self.writer.create_warc_record(url, "request", payload=BytesIO(request.body), http_headers=request_headers),
            record,
        )
        self.file.flush()
        self.crawler.stats.inc_value("focused/warc/records", 2)

    def _revisit(self, response: Response, headers: StatusAndHeaders, revisit: dict | None) -> ArcWarcRecord | None:
        """A revisit record, when a refresh crawl's revisit found the version it has (None otherwise)."""
        if revisit is None:
            return None
        refers_to = datetime.fromtimestamp(revisit["version_at"], UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if response.status == 304:
            record = self.writer.create_warc_record(response.url, "revisit", http_headers=headers)
            record.rec_headers.add_header("WARC-Profile", NOT_MODIFIED)
            record.rec_headers.add_header("WARC-Refers-To-Target-URI", response.url)
            record.rec_headers.add_header("WARC-Refers-To-Date", refers_to)
            return record
        digest = body_digest(response.body)
        if digest != revisit["body"]:
            return None
        return self.writer.create_revisit_record(response.url, digest, response.url, refers_to, http_headers=headers)

    def close(self) -> None:
        self.file.close()

    @staticmethod
    def _reason(status: int) -> str:
        try:
            return HTTPStatus(status).phrase
        except ValueError:
            return "Unknown"
