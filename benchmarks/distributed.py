"""Pages/s of one crawl run by 1, 2 and 3 processes sharing a Redis frontier, beside a single process without
Redis, and how polite each run was to every host, from the server's own log.

    python -m benchmarks.distributed [--pages 900] [--latency 0.05] [--delay 0.25] [--processes 1,2,3] [--repeat 3]
    python -m benchmarks.distributed --web benchweb --topic http     # the benchmark web of real documents


The local web answers every request after `--latency` seconds (a network's round trip; on
loopback a crawl is CPU-bound, and on 2 cores three processes cannot be three times faster).
Every run crawls the same web with the same profile, strategy (lexical) and politeness (2
requests at a time per host, `--delay` seconds between requests to a host), `--pages` pages in
all, split evenly between the processes; pages/s is pages written over the time from the first
page written to the last (the processes' start-up, a few seconds each, is reported apart).
With `--web`, the benchmark web of real documents (`make benchweb`) and one of its topics' profiles instead;
https URLs go through the proxy too, as a user's would, and the proxy refuses their CONNECT tunnels (the
real sites they name are not there): a dead host for the crawl. Pages written per request Scrapy sent
(retries and failed tunnels included: the server never sees those). From the server's log: pages
written per response served (robots.txt and failures cost responses),
the smallest gap between successive requests to one host (never below the delay, however many
processes), the most requests one host had in flight, and the most robots.txt fetches of one host.
A shared frontier has no patience (FOCUSED_PATIENCE), so the runs compared are without it; one
more row shows what patience costs a single process in speed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from testbed.harness import crawl_command, crawl_env, log_stat, start_redis, start_web

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    "FOCUSED_PROGRESS_INTERVAL": 0,
    "LOG_LEVEL": "INFO",
    "TELNETCONSOLE_ENABLED": False,
}


@dataclass
class Run:
    written: int
    wall: float  # seconds, start-up included
    crawling: float  # seconds from the first page written to the last
    twice: int  # URLs written twice
    responses: int  # requests the server answered
    requests: int  # requests the crawl's processes sent (downloader/request_count)
    min_gap: float  # smallest gap between successive requests to one host
    short_gaps: int  # gaps below 0.98 x the delay
    in_flight: int  # most requests one host had at once
    robots: int  # most robots.txt fetches of one host


def host_politeness(entries: list[dict], delay: float) -> tuple[float, int, int, int]:
    """(smallest gap between successive requests to one host, gaps below 0.98 x `delay`, most in flight at one
    host, most robots.txt fetches of one host) in one run's slice of the server's log."""
    by_host: dict[str, list[dict]] = {}
    for entry in entries:
        by_host.setdefault(entry["host"], []).append(entry)
    gaps = [b["t"] - a["t"] for seen in by_host.values() for a, b in zip(seen, seen[1:])]
    robots = [sum(e["path"] == "/robots.txt" for e in seen) for seen in by_host.values()]
    short = sum(gap < 0.98 * delay for gap in gaps)
    return min(gaps, default=float("inf")), short, max(e["concurrency"] for e in entries), max(robots)


def crawl_process(
    out: Path, proxy: str, profile: Path, pages: int, redis_url: str | None, patience: bool, delay: float
) -> subprocess.Popen:
    settings = {
        "LOG_FILE": out.with_suffix(".log"),
        **SETTINGS,
        "DOWNLOAD_DELAY": delay,
        "CLOSESPIDER_PAGECOUNT": pages,
        **({} if patience else {"FOCUSED_PATIENCE": 0}),
    }
    if redis_url:
        settings |= {"FOCUSED_REDIS_URL": redis_url, "FOCUSED_REDIS_KEY": f"bench:{out.parent}"}
    return subprocess.Popen(
        crawl_command(profile, "lexical", out, settings), cwd=ROOT, env=crawl_env(proxy, https=True)
    )


def measure(
    workdir: Path,
    log: Path,
    proxy: str,
    profile: Path,
    pages: int,
    processes: int,
    redis_url: str | None,
    delay: float,
    patience: bool = False,
) -> Run:
    """One crawl run by `processes` processes, measured by its items and its slice of the server's log."""
    workdir.mkdir(parents=True)
    started, since = time.monotonic(), time.time()
    running = [
        crawl_process(workdir / f"p{i}.jsonl", proxy, profile, pages // processes, redis_url, patience, delay)
        for i in range(processes)
    ]
    for process in running:
        process.wait()
    seconds = time.monotonic() - started
    items = [json.loads(line) for path in workdir.glob("p*.jsonl") for line in path.read_text().splitlines()]
    fetched = sorted(datetime.fromisoformat(item["fetched_at"]) for item in items)
    entries = [entry for line in log.read_text().splitlines() if (entry := json.loads(line))["t"] >= since]
    twice = len(items) - len({item["url"] for item in items})
    sent = int(sum(log_stat(path.read_text(), "downloader/request_count") for path in workdir.glob("p*.log")))
    return Run(
        len(items),
        seconds,
        (fetched[-1] - fetched[0]).total_seconds(),
        twice,
        len(entries),
        sent,
        *host_politeness(entries, delay),
    )


def median_run(workdir: Path, repeat: int, *args: Any, **kwargs: Any) -> Run:
    """The run of median crawling speed among `repeat` runs (one run's speed varies with start-up and timing)."""
    runs = [measure(workdir / str(i), *args, **kwargs) for i in range(repeat)]
    return sorted(runs, key=lambda run: run.written / run.crawling)[len(runs) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=900, help="pages in all per run")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the web takes per answer")
    parser.add_argument("--delay", type=float, default=0.25, help="DOWNLOAD_DELAY: seconds between requests to a host")
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the median is shown")
    parser.add_argument("--web", type=Path, help="the benchmark web's root (make benchweb) instead of the local web")
    parser.add_argument("--topic", default="http", help="with --web: the topic whose profile is crawled")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        log = work / "access.jsonl"
        if args.web:
            web, proxy = start_web(log, "testbed.docsweb", "--root", str(args.web), "--latency", str(args.latency))
            profile, web_name = args.web / "profiles" / f"{args.topic}.toml", f"the benchmark web ({args.topic})"
        else:
            web, proxy = start_web(log, "testbed.localweb", "--latency", str(args.latency))
            profile, web_name = ROOT / "profiles" / "sql.toml", "the local web"
        redis, redis_url = start_redis(work)
        common = (log, proxy, profile, args.pages)
        try:
            rows = [
                ("1 process, no Redis", median_run(work / "alone", args.repeat, *common, 1, None, args.delay)),
                (
                    "  with patience",
                    median_run(work / "patient", args.repeat, *common, 1, None, args.delay, patience=True),
                ),
            ]
            for n in map(int, args.processes.split(",")):
                name = f"{n} process{'es' if n > 1 else ''}, Redis"
                rows.append((name, median_run(work / f"redis{n}", args.repeat, *common, n, redis_url, args.delay)))
        finally:
            web.terminate()
            redis.terminate()
    print(
        f"\n{args.pages} pages of {web_name}, {args.latency:.2f} s per answer, {args.delay:.2f} s between "
        f"requests to a host, 2 at a time, {os.cpu_count()} cores, median of {args.repeat} runs:"
    )
    print(
        f"{'run':<24} {'pages':>6} {'wall s':>7} {'crawl s':>8} {'pages/s':>8} {'speed-up':>9} {'twice':>6} "
        f"{'pages/resp':>10} {'pages/req':>9} {'min gap s':>9} {'short':>5} {'in flight':>9} {'robots':>6}"
    )
    base = rows[0][1].written / rows[0][1].crawling
    for name, run in rows:
        speed = run.written / run.crawling
        print(
            f"{name:<24} {run.written:6d} {run.wall:7.1f} {run.crawling:8.1f} {speed:8.1f} {speed / base:8.2f}x "
            f"{run.twice:6d} {run.written / run.responses:10.2f} {run.written / max(run.requests, 1):9.2f} {run.min_gap:9.3f} {run.short_gaps:5d} "
            f"{run.in_flight:9d} {run.robots:6d}"
        )
    print(
        "pages/s: pages written over the crawl s, from the first page written to the last (wall s adds "
        "the processes' start-up and shut-down). min gap: the smallest gap between successive requests to one "
        "host; pages/req: pages written per request the processes sent; short: gaps below 0.98 x the delay; in flight: the most requests one host had at once; robots: the "
        "most robots.txt fetches of one host."
    )


if __name__ == "__main__":
    main()
