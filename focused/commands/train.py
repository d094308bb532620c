"""`scrapy train PROFILE [--model auto|tfidf|ensemble|embedding]`: train the profile's page classifier."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

if TYPE_CHECKING:
    from focused.relevance.training import Trained


class Command(ScrapyCommand):
    requires_project = True

    def syntax(self) -> str:
        return "[options] <profile.toml>"

    def short_desc(self) -> str:
        return "Train the page classifier of a topic profile from its examples"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--model",
            choices=["auto", "tfidf", "ensemble", "embedding"],
            default="auto",
            help="auto keeps the better cross-validated model, the faster on a tie",
        )
        parser.add_argument("--output", default="classifiers", help="folder for <name>.joblib and <name>.json")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one profile: scrapy train profiles/NAME.toml")
        from focused.profile import ProfileError, load_profile
        from focused.relevance.training import (
            TrainingError,
            example_from,
            local_examples,
            profile_example,
            save,
            split_sources,
            train,
        )

        try:
            profile = load_profile(args[0])
            urls, files = split_sources(profile)
            fetched, skipped = self._fetch(urls)
            examples = [profile_example(profile), *local_examples(files)]
            examples += [example_from(i["url"], i["label"], i["body"], i["url"]) for i in fetched]
            trained = train(examples, opts.model)
        except (ProfileError, TrainingError) as exc:
            print(f"focused: {exc}", file=sys.stderr)
            self.exitcode = 2
            return
        card = save(trained, examples, profile, Path(opts.output), skipped)
        self._report(profile.name, trained, len(examples), card)

    def _fetch(self, urls: list[tuple[str, int]]) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """Fetch example URLs with the project's settings (robots.txt, politeness, http_proxy). An example that
        cannot be fetched (dead, an HTTP error, disallowed by robots.txt) is skipped with a warning: the card
        lists it, and training goes on if enough examples remain."""
        if not urls:
            return [], {}
        from tqdm import tqdm

        from focused.spiders.examples import ExamplesSpider

        items: list[dict[str, Any]] = []
        bar = tqdm(total=len(urls), desc="fetching examples", unit="page")

        def collect(item: dict[str, Any]) -> None:
            items.append(item)
            bar.update()

        assert self.crawler_process is not None  # set by Scrapy before a command runs
        crawler = self.crawler_process.create_crawler(ExamplesSpider)
        crawler.signals.connect(collect, signal=signals.item_scraped, weak=False)
        self.crawler_process.crawl(crawler, examples=urls)
        self.crawler_process.start()
        bar.close()
        assert isinstance(crawler.spider, ExamplesSpider)
        failures = crawler.spider.failures
        for url, why in sorted(failures.items()):
            print(f"focused: warning: skipped example {url}: {why}", file=sys.stderr)
        return items, failures

    @staticmethod
    def _report(name: str, trained: Trained, count: int, card: Path) -> None:
        print(f"\nProfile {name}: {count} examples, stratified cross-validation")
        print(
            f"{'model':<10} {'precision':>9} {'recall':>7} {'F1':>6} {'ROC AUC':>8} {'calib.':>7} {'texts/s':>8}"
            f" {'value':>6}"
        )
        for model, m in trained.metrics.items():
            role = ["kept"] * (model == trained.kind) + ["audits the harvest"] * (model == trained.auditor)
            mark = f"  <- {', '.join(role)}" if role else ""
            print(
                f"{model:<10} {m['precision']:9.3f} {m['recall']:7.3f} {m['f1']:6.3f} {m['roc_auc']:8.3f} "
                f"{m['calibration_error']:7.3f} {m['texts_per_second']:8.0f} {m['crawl_value']:6.1f}{mark}"
            )
        print(
            "calib.: expected calibration error on held-out examples; value: (ROC AUC - 0.5) x pages/s a crawl "
            "can classify with the model"
        )
        print(f"Wrote {card.with_suffix('.joblib')} and its card {card}")
