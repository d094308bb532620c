"""Crawl speed on the local web: plain Scrapy next to focused, in one run.

    python -m benchmarks.crawl_speed [--pages 800]

Every crawl runs in its own process through the same local web server, with the same
loopback settings (no delay, 4 requests per host, robots.txt obeyed), and stops at the
same page budget. Rows:
  - plain CrawlSpider with Scrapy's scheduler: the reference;
  - the same CrawlSpider with FocusedScheduler: the scheduler's own cost;
  - `scrapy crawl focused` with bfs, lexical and focused: the whole pipeline (extraction,
    relevance, near-duplicates, link scoring; the project's adaptive per-host delay),
    lexical with and without patience.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from focused.evaluation.metrics import harvest_rate
from testbed.harness import crawl_command, crawl_env, start_web
from testbed.localweb.web import LocalWeb

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = {
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
    "ROBOTSTXT_OBEY": True,
    "TELNETCONSOLE_ENABLED": False,
    "LOG_LEVEL": "INFO",
}
# The scheduler alone, with Scrapy's politeness (no adaptive delay, no patience): its own cost.
FOCUSED_SCHEDULER = {
    "SCHEDULER": "focused.frontier.scheduler.FocusedScheduler",
    "FOCUSED_LATENCY_FACTOR": 0,
    "FOCUSED_MAX_DELAY": 60,
    "FOCUSED_HOST_MAX_FAILURES": 5,
    "FOCUSED_PATIENCE": 0,
}


def crawl(command: list[str], settings: dict, proxy: str, cwd: Path, out: Path) -> tuple[float, list[str]]:
    log = out.with_suffix(".log")
    command = [*command, *(f"-s{key}={value}" for key, value in settings.items())]
    env = {**crawl_env(proxy), "PYTHONPATH": str(ROOT)}
    subprocess.run(command + ["-s", f"LOG_FILE={log}", "-O", f"{out}:jsonl"], cwd=cwd, env=env, check=True)
    text = log.read_text()
    responses = float(re.search(r"'response_received_count': (\d+)", text)[1])
    elapsed = float(re.search(r"'elapsed_time_seconds': ([0-9.]+)", text)[1])
    urls = re.findall(r'"url": "([^"]+)"', out.read_text()) if out.stat().st_size else []
    return responses / elapsed, urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=800)
    args = parser.parse_args()
    budget = {**LOOPBACK, "CLOSESPIDER_PAGECOUNT": args.pages}
    relevant = LocalWeb().relevant_urls()
    outside = Path(tempfile.mkdtemp(prefix="focused-bench-"))  # no scrapy.cfg: Scrapy's defaults
    plain = [sys.executable, "-m", "scrapy", "runspider", str(ROOT / "benchmarks" / "plain_spider.py")]
    profile = ROOT / "profiles" / "sql.toml"
    runs = [
        ("plain CrawlSpider, Scrapy scheduler", plain, budget, outside),
        ("plain CrawlSpider, FocusedScheduler", plain, {**budget, **FOCUSED_SCHEDULER}, outside),
        ("focused spider, bfs", crawl_command(profile, "bfs"), budget, ROOT),
        (
            "focused spider, lexical, patience 0",
            crawl_command(profile, "lexical"),
            {**budget, "FOCUSED_PATIENCE": 0},
            ROOT,
        ),
        ("focused spider, lexical (defaults)", crawl_command(profile, "lexical"), budget, ROOT),
        ("focused spider, focused (defaults)", crawl_command(profile, "focused"), budget, ROOT),
    ]
    server, proxy = start_web(outside / "access.jsonl")
    try:
        results = [
            (name, *crawl(cmd, s, proxy, cwd, outside / f"run{i}.jsonl")) for i, (name, cmd, s, cwd) in enumerate(runs)
        ]
    finally:
        server.terminate()
    reference = results[0][1]
    print(f"\nLocal web, {args.pages}-page budget, one process per crawl:")
    print(f"{'crawl':<38} {'pages/s':>8} {'vs plain':>9} {'harvest':>8}")
    for name, rate, urls in results:
        harvest = f"{harvest_rate(urls, relevant):8.1%}" if urls else f"{'-':>8}"
        print(f"{name:<38} {rate:8.1f} {rate / reference:9.0%} {harvest}")


if __name__ == "__main__":
    main()
