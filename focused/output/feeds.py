"""Feed exports that survive `kill -9`: each item reaches the file in one write, and a resumed
crawl learns from its own output which pages are already written.

Scrapy's file storage buffers writes, so a killed crawl would lose the last few kilobytes
of items (and could leave half a line). UnbufferedFileStorage (FEED_STORAGES "file" and
"") hands the exporter an unbuffered file: a JSON-lines item is one write() call. On resume
the scheduler reads back the local JSON-lines feeds (written_urls): a page already in the
output is not fetched again, so no item is written twice.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import IO, TYPE_CHECKING

from scrapy.extensions.feedexport import FileFeedStorage
from w3lib.url import file_uri_to_path

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)
JSON_LINES = {"jsonlines", "jsonl", "jl"}


class UnbufferedFileStorage(FileFeedStorage):
    def open(self, spider: Spider) -> IO[bytes]:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        return Path(self.path).open(self.write_mode, buffering=0)


def local_json_lines_feeds(settings: BaseSettings) -> list[Path]:
    """The FEEDS a resumed crawl appends to: local files in JSON lines, not overwritten."""
    paths = []
    for uri, options in settings.getdict("FEEDS").items():
        uri = str(uri)
        local = uri.startswith("file:") or "://" not in uri
        if local and options.get("format") in JSON_LINES and not options.get("overwrite"):
            paths.append(Path(file_uri_to_path(uri) if uri.startswith("file:") else uri))
    return paths


def written_urls(path: Path) -> set[str]:
    """URLs of the items in a JSON-lines feed; a last line cut short by a kill is removed."""
    if not path.exists():
        return set()
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):
        logger.warning("Removing an unfinished last item (%d bytes) from %s", len(data) - complete, path)
        with path.open("r+b") as f:
            f.truncate(complete)
    urls = set()
    for line in data[:complete].splitlines():
        url = json.loads(line).get("url") if line.strip() else None
        if url:
            urls.add(url)
    return urls
