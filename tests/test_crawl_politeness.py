"""A whole crawl of the local web, judged from the server's own access log."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict

import pytest

from focused.settings import FOCUSED_HOST_MAX_FAILURES, USER_AGENT
from testbed.harness import crawl_env
from testbed.localweb.web import CRAWL_DELAY, DEAD, ROBOTS_DISALLOW, STORM
from tests.conftest import REPO, Crawl, WebServer, crawl

PER_HOST = 2


@pytest.fixture(scope="module")
def full_crawl(module_web, tmp_path_factory) -> tuple[Crawl, list[dict]]:
    """Crawl everything reachable (the traps bounded by the guards) with 20 ms server latency,
    so that a second concurrent request to a host would overlap the first in the log. No
    adaptive delay: the per-host concurrency is the limit to reach and respect."""
    server: WebServer = module_web(latency=0.02)
    settings = {"CONCURRENT_REQUESTS_PER_DOMAIN": PER_HOST, "CLOSESPIDER_PAGECOUNT": 3000, "FOCUSED_LATENCY_FACTOR": 0}
    result = crawl(tmp_path_factory.mktemp("full"), server.proxy, settings=settings)
    assert result.returncode == 0, result.log[-3000:]
    return result, server.entries()


def test_the_crawl_ends_by_itself_having_fetched_the_web(full_crawl):
    result, log = full_crawl
    assert "'finish_reason': 'finished'" in result.log  # frontier exhausted, not the page budget
    assert len(result.items) > 800


def test_robots_txt_is_fetched_first_and_obeyed(full_crawl):
    _, log = full_crawl
    first = {}
    for entry in log:
        first.setdefault(entry["host"], entry["path"])
    assert set(first.values()) == {"/robots.txt"}, first
    for entry in log:
        prefix = ROBOTS_DISALLOW.get(entry["host"])
        assert not (prefix and entry["path"].startswith(prefix)), entry


def test_crawl_delay_is_honored(full_crawl):
    _, log = full_crawl
    for host, delay in CRAWL_DELAY.items():
        times = [e["t"] for e in log if e["host"] == host]
        assert len(times) > 5
        gaps = [b - a for a, b in zip(times, times[1:])]
        assert min(gaps) >= delay - 0.01, (host, gaps)


def test_per_host_concurrency_never_exceeds_the_setting(full_crawl):
    _, log = full_crawl
    assert max(e["concurrency"] for e in log) == PER_HOST  # reached, and never above


def test_a_new_host_gets_its_second_request_after_its_first_is_answered(full_crawl):
    """focused.frontier.probation: a site's links, all scored before any of its pages was judged, are not handed
    out together. With 20 ms per response and two requests per host allowed, they would overlap."""
    _, log = full_crawl
    pages = defaultdict(list)
    for entry in log:
        if entry["path"] != "/robots.txt":
            pages[entry["host"]].append(entry)
    seconds = {host: entries[1]["page_concurrency"] for host, entries in pages.items() if len(entries) > 1}
    assert len(seconds) > 5 and set(seconds.values()) == {1}, seconds


def test_no_url_is_fetched_twice(full_crawl):
    _, log = full_crawl
    statuses = defaultdict(list)
    for entry in log:
        statuses[(entry["host"], entry["path"])].append(entry["status"])
    for url, seen in statuses.items():
        retried = all(status >= 500 for status in seen[:-1])  # only a server error earns a retry
        assert len(seen) == 1 or retried, (url, seen)


def test_every_request_identifies_the_crawler(full_crawl):
    _, log = full_crawl
    assert {e["ua"] for e in log} == {USER_AGENT}


def test_trap_pages_are_bounded_by_the_guards(full_crawl):
    result, log = full_crawl
    calendar = [e for e in log if e["host"] == "calendar.example" and e["path"].startswith("/events/")]
    shop = [e for e in log if e["host"] == "shop.example" and e["path"].startswith("/list")]
    docs = [e["path"] for e in log if e["host"] == "dbtalk.example" and e["path"].startswith("/docs/")]
    assert 1 < len(calendar) <= 30
    assert 1 < len(shop) <= 31
    assert docs and max(p.count("docs/") for p in docs) <= 2
    assert result.stat("focused/trap/calendar") > 0
    assert result.stat("focused/trap/query_variants") > 0
    assert result.stat("focused/trap/repeated_segment") > 0


def test_dead_host_fails_fast(full_crawl):
    result, log = full_crawl
    dead = [e for e in log if e["host"] == DEAD]
    assert [e["path"] for e in dead] == ["/robots.txt"]  # a proxy's 502 is not retried; no rules, no pages
    assert result.stat("focused/host_failure/not_retried") >= 1


def test_a_host_in_a_5xx_storm_is_backed_off_then_given_up(full_crawl):
    result, log = full_crawl
    storm = [e["t"] for e in log if e["host"] == STORM and e["path"] != "/robots.txt"]
    failures = FOCUSED_HOST_MAX_FAILURES
    assert len(storm) <= failures + PER_HOST  # 12 pages linked, 3 tries each without the guard
    gaps = [b - a for a, b in zip(storm, storm[1:])]
    assert max(gaps) >= 0.5 * 2 ** (failures - 2)  # the delay doubled per failure
    assert result.stat("focused/host/dead") >= 1 and result.stat("focused/dropped/host_dead") >= 1


def test_hazards_are_dropped_and_counted(full_crawl):
    result, log = full_crawl
    for scheme in ("mailto", "javascript", "file", "ftp", "data"):
        assert result.stat(f"focused/dropped/scheme/{scheme}") >= 1, scheme
    assert result.stat("focused/dropped/malformed") >= 1
    assert result.stat("focused/skipped/not_html") >= 1  # binary served without an extension
    loop = [e for e in log if e["path"].startswith("/r/loop")]
    assert len(loop) <= 2  # a redirect loop ends at the seen test


def test_near_duplicates_are_marked(full_crawl):
    result, _ = full_crawl
    mirrored = [item for item in result.items if item["url"].startswith("http://mirror.example/section")]
    assert mirrored
    marked = [item for item in mirrored if item["duplicate_of"]]
    assert len(marked) >= 0.9 * len(mirrored)
    assert all(item["duplicate_of"].startswith("http://sqlzone.example/") for item in marked)


def test_items_carry_the_documented_fields(full_crawl):
    result, _ = full_crawl
    fields = {
        "url",
        "fetched_at",
        "depth",
        "parent_url",
        "anchor",
        "score",
        "relevance",
        "relevant",
        "title",
        "text",
        "content_type",
        "status",
        "duplicate_of",
        "outlinks",
    }
    assert all(fields <= set(item) for item in result.items)
    article = next(item for item in result.items if "/article" in item["url"])
    assert article["parent_url"] and article["title"] and article["text"]
    assert set(article["evidence"]["signals"]) == {"inherited", "anchor", "context", "url"}


def test_any_spider_can_use_the_scheduler(web, tmp_path):
    """A project's own spider with SCHEDULER set to focused's: its requests are scheduled best first and politely,
    and nothing asks it for a model worker it does not have."""
    output, log = tmp_path / "plain.jsonl", tmp_path / "plain.log"
    command = [sys.executable, "-m", "scrapy", "runspider", str(REPO / "benchmarks" / "plain_spider.py")]
    settings = {
        "SCHEDULER": "focused.frontier.scheduler.FocusedScheduler",
        "CLOSESPIDER_PAGECOUNT": 60,
        "CONCURRENT_REQUESTS_PER_DOMAIN": PER_HOST,
        "LOG_FILE": log,
        "TELNETCONSOLE_ENABLED": False,
    }
    command += [f"-s{key}={value}" for key, value in settings.items()] + ["-O", f"{output}:jsonl"]
    done = subprocess.run(command, cwd=tmp_path, env=crawl_env(web.proxy), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, log.read_text()[-3000:]
    assert "'focused/frontier/dequeued'" in log.read_text()
    assert len({(e["host"], e["path"]) for e in web.entries() if e["path"] != "/robots.txt"}) >= 50
    assert max(e["page_concurrency"] for e in web.entries()) <= PER_HOST
