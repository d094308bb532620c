"""A crawl through broken and hostile answers: each is skipped with a logged, counted reason; the rest is fetched."""

from __future__ import annotations

import re
from pathlib import Path

from focused.pages.extract import looks_binary
from testbed.localweb.hostile import (
    GARBAGE_ROBOTS,
    GOOD_PAGES,
    HOSTILE,
    HOSTS,
    HUGE_ROBOTS,
    LIMIT,
    TARPIT,
    UNREADABLE_ROBOTS,
)

SETTINGS = {"DOWNLOAD_TIMEOUT": 2, "DOWNLOAD_MAXSIZE": LIMIT, "RETRY_TIMES": 0, "FOCUSED_MAX_DELAY": 1}


def test_the_crawl_survives_hostile_answers_and_counts_each(hostile_web, run_crawl, tmp_path: Path):
    profile = tmp_path / "hostile.toml"
    profile.write_text(
        'name = "hostile"\ndescription = "SQL databases"\nkeywords = ["sql"]\n'
        f'seeds = ["http://{HOSTILE}/"]\n[crawl]\nallowed_domains = {list(HOSTS + UNREADABLE_ROBOTS)}\n'.replace(
            "'", '"'
        )
    )
    result = run_crawl(hostile_web.proxy, profile=profile, strategy="bfs", settings=SETTINGS)
    assert result.returncode == 0 and "Spider closed (finished)" in result.log
    fetched = set(result.urls)
    good = {f"http://{host}/good/{i}.html" for host in HOSTS for i in range(GOOD_PAGES)}
    assert good <= fetched, good - fetched
    titles = {item["url"].rsplit("/", 1)[1]: item["title"] for item in result.items}
    assert titles["latin1.html"].startswith("Café cr")  # no charset anywhere: guessed (Scrapy's charset_normalizer)
    assert "wrong-charset.html" in titles and "malformed.html" in titles

    expected = {
        "focused/skipped/binary": 1,
        "focused/failed/decompression_bomb": 1,
        "focused/failed/too_large": 1,
        "focused/failed/redirect_loop": 1,
        "focused/failed/DownloadTimeoutError": 2,  # the slow drip and the silent server
    }
    assert {name: result.stat(name) for name in expected} == expected
    for reason in ("scheme/ftp", "scheme/data", "scheme/file", "scheme/javascript", "scheme/gopher"):
        assert result.stat(f"focused/dropped/{reason}") >= 1, reason
    assert result.stat("focused/dropped/malformed") >= 3  # "http://[::1", a space in the host, port 99999
    assert result.stat("urllength/request_ignored_count") >= 1
    assert "binary data served as HTML" in result.log and "max redirections" in result.log
    http_errors = sum(map(float, re.findall(r"'focused/failed/http_\d+': (\d+)", result.log)))
    answered_empty = result.stat("focused/skipped/binary") + result.stat("focused/skipped/not_html") + http_errors
    assert result.stat("focused/dead_ends") == answered_empty > 0  # each told to the strategy

    requested = {(e["host"], e["path"]) for e in hostile_web.entries()}
    assert (GARBAGE_ROBOTS, "/good/0.html") in requested  # garbage robots.txt: nothing is disallowed
    assert (HUGE_ROBOTS, "/robots.txt") in requested and (HUGE_ROBOTS, "/private/secret.html") not in requested
    assert (TARPIT, "/good/0.html") in requested
    for host in UNREADABLE_ROBOTS:  # a robots.txt that fails forbids the whole host (RFC 9309)
        assert {path for h, path in requested if h == host} == {"/robots.txt"}, host
    assert result.stat("focused/robots/unreachable/http_503") == 1
    assert result.stat("focused/robots/unreachable/DownloadTimeoutError") == 1


def test_binary_is_told_from_text():
    assert looks_binary(bytes(range(256)) * 4) and looks_binary(b"<html>\x00</html>")
    assert not looks_binary("<html><body>Café – “quotes”\n\ttabs</body></html>".encode())
    assert not looks_binary("Café".encode("latin-1") * 100)
