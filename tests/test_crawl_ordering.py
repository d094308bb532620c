"""Ordering over real HTTP: best-first beats breadth-first, and no host holds up the others."""

from __future__ import annotations

import bisect
import json
from pathlib import Path
from urllib.parse import urlsplit

from testbed.localweb.web import CRAWL_DELAY, LocalWeb

RELEVANT = LocalWeb().relevant_urls()
BUDGET = 300


def harvest(urls: list[str]) -> float:
    """Share of fetched pages that the generated web labels relevant (ground truth, not the crawler's opinion)."""
    return sum(url in RELEVANT for url in urls) / len(urls)


def test_lexical_harvests_clearly_more_than_breadth_first(web, run_crawl):
    """Under CPU contention lexical's harvest at 300 pages is bimodal: 0.348 in a fresh clone's suite and in one of
    two runs beside two busy processes (breadth-first 0.20 to 0.22), above 0.42 otherwise (docs/benchmarks.md,
    session 70). Hence a margin of 0.12, not 0.2."""
    settings = {"CLOSESPIDER_PAGECOUNT": BUDGET, "CONCURRENT_REQUESTS_PER_DOMAIN": 2}
    lexical = run_crawl(web.proxy, strategy="lexical", settings=settings, name="lexical")
    bfs = run_crawl(web.proxy, strategy="bfs", settings=settings, name="bfs")
    assert len(lexical.urls) >= 0.9 * BUDGET and len(bfs.urls) >= 0.9 * BUDGET
    assert harvest(lexical.urls) >= harvest(bfs.urls) + 0.12, (harvest(lexical.urls), harvest(bfs.urls))
    assert lexical.items[0]["strategy"] == "lexical" and bfs.items[0]["strategy"] == "bfs"


def test_breadth_first_fetches_level_by_level(web, run_crawl):
    """With a window of 1 the frontier waits for the best URL whatever host it is on: a page never comes two
    levels after one that was there to fetch before it (its parent read earlier). Judged on the order pages
    arrive in, so a host's first page is left out: handed out in order, it waits in the downloader for the host's
    robots.txt, and under CPU contention another host's pages went four levels on meanwhile (session 92)."""
    bfs = run_crawl(web.proxy, strategy="bfs", settings={"CLOSESPIDER_PAGECOUNT": 150, "FOCUSED_PATIENCE_WINDOW": 1})
    depths = [item["depth"] for item in bfs.items]
    arrived = {item["url"]: n for n, item in enumerate(bfs.items)}
    found = [arrived.get(item["parent_url"], -1) for item in bfs.items]  # when each page's link was there to take
    hosts = [urlsplit(item["url"]).hostname for item in bfs.items]
    later = [
        (q, p)
        for p in range(len(depths))
        if hosts[p] in hosts[:p]
        for q in range(p)
        if depths[q] >= depths[p] + 2 and found[p] < found[q]
    ]
    assert max(depths) >= 3
    assert not later, [(bfs.items[q]["url"], bfs.items[p]["url"]) for q, p in later[:5]]
    assert sum(a > b for a, b in zip(depths, depths[1:])) <= len(depths) // 10


def test_a_slow_delayed_host_does_not_stall_the_others(web, run_crawl, tmp_path: Path):
    """slow.example has the best-scored URLs, a Crawl-delay and slow answers. With a downloader
    of 4 slots, queuing its requests would block everyone; the frontier keeps them back instead."""
    profile = tmp_path / "slow.toml"
    profile.write_text(
        'name = "sql"\ndescription = "Relational databases: SQL queries, transactions, indexes."\n'
        'keywords = ["sql", "database", "transaction", "index", "query", "schema", "join"]\n'
        'seeds = ["http://slow.example/", "http://sqlzone.example/", "http://kitchen.example/"]\n'
    )
    result = run_crawl(web.proxy, profile=profile, settings={"CLOSESPIDER_PAGECOUNT": 250, "CONCURRENT_REQUESTS": 4})
    log = web.entries()
    slow = [e["t"] for e in log if e["host"] == "slow.example"]
    assert len(slow) >= 5
    assert min(b - a for a, b in zip(slow, slow[1:])) >= CRAWL_DELAY["slow.example"] - 0.01
    window = [e for e in log if slow[1] <= e["t"] <= slow[-1] and e["host"] != "slow.example"]
    assert len(window) >= 4 * (len(slow) - 2), (len(window), len(slow))
    assert result.returncode == 0


def test_the_crawl_does_not_run_ahead_of_what_it_has_judged(web, run_crawl, tmp_path: Path):
    """Pages judged one every 50 ms, fetched far faster: at any moment, of the pages the server has answered, at
    most FOCUSED_MAX_UNJUDGED wait for their verdict (plus the few answered but not yet received)."""
    judged_log = tmp_path / "judged.jsonl"
    settings = {
        "CLOSESPIDER_PAGECOUNT": 120,
        "CONCURRENT_REQUESTS": 4,
        "FOCUSED_MAX_UNJUDGED": 4,
        "ITEM_PIPELINES": json.dumps({"testbed.bottleneck.Bottleneck": 100}),
        "TESTBED_ITEM_SECONDS": 0.05,
        "TESTBED_ITEM_LOG": judged_log,
    }
    crawl = run_crawl(web.proxy, settings=settings)
    pages = set(crawl.urls)
    assert crawl.returncode == 0 and len(pages) >= 100
    answered = sorted(e["t"] for e in web.entries() if f"http://{e['host']}{e['path']}" in pages)
    judged = sorted(json.loads(line)["t"] for line in judged_log.read_text().splitlines())
    waiting = [i + 1 - bisect.bisect_left(judged, t) for i, t in enumerate(answered)]
    assert max(waiting) <= 4 + 4, waiting  # CONCURRENT_REQUESTS is 4
