"""WARC output: every response the server sent is archived, and the archive serves the same crawl back."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from testbed.localweb.web import LocalWeb
from tests.conftest import start_web

# The crawl ends by itself (seeds and their links): a CLOSESPIDER_PAGECOUNT cut would race the last
# response, which Scrapy may or may not hand to the spider before it closes. No audit: an audited page's
# item waits for the auditor's thread, and the next page's item may be written before it.
STEADY = {
    "CONCURRENT_REQUESTS": 1,
    "FOCUSED_LATENCY_FACTOR": 0,
    "FOCUSED_PATIENCE": 0,
    "DEPTH_LIMIT": 1,
    "FOCUSED_AUDIT_SHARE": 0,
}


def records(path: Path) -> list:
    with path.open("rb") as f:
        return [
            (
                r.rec_type,
                r.rec_headers.get_header("WARC-Target-URI"),
                r.http_headers.get_statuscode() if r.rec_type == "response" else None,
                r.content_stream().read(),
            )
            for r in ArchiveIterator(f)
        ]


def test_every_response_is_archived_and_the_archive_replays_the_crawl(web, run_crawl, tmp_path: Path):
    warc = tmp_path / "crawl.warc.gz"
    crawled = run_crawl(web.proxy, strategy="bfs", settings={**STEADY, "FOCUSED_WARC": warc}, name="crawled")
    archived = records(warc)
    responses = [(url, status, body) for kind, url, status, body in archived if kind == "response"]
    assert len(responses) == len(web.entries()) == crawled.stat("focused/warc/records") / 2
    assert sum(kind == "request" for kind, *_ in archived) == len(responses)
    assert archived[0][0] == "warcinfo" and b"focused/" in archived[0][3]
    gzip.open(warc).read()  # one valid gzip stream of members
    page = crawled.items[1]["url"]
    host, path = page.split("/")[2], "/" + page.split("/", 3)[3]
    assert dict((url, body) for url, _, body in responses)[page] == LocalWeb().respond(host, path).body

    (tmp_path / "replay").mkdir()
    replay = start_web(tmp_path / "replay", 0.0, "testbed.localweb", "--warc", str(warc))
    try:
        replayed = run_crawl(replay.proxy, strategy="bfs", settings=STEADY, name="replayed")
    finally:
        replay.process.terminate()
        replay.process.wait()
    assert replayed.urls == crawled.urls and "'finish_reason': 'finished'" in replayed.log
    assert [item["title"] for item in replayed.items] == [item["title"] for item in crawled.items]
    assert json.dumps(replayed.items[0]["outlinks"]) == json.dumps(crawled.items[0]["outlinks"])
