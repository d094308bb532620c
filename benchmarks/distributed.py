"""Pages/s of one crawl run by 1, 2 and 3 processes sharing a Redis frontier, beside a single process without Redis.

    python -m benchmarks.distributed [--pages 900] [--latency 0.05] [--processes 1,2,3] [--repeat 3]

The local web answers every request after `--latency` seconds (a network's round trip; on
loopback a crawl is CPU-bound, and on 2 cores three processes cannot be three times faster).
Every run crawls the same web with the same profile, strategy (lexical) and politeness (2
requests at a time per host, no delay), `--pages` pages in all, split evenly between the
processes; pages/s is pages written over the time from the first page written to the last (the
processes' start-up, a few seconds each, is reported apart).
A shared frontier has no patience (FOCUSED_PATIENCE), so the runs compared are without it; one
more row shows what patience costs a single process in speed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from focused.demo import start_local_web, start_redis

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS_PER_DOMAIN": 2, "FOCUSED_PROGRESS_INTERVAL": 0,
            "LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False}


def crawl_process(out: Path, proxy: str, pages: int, redis_url: str | None, patience: bool) -> subprocess.Popen:
    command = [sys.executable, "-m", "scrapy", "crawl", "focused", "-a", f"profile={ROOT / 'profiles' / 'sql.toml'}",
               "-a", "strategy=lexical", "-O", f"{out}:jsonl", "-s", f"LOG_FILE={out.with_suffix('.log')}"]
    settings = {**SETTINGS, "CLOSESPIDER_PAGECOUNT": pages, **({} if patience else {"FOCUSED_PATIENCE": 0})}
    if redis_url:
        settings |= {"FOCUSED_REDIS_URL": redis_url, "FOCUSED_REDIS_KEY": f"bench:{out.parent}"}
    for key, value in settings.items():
        command += ["-s", f"{key}={value}"]
    return subprocess.Popen(command, cwd=ROOT, env={**os.environ, "http_proxy": proxy})


def measure(workdir: Path, proxy: str, pages: int, processes: int, redis_url: str | None,
            patience: bool = False) -> tuple[int, float, float, int]:
    """(pages written, wall-clock seconds, seconds from the first page written to the last, URLs written twice)
    for one crawl run by `processes` processes."""
    workdir.mkdir(parents=True)
    started = time.monotonic()
    running = [crawl_process(workdir / f"p{i}.jsonl", proxy, pages // processes, redis_url, patience)
               for i in range(processes)]
    for process in running:
        process.wait()
    seconds = time.monotonic() - started
    items = [json.loads(line) for path in workdir.glob("p*.jsonl") for line in path.read_text().splitlines()]
    fetched = sorted(datetime.fromisoformat(item["fetched_at"]) for item in items)
    urls = {item["url"] for item in items}
    return len(items), seconds, (fetched[-1] - fetched[0]).total_seconds(), len(items) - len(urls)


def median_run(workdir: Path, repeat: int, *args: Any, **kwargs: Any) -> tuple[int, float, float, int]:
    """The run of median crawling speed among `repeat` runs (one run's speed varies with start-up and timing)."""
    runs = [measure(workdir / str(i), *args, **kwargs) for i in range(repeat)]
    return sorted(runs, key=lambda run: run[0] / run[2])[len(runs) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=900, help="pages in all per run")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the web takes per answer")
    parser.add_argument("--processes", default="1,2,3")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the median is shown")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        web, proxy = start_local_web(work / "access.jsonl", "focused.localweb", "--latency", str(args.latency))
        redis, redis_url = start_redis(work)
        try:
            rows = [("1 process, no Redis", median_run(work / "alone", args.repeat, proxy, args.pages, 1, None)),
                    ("  with patience", median_run(work / "patient", args.repeat, proxy, args.pages, 1, None,
                                                   patience=True))]
            for n in map(int, args.processes.split(",")):
                name = f"{n} process{'es' if n > 1 else ''}, Redis"
                rows.append((name, median_run(work / f"redis{n}", args.repeat, proxy, args.pages, n, redis_url)))
        finally:
            web.terminate()
            redis.terminate()
    print(f"\n{args.pages} pages of the local web, {args.latency:.2f} s per answer, {os.cpu_count()} cores, "
          f"median of {args.repeat} runs:")
    print(f"{'run':<24} {'pages':>6} {'wall s':>7} {'crawl s':>8} {'pages/s':>8} {'speed-up':>9} {'twice':>6}")
    base = rows[0][1][0] / rows[0][1][2]
    for name, (written, wall, crawling, twice) in rows:
        speed = written / crawling
        print(f"{name:<24} {written:6d} {wall:7.1f} {crawling:8.1f} {speed:8.1f} {speed / base:8.2f}x {twice:6d}")
    print("pages/s: pages written over the crawl s, from the first page written to the last (wall s adds "
          "the processes' start-up and shut-down).")


if __name__ == "__main__":
    main()
