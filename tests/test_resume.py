"""Pause and resume with JOBDIR: same order, same seen set, nothing fetched twice or lost."""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

import pytest
from scrapy.exceptions import UsageError

from focused.jobformat import FORMAT, MARKER, check_format, mark_format, written_format
from testbed.harness import crawl_command, crawl_env
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


def test_a_job_written_before_this_layout_is_refused_before_the_crawl_starts_and_left_as_it_was(
    web, run_crawl, tmp_path: Path
):
    jobdir = tmp_path / "job"
    settings = {"JOBDIR": jobdir, "CLOSESPIDER_PAGECOUNT": 20}
    first = run_crawl(web.proxy, strategy="focused", settings=settings, name="first")
    assert first.returncode == 0 and (jobdir / MARKER).read_text() == f"{FORMAT}\n"
    (jobdir / MARKER).unlink()  # as an older version left it
    files = {path: path.read_bytes() for path in jobdir.rglob("*") if path.is_file()}
    fetches = len(web.entries())

    command = crawl_command(REPO / "profiles" / "sql.toml", "focused", tmp_path / "second.jsonl", settings)
    second = subprocess.run(command, cwd=REPO, env=crawl_env(web.proxy), capture_output=True, text=True, timeout=120)

    assert second.returncode == 2
    assert f"focused: JOBDIR {jobdir} holds a job in layout 0, and this version resumes layout" in second.stderr
    assert "Traceback" not in second.stderr and not (tmp_path / "second.jsonl").exists()
    assert len(web.entries()) == fetches
    assert {path: path.read_bytes() for path in jobdir.rglob("*") if path.is_file()} == files


def test_a_jobdir_is_new_empty_or_in_a_layout(tmp_path: Path):
    assert written_format(tmp_path / "none") is None
    (tmp_path / "empty").mkdir()
    assert written_format(tmp_path / "empty") is None
    (tmp_path / "job").mkdir()
    mark_format(str(tmp_path / "job"))
    assert written_format(tmp_path / "job") == str(FORMAT)
    check_format(tmp_path / "job")
    (tmp_path / "job" / MARKER).write_text("99\n")
    with pytest.raises(UsageError, match="layout 99"):
        check_format(tmp_path / "job")
