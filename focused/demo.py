"""`python -m focused.demo`: crawl the local web with each strategy, print harvest rates.

Starts the local web on a free loopback port, runs `scrapy crawl focused` once per
strategy through it (as http_proxy): `focused` with the profile's trained classifier
(classifiers/sql.*), `lexical`, and breadth-first `bfs`; then compares the fetched pages
with the web's ground truth. A progress bar per crawl; items, logs and the harvest and recall plots
land in crawls/.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

from tqdm import tqdm

from focused.evaluation import harvest_rate
from focused.localweb.web import LocalWeb
from focused.plots import plot_curves
from focused.profile import load_profile

ROOT = Path(__file__).resolve().parents[1]
STRATEGIES = ("focused", "lexical", "bfs")
LOOPBACK = {"DOWNLOAD_DELAY": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "2", "FOCUSED_PROGRESS_INTERVAL": "2"}


def start_local_web(log: Path, module: str = "focused.localweb", *options: str) -> tuple[subprocess.Popen, str]:
    """Serve a web (`module` serve: the local web, or focused.docsweb) on a free port; returns it and its proxy URL."""
    command = [sys.executable, "-m", module, "serve", "--port", "0", "--log", str(log), *options]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline() if server.stdout else ""
    match = re.search(r"127\.0\.0\.1:(\d+)", line)
    if match is None:
        server.kill()
        raise RuntimeError(f"{module} serve did not start: {line!r}")
    return server, f"http://127.0.0.1:{match[1]}"


def start_redis(directory: Path) -> tuple[subprocess.Popen, str]:
    """A Debian redis-server on a free loopback port, keeping nothing on disk; returns it and its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        "redis-server",
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(directory),
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as client:
            if client.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    return server, f"redis://127.0.0.1:{port}/0"


def run(strategy: str, proxy: str, out: Path, profile: Path) -> tuple[list[str], float]:
    """One crawl, its log in OUT.log and a progress bar here; a failed crawl shows the end of its log."""
    log = out.with_suffix(".log")
    log.unlink(missing_ok=True)
    command = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "focused",
        "-a",
        f"profile={profile}",
        "-a",
        f"strategy={strategy}",
    ]
    command += ["-O", f"{out}:jsonl", "-s", "LOG_LEVEL=INFO", "-s", f"LOG_FILE={log}"]
    for key, value in LOOPBACK.items():
        command += ["-s", f"{key}={value}"]
    started = time.monotonic()
    with (
        log.with_suffix(".stderr").open("w") as stderr,
        tqdm(total=load_profile(profile).max_pages, desc=f"{strategy:8}", unit="page") as bar,
    ):
        crawl = subprocess.Popen(
            command, cwd=ROOT, env={**os.environ, "http_proxy": proxy}, stdout=subprocess.DEVNULL, stderr=stderr
        )
        while crawl.poll() is None:
            time.sleep(0.5)
            bar.update(_lines(out) - bar.n)
        bar.update(_lines(out) - bar.n)
    if crawl.returncode:
        tail = (log.read_text() if log.exists() else "")[-3000:] + log.with_suffix(".stderr").read_text()[-2000:]
        sys.exit(f"The {strategy} crawl failed (exit {crawl.returncode}); the end of its log:\n{tail}")
    seconds = time.monotonic() - started
    return [json.loads(line)["url"] for line in out.read_text().splitlines()], seconds


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def main() -> None:
    crawls = ROOT / "crawls"
    crawls.mkdir(exist_ok=True)
    profile = ROOT / "profiles" / "sql.toml"
    relevant = LocalWeb().relevant_urls()
    server, proxy = start_local_web(crawls / "access.jsonl")
    try:
        results = {s: run(s, proxy, crawls / f"demo-{s}.jsonl", profile) for s in STRATEGIES}
    finally:
        server.terminate()
    print(f"\nDemo crawl of the local web ({len(relevant)} relevant pages), profile {profile.name}:")
    print(f"{'strategy':10} {'pages':>6} {'harvest@100':>12} {'harvest':>8} {'seconds':>8}")
    for strategy, (urls, seconds) in results.items():
        print(
            f"{strategy:10} {len(urls):6d} {harvest_rate(urls, relevant, 100):12.1%} "
            f"{harvest_rate(urls, relevant):8.1%} {seconds:8.1f}"
        )
    plots = plot_curves([(s, urls) for s, (urls, _) in results.items()], relevant, crawls / "demo")
    rates = ", ".join(f"{harvest_rate(urls, relevant):.1%} ({s})" for s, (urls, _) in results.items())
    print(
        f"\nHarvest rate: {rates}.\nItems: crawls/demo-STRATEGY.jsonl; logs: crawls/demo-STRATEGY.log; "
        f"plots: {', '.join(str(path.relative_to(ROOT)) for path in plots)}"
    )


if __name__ == "__main__":
    main()
