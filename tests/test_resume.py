"""Pause and resume with JOBDIR: same order, same seen set, nothing fetched twice or lost."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from tests.conftest import REPO

# One request at a time, each page scored before the next is chosen, no adaptive delay, no
# waiting: a deterministic best-first order.
STEADY = {
    "CONCURRENT_REQUESTS": 1,
    "SCRAPER_SLOT_MAX_ACTIVE_SIZE": 1,
    "FOCUSED_LATENCY_FACTOR": 0,
    "FOCUSED_PATIENCE": 0,
}


def test_a_stopped_crawl_resumes_where_it_stopped(web, run_crawl, tmp_path: Path):
    profile = tmp_path / "steady.toml"  # slow.example's Crawl-delay would make the order depend on timing
    profile.write_text(
        (REPO / "profiles" / "sql.toml")
        .read_text()
        .replace(
            "allowed_domains = []",
            'allowed_domains = ["portal.example", "sqlzone.example", "dbtalk.example", "kitchen.example"]',
        )
    )
    run_crawl = functools.partial(run_crawl, profile=profile)
    jobdir = tmp_path / "job"
    first = run_crawl(web.proxy, settings={**STEADY, "JOBDIR": jobdir, "CLOSESPIDER_PAGECOUNT": 60}, name="first")
    before = len(web.entries())
    second = run_crawl(web.proxy, settings={**STEADY, "JOBDIR": jobdir, "CLOSESPIDER_PAGECOUNT": 60}, name="second")
    pages_after = [e for e in web.entries()[before:] if e["path"] != "/robots.txt"]
    reference = run_crawl(web.proxy, settings={**STEADY, "CLOSESPIDER_PAGECOUNT": 200}, name="reference")

    saved = int(re.search(r"Saved (\d+) queued URLs", first.log)[1])
    resumed = int(re.search(r"Resumed (\d+) queued URLs", second.log)[1])
    assert saved == resumed > 20
    resumed_urls = first.urls + second.urls
    assert len(resumed_urls) == len(set(resumed_urls))  # nothing fetched twice
    assert resumed_urls == reference.urls[: len(resumed_urls)]  # the same order as an unbroken crawl
    first_paths = {(e["host"], e["path"]) for e in web.entries()[:before]}
    assert not first_paths & {(e["host"], e["path"]) for e in pages_after}


def test_the_learned_strategy_resumes_with_what_it_learned(web, run_crawl, tmp_path: Path):
    jobdir = tmp_path / "job"
    settings = {"JOBDIR": jobdir, "CLOSESPIDER_PAGECOUNT": 80, "CONCURRENT_REQUESTS_PER_DOMAIN": 2}
    first = run_crawl(web.proxy, strategy="focused", settings=settings, name="first")
    second = run_crawl(web.proxy, strategy="focused", settings=settings, name="second")
    assert "Resumed the focused strategy" not in first.log
    pages = int(re.search(r"Resumed the focused strategy: (\d+) pages in its crawl graph", second.log)[1])
    assert pages == len(first.items)
    assert not set(first.urls) & set(second.urls)
