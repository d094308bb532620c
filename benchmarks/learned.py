"""The learned strategy's speed and harvest on the local web, next to bfs and lexical, in one run.

    python -m benchmarks.learned [--pages 400]

Trains the example profile's classifier twice (TF-IDF, MiniLM embeddings) into a
temporary folder, then crawls the local web once per row at the same budget and
politeness settings. Reports pages/s and its ratio to bfs, the model thread's cost per
page (page classification, link scoring), and the harvest rate at several budgets
against the web's ground truth.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

from focused.evaluation.metrics import harvest_rate
from testbed.demo import LOOPBACK
from testbed.harness import crawl_command, crawl_env, log_stat, start_web
from testbed.localweb.web import LocalWeb

ROOT = Path(__file__).resolve().parents[1]
PROFILE = ROOT / "profiles" / "sql.toml"
BUDGETS = (100, 200, 400)


def train(model: str, output: Path) -> None:
    command = [sys.executable, "-m", "scrapy", "train", str(PROFILE), "--model", model, "--output", str(output)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)


def crawl(strategy: str, models: Path, extra: dict, pages: int, proxy: str, out: Path) -> dict[str, float | list[str]]:
    log = out.with_suffix(".log")
    settings = {**LOOPBACK, "FOCUSED_CLASSIFIERS_DIR": models, "CLOSESPIDER_PAGECOUNT": pages, "LOG_FILE": log, **extra}
    subprocess.run(crawl_command(PROFILE, strategy, out, settings), cwd=ROOT, env=crawl_env(proxy), check=True)
    text = log.read_text()

    stat = partial(log_stat, text)
    fetched = stat("focused/model/pages") or 1
    return {
        "pages/s": stat("response_received_count") / stat("elapsed_time_seconds"),
        "classify ms/page": 1000 * stat("focused/seconds/classify") / fetched,
        "links ms/page": 1000 * stat("focused/seconds/score_links") / fetched,
        "urls": re.findall(r'"url": "([^"]+)"', out.read_text()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=400)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="focused-learned-"))
    for model in ("tfidf", "embedding"):
        train(model, work / model)
    relevant = LocalWeb().relevant_urls()
    rows = [
        ("bfs", "bfs", "tfidf", {}),
        ("lexical", "lexical", "tfidf", {}),
        ("focused, TF-IDF", "focused", "tfidf", {}),
        ("focused, TF-IDF, patience 0", "focused", "tfidf", {"FOCUSED_PATIENCE": 0}),
        ("focused, MiniLM", "focused", "embedding", {}),
    ]
    server, proxy = start_web(work / "access.jsonl")
    try:
        results = [
            (name, crawl(s, work / m, extra, args.pages, proxy, work / f"{i}.jsonl"))
            for i, (name, s, m, extra) in enumerate(rows)
        ]
    finally:
        server.terminate()
    baseline = results[0][1]["pages/s"]
    budgets = [b for b in BUDGETS if b <= args.pages]
    print(f"\nLocal web, {args.pages}-page budget, page relevance from the trained classifier in every row:")
    header = f"{'crawl':<28} {'pages/s':>8} {'vs bfs':>7} {'classify ms/page':>17} {'links ms/page':>14}"
    print(header + "".join(f" {'harvest@' + str(b):>12}" for b in budgets))
    for name, r in results:
        line = f"{name:<28} {r['pages/s']:8.1f} {r['pages/s'] / baseline:7.0%} {r['classify ms/page']:17.2f} {r['links ms/page']:14.2f}"
        print(line + "".join(f" {harvest_rate(r['urls'], relevant, b):12.1%}" for b in budgets))


if __name__ == "__main__":
    main()
