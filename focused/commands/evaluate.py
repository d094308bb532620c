"""`scrapy evaluate CRAWL.jsonl [...] --labels LABELS [--out DIR]`: crawls against labeled pages.
`scrapy evaluate CRAWL.jsonl UPDATES.jsonl [...] --freshness TRUTH.json`: a refresh crawl against a changing
web's ground truth (focused.evaluation.freshness).

Prints one JSON report per crawl (an object for one crawl, a list for several) and, with
--out, writes it to DIR/summary.json beside harvest.png and recall.png, which overlay the
crawls with the ideal and (when the web's size is known) a random crawler. recall_at_k is
Cho et al.'s P_ST for topical importance; --importance backlink,pagerank adds P_ST for link
importance, computed on the web's whole graph (--graph).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from focused.evaluation.freshness import freshness_report
from focused.evaluation.inputs import (
    Crawl,
    EvaluationError,
    Labels,
    check_overlap,
    load_crawl,
    load_fetches,
    load_graph,
    load_labels,
    load_truth,
)
from focused.evaluation.metrics import BUDGETS, pst, summarize
from focused.strategies.importance import importance


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return (
            "[options] <crawl.jsonl> [<crawl.jsonl> ...] (--labels <labels.txt|labels.csv> | --freshness <truth.json>)"
        )

    def short_desc(self) -> str:
        return "Evaluate crawls against labeled pages: harvest rate, recall, P_ST, calibration, plots"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--labels", help="relevant URLs one a line, or CSV url,label")
        parser.add_argument(
            "--freshness",
            metavar="TRUTH",
            help="instead: the freshness, age, changes and new pages of the collection the feeds (a first crawl's, "
            "then its refresh crawls') kept, against this ground truth of page changes",
        )
        parser.add_argument(
            "--since", help="with --freshness: the window's start (ISO 8601; default: the last feed's first item)"
        )
        parser.add_argument("--until", help="with --freshness: the window's end (default: the last item)")
        parser.add_argument("--out", help="folder for summary.json, harvest.png and recall.png")
        parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)), help="pages at which to report")
        parser.add_argument("--total", type=int, help="pages in the whole web (for the random crawler)")
        parser.add_argument("--graph", help="the web's links, `source<TAB>target` lines (for --importance)")
        parser.add_argument("--importance", default="", help="P_ST for link importance: backlink,pagerank")
        parser.add_argument(
            "--hot-fraction",
            type=float,
            default=0.1,
            help="for --importance: the share of pages, most important first, that are hot",
        )
        parser.add_argument(
            "--allow-no-match",
            action="store_true",
            help="accept a crawl none of whose pages is labeled (else an error)",
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("give at least one crawl output (JSON lines)")
        try:
            if opts.freshness:
                reports = [self._freshness(args, opts)]
            elif not opts.labels:
                raise UsageError("give the labels (--labels) or a ground truth of page changes (--freshness)")
            else:
                reports = self._evaluate(args, opts)
        except EvaluationError as exc:
            print(f"focused: {exc}", file=sys.stderr)
            self.exitcode = 2
            return
        text = json.dumps(reports[0] if len(reports) == 1 else reports, indent=2)
        print(text)
        if opts.out:
            (Path(opts.out) / "summary.json").write_text(text + "\n", encoding="utf-8")

    @staticmethod
    def _freshness(args: list[str], opts: argparse.Namespace) -> dict:
        feeds = [load_fetches(Path(path)) for path in args]
        fetches = [fetch for feed in feeds for fetch in feed]
        if not fetches or not (opts.since or feeds[-1]):
            raise EvaluationError("no items to evaluate, or an empty last feed: give the window's start, --since")
        try:
            since = datetime.fromisoformat(opts.since).timestamp() if opts.since else feeds[-1][0].at
            until = datetime.fromisoformat(opts.until).timestamp() if opts.until else max(f.at for f in fetches)
        except ValueError as exc:
            raise EvaluationError(f"--since/--until: not an ISO 8601 time ({exc})") from exc
        if until <= since:
            raise EvaluationError("the window is empty: --until must come after --since (or the last feed's start)")
        return freshness_report(load_truth(Path(opts.freshness)), fetches, since, until)

    def _evaluate(self, args: list[str], opts: argparse.Namespace) -> list[dict]:
        budgets = self._budgets(opts.budgets)
        kinds = [k for k in opts.importance.split(",") if k]
        if set(kinds) - {"backlink", "pagerank"}:
            raise EvaluationError(f"--importance: unknown {', '.join(sorted(set(kinds) - {'backlink', 'pagerank'}))}")
        if kinds and not opts.graph:
            raise EvaluationError("--importance needs the web's link graph: --graph FILE")
        labels = load_labels(Path(opts.labels))
        crawls = [load_crawl(Path(path)) for path in args]
        if not opts.allow_no_match:
            for crawl in crawls:
                check_overlap(crawl, labels)
        graph = load_graph(Path(opts.graph)) if opts.graph else None
        total = opts.total or (len(graph) if graph else None)
        importances = {kind: importance(graph, kind) for kind in kinds} if graph else {}
        thresholds = {
            kind: float(np.quantile(list(v.values()), 1 - opts.hot_fraction)) for kind, v in importances.items()
        }
        reports = [self._report(crawl, labels, total, budgets, importances, thresholds) for crawl in crawls]
        if opts.out:
            from focused.evaluation.plots import plot_curves

            names = self._names(crawls)
            plot_curves(
                [(n, [p.url for p in c.pages]) for n, c in zip(names, crawls)], labels.relevant, Path(opts.out), total
            )
        return reports

    @staticmethod
    def _report(
        crawl: Crawl,
        labels: Labels,
        total: int | None,
        budgets: list[int],
        importances: dict[str, dict[str, float]],
        thresholds: dict[str, float],
    ) -> dict:
        report: dict[str, Any] = {"crawl": str(crawl.path), "strategy": crawl.strategy}
        report |= summarize(crawl.pages, labels.relevant, total, budgets)
        if crawl.seconds:
            report["pages_per_second"] = round((len(crawl.pages) - 1) / crawl.seconds, 2)
        urls = [p.url for p in crawl.pages]
        if importances:
            report["pst"] = {kind: pst(urls, values, thresholds[kind], budgets) for kind, values in importances.items()}
        return report

    @staticmethod
    def _budgets(text: str) -> list[int]:
        try:
            budgets = sorted({int(b) for b in text.split(",") if b.strip()})
        except ValueError:
            budgets = []
        if not budgets or budgets[0] < 1:
            raise EvaluationError(f"--budgets: expected positive page counts like 100,500, got {text!r}")
        return budgets

    @staticmethod
    def _names(crawls: list[Crawl]) -> list[str]:
        """The strategy names, or file names where two crawls share a strategy."""
        strategies = [c.strategy for c in crawls]
        return [c.strategy if strategies.count(c.strategy) == 1 else c.path.stem for c in crawls]
