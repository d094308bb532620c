"""`kill -9` a crawl with JOBDIR at a random moment, several times: nothing discovered or written is lost.

Breadth-first order depends only on the frontier, so a crawl resumed from its journal and run
until its frontier is empty must write exactly what an unbroken crawl writes, in the same
order: a lost URL would change the order or end the crawl early, a lost item would leave a
gap, a repeated one a duplicate.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time
from pathlib import Path

from focused.output.feeds import written_urls
from testbed.harness import crawl_command, crawl_env
from tests.conftest import FAST, REPO, crawl, descendants, outliving

STEADY = {
    **FAST,
    "FOCUSED_WORKERS": 1,  # a killed crawl takes its extraction workers with it
    "CONCURRENT_REQUESTS": 1,
    "SCRAPER_SLOT_MAX_ACTIVE_SIZE": 1,
    "FOCUSED_LATENCY_FACTOR": 0,
    "FOCUSED_PATIENCE": 0,
}
KILLS = 3


def steady_profile(tmp_path: Path) -> Path:
    """The SQL profile without slow.example, whose Crawl-delay would make the order depend on timing."""
    profile = tmp_path / "steady.toml"
    domains = '["portal.example", "sqlzone.example", "dbtalk.example", "kitchen.example"]'
    profile.write_text(
        (REPO / "profiles" / "sql.toml").read_text().replace("allowed_domains = []", f"allowed_domains = {domains}")
    )
    return profile


def start_crawl(profile: Path, proxy: str, jobdir: Path, output: Path, log: Path) -> subprocess.Popen:
    command = crawl_command(profile, "bfs", output, {"JOBDIR": jobdir, "LOG_FILE": log, **STEADY}, append=True)
    return subprocess.Popen(
        command, cwd=REPO, env=crawl_env(proxy), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def kill_while_crawling(process: subprocess.Popen, output: Path, rng: random.Random) -> None:
    """Wait until the crawl has written something, then kill it at a random moment."""
    before = output.stat().st_size if output.exists() else 0
    deadline = time.monotonic() + 60
    while (output.stat().st_size if output.exists() else 0) <= before and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(rng.uniform(0.0, 1.0))
    started = set(descendants(process.pid))
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert started and not outliving(started), "extraction workers outlived their crawl"


def test_a_crawl_killed_at_random_moments_resumes_without_loss(web, tmp_path: Path):
    profile, jobdir, output = steady_profile(tmp_path), tmp_path / "job", tmp_path / "out.jsonl"
    rng = random.Random()
    written_before: list[list[str]] = []
    for kill in range(KILLS):
        kill_while_crawling(start_crawl(profile, web.proxy, jobdir, output, tmp_path / f"run{kill}.log"), output, rng)
        written_before.append(
            [json.loads(line)["url"] for line in output.read_bytes().splitlines(keepends=True) if line.endswith(b"\n")]
        )
    fetched_while_killed = len(web.entries())
    final = start_crawl(profile, web.proxy, jobdir, output, tmp_path / "final.log")
    assert final.wait(timeout=300) == 0
    resumed = [json.loads(line)["url"] for line in output.read_text().splitlines()]
    web_log = web.entries()
    reference = crawl(tmp_path, web.proxy, profile=profile, strategy="bfs", settings=STEADY, name="reference")

    assert len(resumed) == len(set(resumed)), "an item was written twice"
    for urls in written_before:
        assert resumed[: len(urls)] == urls, "an item written before a kill was lost"
    assert resumed == reference.urls, "the resumed crawl differs from an unbroken one: a discovered URL was lost"
    pages = [(e["host"], e["path"]) for e in web_log if e["path"] != "/robots.txt"]
    refetched = len(pages) - len(set(pages))
    assert refetched <= KILLS, f"{refetched} pages fetched again, more than the {KILLS} in flight at the kills"
    assert fetched_while_killed > 0


def test_a_cut_last_line_is_removed_and_the_written_urls_are_read_back(tmp_path: Path):
    feed = tmp_path / "out.jsonl"
    feed.write_bytes(b'{"url": "http://a.example/"}\n{"url": "http://b.example/"}\n{"url": "http://c.exa')
    assert written_urls(feed) == {"http://a.example/", "http://b.example/"}
    assert feed.read_bytes().endswith(b'b.example/"}\n')
