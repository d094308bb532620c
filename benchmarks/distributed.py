"""Pages/s of one crawl run by 1, 2 and 3 processes sharing a Redis frontier, beside a single process without Redis.

    python -m benchmarks.distributed [--pages 600] [--latency 0.05] [--processes 1,2,3]

The local web answers every request after `--latency` seconds (a network's round trip; on
loopback a crawl is CPU-bound, and on 2 cores three processes cannot be three times faster).
Every run crawls the same web with the same profile, strategy (lexical) and politeness (2
requests at a time per host, no delay), `--pages` pages in all, split evenly between the
processes; pages/s is pages written over wall-clock time from the first start to the last exit.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from focused.demo import start_local_web, start_redis

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS_PER_DOMAIN": 2, "FOCUSED_PROGRESS_INTERVAL": 0,
            "LOG_LEVEL": "INFO", "TELNETCONSOLE_ENABLED": False}


def crawl_process(out: Path, proxy: str, pages: int, redis_url: str | None) -> subprocess.Popen:
    command = [sys.executable, "-m", "scrapy", "crawl", "focused", "-a", f"profile={ROOT / 'profiles' / 'sql.toml'}",
               "-a", "strategy=lexical", "-O", f"{out}:jsonl", "-s", f"LOG_FILE={out.with_suffix('.log')}"]
    settings = {**SETTINGS, "CLOSESPIDER_PAGECOUNT": pages}
    if redis_url:
        settings |= {"FOCUSED_REDIS_URL": redis_url, "FOCUSED_REDIS_KEY": f"bench:{out.parent.name}"}
    for key, value in settings.items():
        command += ["-s", f"{key}={value}"]
    return subprocess.Popen(command, cwd=ROOT, env={**os.environ, "http_proxy": proxy})


def measure(workdir: Path, proxy: str, pages: int, processes: int, redis_url: str | None) -> tuple[int, float, int]:
    """(pages written, seconds, URLs written twice) for one crawl run by `processes` processes."""
    workdir.mkdir()
    started = time.monotonic()
    running = [crawl_process(workdir / f"p{i}.jsonl", proxy, pages // processes, redis_url) for i in range(processes)]
    for process in running:
        process.wait()
    seconds = time.monotonic() - started
    urls = [json.loads(line)["url"] for path in workdir.glob("p*.jsonl") for line in path.read_text().splitlines()]
    return len(urls), seconds, len(urls) - len(set(urls))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=600, help="pages in all per run")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the web takes per answer")
    parser.add_argument("--processes", default="1,2,3")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        web, proxy = start_local_web(work / "access.jsonl", "focused.localweb", "--latency", str(args.latency))
        redis, redis_url = start_redis(work)
        try:
            rows = [("1 process, no Redis", *measure(work / "alone", proxy, args.pages, 1, None))]
            for n in map(int, args.processes.split(",")):
                rows.append((f"{n} process{'es' if n > 1 else ''}, Redis", *measure(work / f"redis{n}", proxy,
                                                                                     args.pages, n, redis_url)))
        finally:
            web.terminate()
            redis.terminate()
    print(f"\n{args.pages} pages of the local web, {args.latency:.2f} s per answer, {os.cpu_count()} cores:")
    print(f"{'run':<24} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'speed-up':>9} {'twice':>6}")
    base = rows[0][1] / rows[0][2]
    for name, written, seconds, twice in rows:
        print(f"{name:<24} {written:6d} {seconds:8.1f} {written / seconds:8.1f} {written / seconds / base:8.2f}x "
              f"{twice:6d}")


if __name__ == "__main__":
    main()
