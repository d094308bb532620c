"""Cho et al.'s orderings, lexical and focused side by side on the benchmark web of real documents.

    make benchweb                      # once: Debian doc packages + python -m testbed.docsweb build
    python -m benchmarks.side_by_side [--root benchweb] [--pages 1000] [--runs 1] [--tag NAME -s SETTING=VALUE]

For each topic of the benchmark web: trains the topic's classifier (TF-IDF; its auditor, MiniLM) from its few
examples, crawls the web with every strategy at the same page budget and politeness
settings, evaluates each crawl with `scrapy evaluate` against the topic's labels (plots and
summary.json in ROOT/results/TOPIC/, TOPIC-N with several runs; under ROOT/variants/TAG/ with
--tag, so that a variant, such as one signal switched off by -s, runs beside the defaults) and prints one table: harvest rate and recall at
several budgets, pages/s, the share of pages on hazard hosts, the crawl's own harvest estimate
beside the labels' verdict, and the ideal crawler's numbers; each crawl judged as read (`as_read`).
Held-out topics come first (testbed/docsweb/topics.py: the strategy may be tuned on the TUNING topics only). provenance.json beside the
results records the commit and the sources each step ran (benchmarks/provenance.py); the run warns if they
changed under it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from benchmarks.provenance import Provenance
from testbed.docsweb import versions
from testbed.docsweb.topics import HELD_OUT, TUNING
from testbed.docsweb.web import on_hazard
from testbed.harness import crawl_command, crawl_env, start_web

ROOT = Path(__file__).resolve().parents[1]
STRATEGIES = ("bfs", "backlink", "pagerank", "hotqueue", "lexical", "focused")
BUDGETS = (100, 250, 500, 1000)
LOOPBACK = {
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    "FOCUSED_PROGRESS_INTERVAL": 0,
    "LOG_LEVEL": "INFO",
}


def run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=ROOT, check=True, **kwargs)


def run_suffix(number: int, runs: int) -> str:
    return f"-{number + 1}" if runs > 1 else ""


def crawl(
    root: Path,
    out: Path,
    topic: str,
    strategy: str,
    pages: int,
    proxy: str,
    extra: list[str],
    number: int = 0,
    runs: int = 1,
) -> Path:
    """A crawl of the benchmark web rooted at `root`, written with its log under `out` (classifiers from there)."""
    path = out / "crawls" / topic / f"{strategy}{run_suffix(number, runs)}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    settings = {
        **LOOPBACK,
        "CLOSESPIDER_PAGECOUNT": pages,
        "FOCUSED_CLASSIFIERS_DIR": out / "classifiers",
        "LOG_FILE": path.with_suffix(".log"),
        **dict(item.split("=", 1) for item in extra),
    }
    path.with_suffix(".log").unlink(missing_ok=True)
    command = crawl_command(root / "profiles" / f"{topic}.toml", strategy, path, settings)
    subprocess.run(command, cwd=ROOT, env=crawl_env(proxy), check=True)
    return path


def evaluate(root: Path, out: Path, topic: str, crawls: list[Path], number: int = 0, runs: int = 1) -> list[dict]:
    crawls = [write_as_read(path) for path in crawls]
    out = out / "results" / f"{topic}{run_suffix(number, runs)}"
    out.mkdir(parents=True, exist_ok=True)
    command = [
        "evaluate",
        *map(str, crawls),
        "--labels",
        str(root / "labels" / f"{topic}.txt"),
        "--out",
        str(out),
        "--graph",
        str(root / "graph.tsv"),
        "--budgets",
        ",".join(map(str, BUDGETS)),
        "--importance",
        "backlink,pagerank",
    ]
    reports = json.loads(run(command, capture_output=True, text=True).stdout)
    reports = reports if isinstance(reports, list) else [reports]  # one crawl: one object
    for report, path in zip(reports, crawls):
        report["hazard_share"] = hazard_share(path)
    return reports


def write_as_read(crawl: Path) -> Path:
    """The crawl as the benchmark judges it, beside it: a manual page read under another release than the one
    built stands for the built page the first time (testbed/docsweb/versions.py)."""
    items = [json.loads(line) for line in crawl.read_text().splitlines() if line]
    for item, url in zip(items, versions.as_read(item["url"] for item in items)):
        item["url"] = url
    read = crawl.with_suffix(".as_read.jsonl")
    read.write_text("".join(json.dumps(item) + "\n" for item in items))
    return read


def hazard_share(crawl: Path) -> float:
    """Share of the crawl's pages that came from the hazard and adversarial hosts."""
    urls = [json.loads(line)["url"] for line in crawl.read_text().splitlines() if line]
    return sum(map(on_hazard, urls)) / max(len(urls), 1)


def cell(value: float | None) -> str:
    return f"{value:7.1%}" if value is not None else f"{'-':>7}"


def mean(values: list[float | None]) -> float | None:
    return None if any(v is None for v in values) else sum(values) / len(values)


def averaged(runs: list[dict]) -> dict:
    """One strategy's numbers, averaged over its runs (crawls with the same budget vary with timing)."""
    labeled = runs[0]["labeled_relevant"]
    return {
        "strategy": runs[0]["strategy"],
        "pages": mean([r["pages"] for r in runs]),
        "pages_per_second": mean([r.get("pages_per_second", 0) for r in runs]),
        "harvest_at_k": {str(b): mean([r["harvest_at_k"][str(b)] for r in runs]) for b in BUDGETS},
        "recall_at_k": {str(b): mean([r["recall_at_k"][str(b)] for r in runs]) for b in BUDGETS},
        "harvest": mean([r["harvest"] for r in runs]),
        "recall": mean([r["relevant_fetched"] / labeled for r in runs]),
        "pst": mean([r["pst"]["pagerank"]["at_k"]["500"] for r in runs]),
        "hazard": mean([r["hazard_share"] for r in runs]),
        "estimate": mean([r["calibration"]["estimated_harvest"] for r in runs]),
    }


def table(topic: str, runs: list[list[dict]], pages: int) -> str:
    """The topic's table; with several runs, each strategy's row is the mean of its runs."""
    first = runs[0][0]
    rows = [averaged([run[i] for run in runs]) for i in range(len(runs[0]))]
    shown = [b for b in BUDGETS if any(r["harvest_at_k"][str(b)] is not None for r in rows)]
    lines = [
        f"\nTopic {topic!r} ({first['labeled_relevant']} relevant pages labeled), budget {pages} responses"
        + (f", mean of {len(runs)} runs:" if len(runs) > 1 else ":")
    ]
    head = f"{'strategy':<10} {'pages':>6} {'pages/s':>8}" + "".join(f" {'H@' + str(b):>7}" for b in shown)
    head += f" {'H(all)':>7} {'est.':>7}" + "".join(f" {'R@' + str(b):>7}" for b in shown)
    head += f" {'R(all)':>7} {'hazard':>7} {'P_ST(PR)@500':>13}"
    lines.append(head)
    for r in rows:
        row = f"{r['strategy']:<10} {r['pages']:6.0f} {r['pages_per_second']:8.1f}"
        row += (
            "".join(f" {cell(r['harvest_at_k'][str(b)])}" for b in shown)
            + f" {cell(r['harvest'])} {cell(r['estimate'])}"
        )
        row += "".join(f" {cell(r['recall_at_k'][str(b)])}" for b in shown)
        lines.append(row + f" {cell(r['recall'])} {cell(r['hazard'])} {cell(r['pst']):>13}")
    ideal = first["ideal"]
    row = f"{'ideal':<10} {'':>6} {'':>8}" + "".join(f" {cell(ideal['harvest_at_k'].get(str(b)))}" for b in shown)
    lines.append(row + f" {'':>7} {'':>7}" + "".join(f" {cell(ideal['recall_at_k'].get(str(b)))}" for b in shown))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT / "benchweb", help="the built benchmark web")
    parser.add_argument("--pages", type=int, default=1000, help="responses per crawl (CLOSESPIDER_PAGECOUNT)")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--topics", default=",".join(HELD_OUT + TUNING), help="held-out topics first")
    parser.add_argument("--runs", type=int, default=1, help="crawls per strategy; the table shows their mean")
    parser.add_argument(
        "-s",
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a Scrapy setting for every crawl, as `scrapy crawl -s`",
    )
    parser.add_argument("--model", default="tfidf", help="the page classifier `scrapy train --model` fits")
    parser.add_argument("--tag", default="", help="write crawls, classifiers and results under ROOT/variants/TAG")
    args = parser.parse_args()
    root = args.root.resolve()
    if not (root / "stats.json").exists():
        sys.exit(f"no benchmark web in {root}: run `make benchweb` first")
    out = root / "variants" / args.tag if args.tag else root
    out.mkdir(parents=True, exist_ok=True)
    server, proxy = start_web(out / "access.jsonl", "testbed.docsweb", "--root", str(root))
    provenance = Provenance(ROOT, {key: value for key, value in vars(args).items() if key != "root"})
    tables = []
    try:
        for topic in args.topics.split(","):
            provenance.note(f"train {topic}")
            run(
                [
                    "train",
                    str(root / "profiles" / f"{topic}.toml"),
                    "--model",
                    args.model,
                    "--output",
                    str(out / "classifiers"),
                ],
                capture_output=True,
            )
            runs = []
            for number in range(args.runs):
                crawls = []
                for strategy in args.strategies.split(","):
                    provenance.note(f"crawl {topic}/{strategy}{run_suffix(number, args.runs)}")
                    crawls.append(crawl(root, out, topic, strategy, args.pages, proxy, args.set, number, args.runs))
                runs.append(evaluate(root, out, topic, crawls, number, args.runs))
            kind = ("held-out " if topic in HELD_OUT else "tuning ") + (f"[{args.tag}] " if args.tag else "")
            tables.append(kind + table(topic, runs, args.pages).lstrip())
            print(tables[-1], flush=True)
    finally:
        server.terminate()
        provenance.save(out / "provenance.json")
    print("\n".join(tables))
    if provenance.mixed:
        print(
            "\nWARNING: the sources changed during this run: its crawls measured more than one version (provenance.json)"
        )
    print(
        "\nH@K: harvest rate of the first K pages; est.: the crawl's own estimate of its harvest (its auditor's share "
        "of a sample of pages judged relevant: focused/relevance/audit.py); R@K: recall of the topic's labeled pages; hazard: share of pages on hazard hosts; "
        "P_ST(PR)@500: share of the top-10% PageRank pages fetched by 500."
    )


if __name__ == "__main__":
    main()
