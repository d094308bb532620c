"""Crawl speed, plain Scrapy next to focused in one run, and where focused's time goes per page.

    python -m benchmarks.crawl_speed [--pages 800]                          # the local web
    python -m benchmarks.crawl_speed --web benchweb --topic http [--pages 1000]  # the benchmark web

Every crawl runs in its own process through the same web server, with the same loopback settings
(no delay, 4 requests per host, robots.txt obeyed), from the same profile's seeds and allowed
domains, and stops at the same page budget. Rows:
  - plain CrawlSpider with Scrapy's scheduler: the reference; the same in Scrapy's breadth-first order;
  - the same CrawlSpider with FocusedScheduler: the scheduler's own cost;
  - `scrapy crawl focused` with bfs, lexical and focused: the whole pipeline (extraction,
    relevance, near-duplicates, link scoring; the project's adaptive per-host delay),
    lexical with and without patience, focused with extraction in worker processes (the default) and in
    the crawl's own process (FOCUSED_WORKERS=0). With --web the topic's classifier is trained first
    (`scrapy train`, the model `auto` picks); on the local web the committed one is used.
Then the milliseconds per page of each stage of the focused crawls (focused/seconds/<stage>
over focused/pages): the reactor's stages, and the model thread's (classify, score_links, and rescore: the
frontier's re-scoring when the models change) and the extraction workers' (extract, analyze; unless
FOCUSED_WORKERS=0), which overlap them.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from focused.evaluation.inputs import load_labels
from focused.evaluation.metrics import harvest_rate
from focused.frontier.urls import canonical_url
from testbed.harness import crawl_command, crawl_env, log_stat, start_web
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
# Scrapy's breadth-first order (its FAQ's settings): the plain spider's default is depth-first (LIFO), which on the
# benchmark web reads pages of a third as many links as a breadth-first or focused crawl reads.
BREADTH_FIRST = {
    "DEPTH_PRIORITY": 1,
    "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
    "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
}
# The scheduler alone, with Scrapy's politeness (no adaptive delay, no patience): its own cost.
FOCUSED_SCHEDULER = {
    "SCHEDULER": "focused.frontier.scheduler.FocusedScheduler",
    "FOCUSED_LATENCY_FACTOR": 0,
    "FOCUSED_MAX_DELAY": 60,
    "FOCUSED_HOST_MAX_FAILURES": 5,
    "FOCUSED_PATIENCE": 0,
}
STAGES = (
    "extract",
    "analyze",
    "neardup",
    "credibility",
    "requests",
    "enqueue",
    "dupefilter",
    "dequeue",
    "classify",
    "score_links",
    "rescore",
)


def crawl(command: list[str], settings: dict, proxy: str, cwd: Path, out: Path) -> tuple[float, list[str], str]:
    """Pages/s, the URLs fetched, and the log (its stats at the end) of one crawl."""
    log = out.with_suffix(".log")
    command = [*command, *(f"-s{key}={value}" for key, value in settings.items())]
    env = {**crawl_env(proxy), "PYTHONPATH": str(ROOT)}
    subprocess.run(command + ["-s", f"LOG_FILE={log}", "-O", f"{out}:jsonl"], cwd=cwd, env=env, check=True)
    text = log.read_text()
    urls = [canonical_url(url) for url in re.findall(r'"url": "([^"]+)"', out.read_text())]
    return log_stat(text, "response_received_count") / log_stat(text, "elapsed_time_seconds"), urls, text


def stage_table(results: list[tuple[str, float, list[str], str]]) -> None:
    """Milliseconds per page of each stage, for the crawls that count them."""
    counted = [(name.removeprefix("focused spider, "), log) for name, _, _, log in results if "focused/pages" in log]
    print(f"\n{'ms per page':<14}" + "".join(f"{name[:22]:>24}" for name, _ in counted))
    for stage in STAGES:
        cells = (
            1000 * log_stat(log, f"focused/seconds/{stage}") / max(log_stat(log, "focused/pages"), 1)
            for _, log in counted
        )
        print(f"{stage:<14}" + "".join(f"{cell:24.2f}" for cell in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=800)
    parser.add_argument("--web", type=Path, help="the benchmark web's root (make benchweb) instead of the local web")
    parser.add_argument("--topic", default="http", help="with --web: the topic whose profile is crawled")
    args = parser.parse_args()
    budget = {**LOOPBACK, "CLOSESPIDER_PAGECOUNT": args.pages}
    outside = Path(tempfile.mkdtemp(prefix="focused-bench-"))  # no scrapy.cfg: Scrapy's defaults
    if args.web:
        args.web = args.web.resolve()  # the plain spider runs in a folder of its own
        profile, module, options = args.web / "profiles" / f"{args.topic}.toml", "testbed.docsweb", ("--root", args.web)
        relevant, place = (
            load_labels(args.web / "labels" / f"{args.topic}.txt").relevant,
            f"the benchmark web ({args.topic})",
        )
        train = [sys.executable, "-m", "scrapy", "train", str(profile), "--output", str(outside / "classifiers")]
        subprocess.run(train, cwd=ROOT, check=True, capture_output=True)
        budget["FOCUSED_CLASSIFIERS_DIR"] = outside / "classifiers"
    else:
        profile, module, options = ROOT / "profiles" / "sql.toml", "testbed.localweb", ()
        relevant, place = LocalWeb().relevant_urls(), "the local web"
    plain = [sys.executable, "-m", "scrapy", "runspider", str(ROOT / "benchmarks" / "plain_spider.py")]
    plain += ["-a", f"profile={profile}"]
    runs = [
        ("plain CrawlSpider, Scrapy scheduler", plain, budget, outside),
        ("plain CrawlSpider, breadth-first", plain, {**budget, **BREADTH_FIRST}, outside),
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
        (
            "focused spider, focused, no workers",
            crawl_command(profile, "focused"),
            {**budget, "FOCUSED_WORKERS": 0},
            ROOT,
        ),
    ]
    server, proxy = start_web(outside / "access.jsonl", module, *map(str, options))
    try:
        results = [
            (name, *crawl(cmd, s, proxy, cwd, outside / f"run{i}.jsonl")) for i, (name, cmd, s, cwd) in enumerate(runs)
        ]
    finally:
        server.terminate()
    reference = results[0][1]
    print(f"\n{place}, {args.pages}-page budget, one process per crawl:")
    print(f"{'crawl':<38} {'pages/s':>8} {'vs plain':>9} {'harvest':>8}")
    for name, rate, urls, _ in results:
        harvest = f"{harvest_rate(urls, relevant):8.1%}" if urls else f"{'-':>8}"
        print(f"{name:<38} {rate:8.1f} {rate / reference:9.0%} {harvest}")
    stage_table(results)


if __name__ == "__main__":
    main()
