"""`python -m testbed.demo`: crawl the local web with each strategy, print harvest rates.

Starts the local web on a free loopback port, runs `scrapy crawl focused` once per
strategy through it (as http_proxy): `focused` with the profile's trained classifier
(classifiers/sql.*), `lexical`, and breadth-first `bfs`; then compares the fetched pages
with the web's ground truth. A progress bar per crawl; items, logs and the harvest and recall plots
land in crawls/.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from tqdm import tqdm

from focused.evaluation.metrics import harvest_rate
from focused.evaluation.plots import plot_curves
from focused.profile import load_profile
from testbed.harness import ROOT, crawl_command, crawl_env, start_web
from testbed.localweb.web import LocalWeb

STRATEGIES = ("focused", "lexical", "bfs")
LOOPBACK = {"DOWNLOAD_DELAY": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "2", "FOCUSED_PROGRESS_INTERVAL": "2"}


def run(strategy: str, proxy: str, out: Path, profile: Path) -> tuple[list[str], float]:
    """One crawl, its log in OUT.log and a progress bar here; a failed crawl shows the end of its log."""
    log = out.with_suffix(".log")
    log.unlink(missing_ok=True)
    command = crawl_command(profile, strategy, out, {**LOOPBACK, "LOG_LEVEL": "INFO", "LOG_FILE": log})
    started = time.monotonic()
    with (
        log.with_suffix(".stderr").open("w") as stderr,
        tqdm(total=load_profile(profile).max_pages, desc=f"{strategy:8}", unit="page") as bar,
    ):
        crawl = subprocess.Popen(command, cwd=ROOT, env=crawl_env(proxy), stdout=subprocess.DEVNULL, stderr=stderr)
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
    server, proxy = start_web(crawls / "access.jsonl")
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
