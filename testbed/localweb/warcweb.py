"""A web served from WARC files (a crawl's FOCUSED_WARC), for replaying crawls offline."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator

from testbed.localweb.web import Reply

SERVED_AGAIN = {"content-type", "content-length", "content-encoding", "transfer-encoding", "date", "server"}


class WarcWeb:
    """A web served from WARC files: each archived URL answers as it did when it was crawled."""

    def __init__(self, paths: list[Path]):
        self.replies: dict[tuple[str, str], Reply] = {}
        for path in paths:
            with path.open("rb") as f:
                for record in ArchiveIterator(f):
                    if record.rec_type == "response":
                        self._add(record)

    def _add(self, record) -> None:
        url = record.rec_headers.get_header("WARC-Target-URI")
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        http = record.http_headers
        headers = {k: v for k, v in http.headers if k.lower() not in SERVED_AGAIN}
        body = record.content_stream().read()  # de-chunked and decompressed
        content_type = http.get_header("Content-Type") or "application/octet-stream"
        self.replies[((parts.hostname or "").lower(), target)] = Reply(
            int(http.get_statuscode()), body, content_type, headers
        )

    def __len__(self) -> int:
        return len(self.replies)

    def respond(self, host: str, target: str) -> Reply:
        return self.replies.get((host, target)) or Reply(404, b"not in the archive", "text/plain")
