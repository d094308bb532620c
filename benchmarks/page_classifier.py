"""The page classifier against the labels of every page of the benchmark web: how well it ranks a topic's pages.

    python -m benchmarks.page_classifier [--chars 2000,20000] [--topics regex,http] [--extract]

For each topic, held-out topics first: the TF-IDF classifier `scrapy train` fits on the topic's examples (and the
profile's own words), scored on each of the web's pages (pages.jsonl: title and main text as the crawl extracts
them), read up to each `--chars` length (in training as in scoring). Columns: ROC AUC and average precision
against the topic's labels, the precision of the top R pages (R: the topic's relevant pages), the pages judged
relevant (probability >= 0.5) and the share of the relevant ones among them. A crawl reads only some of these
pages, but its host rates, parent relevance and link labels all come from this verdict. With --extract, every page
is extracted again from the web's files by the current code (pages.jsonl holds what the build's code extracted):
for a change to extraction, on the pages and on the examples alike.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from urllib.parse import unquote

import numpy as np
from scrapy.http import HtmlResponse
from sklearn.metrics import average_precision_score, roc_auc_score

from focused.evaluation.inputs import load_labels
from focused.frontier.urls import canonical_url
from focused.pages.extract import extract
from focused.profile import load_profile
from focused.relevance.classifier import MAX_CHARS, page_text, relevance
from focused.relevance.training import local_examples, profile_example, split_sources, tfidf_pipeline
from testbed.docsweb.topics import HELD_OUT, TUNING

ROOT = Path(__file__).resolve().parents[1]


def scores(root: Path, topic: str, pages: list[dict], chars: int) -> np.ndarray:
    profile = load_profile(root / "profiles" / f"{topic}.toml")
    examples = [profile_example(profile), *local_examples(split_sources(profile)[1])]
    model = tfidf_pipeline().fit([page_text(e.title, e.text, chars) for e in examples], [e.label for e in examples])
    return relevance(model, [(page["title"], page["text"]) for page in pages], chars)


def extracted_again(root: Path, pages: list[dict]) -> list[dict]:
    """The pages as the current code extracts them from the built web's files (sites/HOST/PATH)."""
    files = [root / "sites" / unquote(page["url"].split("://", 1)[1]) for page in pages]
    with ProcessPoolExecutor() as pool:
        return list(pool.map(_extracted, [page["url"] for page in pages], files, chunksize=64))


def _extracted(url: str, file: Path) -> dict:
    page = extract(HtmlResponse(url, body=file.read_bytes()), context_words=0)
    return {"url": url, "title": page.title, "text": page.text}


def row(topic: str, chars: int, p: np.ndarray, truth: np.ndarray) -> str:
    top = np.argsort(-p)[: truth.sum()]
    judged = p >= 0.5
    return (
        f"{topic:<18} {chars:>6} {roc_auc_score(truth, p):>7.3f} {average_precision_score(truth, p):>6.3f} "
        f"{truth[top].mean():>7.3f} {judged.sum():>7} {truth[judged].mean() if judged.any() else 0.0:>8.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT / "benchweb", help="the built benchmark web")
    parser.add_argument("--chars", default=f"2000,{MAX_CHARS}", help="lengths of title and main text to read")
    parser.add_argument("--topics", default=",".join(HELD_OUT + TUNING), help="held-out topics first")
    parser.add_argument("--extract", action="store_true", help="extract every page again with the current code")
    args = parser.parse_args()
    with (args.root / "pages.jsonl").open(encoding="utf-8") as f:
        pages = [json.loads(line) for line in f]
    if args.extract:
        pages = extracted_again(args.root, pages)
    print(f"{'topic':<18} {'chars':>6} {'ROC AUC':>7} {'AP':>6} {'P@R':>7} {'>=0.5':>7} {'of them':>8}")
    for topic in args.topics.split(","):
        relevant = load_labels(args.root / "labels" / f"{topic}.txt").relevant
        truth = np.array([canonical_url(page["url"]) in relevant for page in pages])
        for chars in map(int, args.chars.split(",")):
            print(
                row(
                    f"{topic}{'' if topic in HELD_OUT else ' (t)'}",
                    chars,
                    scores(args.root, topic, pages, chars),
                    truth,
                )
            )


if __name__ == "__main__":
    main()
