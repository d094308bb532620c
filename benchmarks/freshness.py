"""Keeping a collection fresh: three revisit policies at the same fetch rate, on the local web in motion.

    python -m benchmarks.freshness [--seconds 600] [--rate 5] [--runs 1] [--processes 1]

For each policy (FOCUSED_REFRESH_POLICY: uniform, proportional, optimal), side by side: a dynamic local
web of its own from the same seed (testbed.localweb.dynamic, started together, so the three see the same
changes at the same times), a first crawl of it into a JOBDIR (the sql profile, default strategy), then
`-a mode=refresh` on that JOBDIR for --seconds at --rate fetches per second. Each refresh is scored by
`scrapy evaluate --freshness` over its own window (focused.evaluation.freshness): time-averaged freshness
and age of the collection, all pages and relevant ones, changes captured, new pages found and how soon.
With --processes N > 1 both crawls are shared crawls of N processes through a redis-server of the policy's
own (FOCUSED_REDIS_URL, no JOBDIR): the rate is the crawl's, whatever N.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from focused.evaluation.freshness import freshness_report
from focused.evaluation.inputs import load_fetches, load_truth
from testbed.harness import ROOT, crawl_command, crawl_env, start_redis, start_web

POLICIES = ("uniform", "proportional", "optimal")
LOOPBACK = {
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    "TELNETCONSOLE_ENABLED": False,
    "FOCUSED_AUDIT_SHARE": 0,
    "FOCUSED_PROGRESS_INTERVAL": 0,
}
FIRST_CRAWL = 1500  # pages: the whole web as it starts (about 900 pages, and the traps' allowance)


def run_policy(policy: str, directory: Path, seconds: float, rate: float, processes: int, options: list[str]) -> dict:
    directory.mkdir(parents=True)
    server, proxy = start_web(
        directory / "access.jsonl", "testbed.localweb", "--dynamic", str(directory / "truth.json"), *options
    )
    redis, url = start_redis(directory) if processes > 1 else (None, "")
    try:
        job = {**LOOPBACK, **({"FOCUSED_REDIS_URL": url} if url else {"JOBDIR": directory / "job"})}
        crawls(directory, "crawl", proxy, {**job, "CLOSESPIDER_PAGECOUNT": FIRST_CRAWL}, processes)
        refresh = {
            **job,
            "FOCUSED_REFRESH_RATE": rate,
            "FOCUSED_REFRESH_POLICY": policy,
            "CLOSESPIDER_TIMEOUT": seconds,
        }
        since = time.time()
        crawls(directory, "updates", proxy, refresh, processes, mode="refresh")
        until = time.time()
    finally:
        for process in (server, redis):
            if process is not None:
                process.terminate()
                process.wait()
    fetches = [
        fetch
        for feed in sorted(directory.glob("*.jsonl"))
        if feed.name != "access.jsonl"
        for fetch in load_fetches(feed)
    ]
    report = freshness_report(load_truth(directory / "truth.json"), fetches, since, until)
    log = [json.loads(line) for line in (directory / "access.jsonl").read_text().splitlines() if line]
    report["fetches"] = sum(since <= e["t"] <= until and e["path"] != "/robots.txt" for e in log)
    return report


def crawls(directory: Path, name: str, proxy: str, settings: dict, processes: int, mode: str | None = None) -> None:
    """`processes` crawls of the sql profile together (one: a crawl of its own), each with its feed and log."""
    profile = ROOT / "profiles" / "sql.toml"
    running = [
        subprocess.Popen(
            [
                *crawl_command(profile, None, directory / f"{name}{i}.jsonl", settings, append=True, mode=mode),
                *("-s", f"LOG_FILE={directory / f'{name}{i}.log'}"),
            ],
            cwd=ROOT,
            env=crawl_env(proxy),
        )
        for i in range(processes)
    ]
    if any(process.wait() for process in running):
        raise RuntimeError(f"a {name} crawl failed: see its log in {directory}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.freshness")
    parser.add_argument("--seconds", type=float, default=600.0, help="how long each refresh crawl runs")
    parser.add_argument("--rate", type=float, default=5.0, help="FOCUSED_REFRESH_RATE of every refresh crawl")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--policies", default=",".join(POLICIES))
    parser.add_argument("--seed", type=int, default=7, help="the dynamic web's seed (run k uses seed + k)")
    parser.add_argument("--processes", type=int, default=1, help="processes per crawl (> 1: shared through Redis)")
    parser.add_argument("--out", help="folder for the crawls, logs and ground truths (default: a new temporary one)")
    args = parser.parse_args(argv)
    policies = args.policies.split(",")
    out = Path(args.out or tempfile.mkdtemp(prefix="freshness-"))
    print(f"crawls, logs and ground truths in {out}", flush=True)
    rows = []
    for run in range(args.runs):
        options = ["--seed", str(args.seed + run)]
        with ThreadPoolExecutor(len(policies)) as pool:
            futures = {
                policy: pool.submit(
                    run_policy, policy, out / f"{policy}-{run}", args.seconds, args.rate, args.processes, options
                )
                for policy in policies
            }
            rows += [(run, policy, future.result()) for policy, future in futures.items()]
    print(
        f"\nrefresh crawls of {args.seconds:.0f} s at {args.rate} fetches/s, {args.processes} process(es) each "
        f"(web seed {args.seed} + run)"
    )
    header = (
        "run",
        "policy",
        "fetches",
        "held",
        "F all",
        "F rel",
        "age all",
        "age rel",
        "changes",
        "new",
        "new rel",
        "delay",
    )
    widths = (4, 13, 8, 6, 7, 7, 8, 8, 13, 7, 8, 7)
    print("".join(f"{h:>{w}}" for h, w in zip(header, widths)))
    for run, policy, r in rows:
        new, relevant = r["new_pages"]["all"], r["new_pages"]["relevant"]
        cells = (
            run,
            policy,
            r["fetches"],
            r["pages_held"],
            r["freshness"]["all"],
            r["freshness"]["relevant"],
            round(r["age_seconds"]["all"], 1),
            round(r["age_seconds"]["relevant"], 1),
            f"{r['changes']['captured']}/{r['changes']['made']}",
            f"{new['found']}/{new['appeared']}",
            f"{relevant['found']}/{relevant['appeared']}",
            new["median_delay_seconds"],
        )
        print("".join(f"{c!s:>{w}}" for c, w in zip(cells, widths)))


if __name__ == "__main__":
    main()
