"""`scrapy evaluate`: metrics on hand-computed cases, label matching, errors, reports and plots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.statscollectors import StatsCollector
from scrapy.utils.test import get_crawler

from focused.evaluation.inputs import EvaluationError, load_crawl, load_labels
from focused.evaluation.metrics import FetchedPage, calibration, ideal_at_budgets, pst, random_at_budgets, summarize
from focused.output.progress import harvest_estimate
from tests.conftest import REPO

A, B, C, D, E = (f"http://example.org/{name}" for name in "abcde")


def pages(*urls: str) -> list[FetchedPage]:
    return [FetchedPage(url, None, None) for url in urls]


def test_harvest_and_recall_at_budgets_by_hand():
    report = summarize(pages(A, B, C, D), {A, C, "http://example.org/x"}, budgets=(1, 2, 3, 4, 5))
    assert report["harvest_at_k"] == {"1": 1.0, "2": 0.5, "3": 0.6667, "4": 0.5, "5": None}
    assert report["recall_at_k"] == {"1": 0.3333, "2": 0.3333, "3": 0.6667, "4": 0.6667, "5": None}
    assert (report["pages"], report["relevant_fetched"], report["harvest"]) == (4, 2, 0.5)


def test_ideal_and_random_crawlers_by_hand():
    ideal = ideal_at_budgets(3, budgets=(1, 2, 4))
    assert ideal == {
        "harvest_at_k": {"1": 1.0, "2": 1.0, "4": 0.75},
        "recall_at_k": {"1": 0.3333, "2": 0.6667, "4": 1.0},
    }
    rand = random_at_budgets(3, 10, budgets=(2, 5, 20))
    assert rand == {"harvest_at_k": {"2": 0.3, "5": 0.3}, "recall_at_k": {"2": 0.2, "5": 0.5}}


def test_pst_counts_hot_pages_by_threshold_by_hand():
    importance = {A: 5, B: 1, C: 3, D: 0, E: 4}  # hot at G=3: A, C, E
    result = pst([B, A, D, C], importance, threshold=3, budgets=(1, 2, 4))
    assert result["hot"] == 3
    assert result["at_k"] == {"1": 0.0, "2": 0.3333, "4": 0.6667}
    assert result["ideal_at_k"] == {"1": 0.3333, "2": 0.6667, "4": 1.0}
    assert result["random_at_k"] == {"1": 0.2, "2": 0.4, "4": 0.8}


def test_calibration_by_hand():
    judged = [
        FetchedPage(A, 0.95, True),
        FetchedPage(B, 0.9, True),
        FetchedPage(C, 0.15, False),
        FetchedPage(D, 0.05, False),
    ]
    result = calibration(judged, {A, C})
    assert (result["precision"], result["recall"]) == (0.5, 0.5)  # A right, B wrong; C missed
    assert (result["estimated_harvest"], result["labeled_harvest"]) == (0.5, 0.5)  # judged relevant: A, B
    assert result["brier"] == pytest.approx((0.05**2 + 0.9**2 + 0.85**2 + 0.05**2) / 4, abs=1e-4)
    assert result["reliability"] == [
        {"bin": "0.0-0.1", "pages": 1, "mean_estimate": 0.05, "share_relevant": 0.0},
        {"bin": "0.1-0.2", "pages": 1, "mean_estimate": 0.15, "share_relevant": 1.0},
        {"bin": "0.9-1.0", "pages": 2, "mean_estimate": 0.925, "share_relevant": 0.5},
    ]


def test_the_report_shows_where_the_budget_went_site_by_site():
    """Per registrable domain, the crawler's unit of budget: a farm's subdomains are one site."""
    crawl = [
        FetchedPage("http://docs.example.org/a", 0.9, True),
        FetchedPage("http://blog1.farm.example/p", 0.8, True),
        FetchedPage("http://blog2.farm.example/p", 0.7, True),
        FetchedPage("http://www.example.org/b", 0.2, False),
        FetchedPage("http://blog3.farm.example/p", 0.9, True),
        FetchedPage("http://other.test/c", None, None),
    ]
    report = summarize(crawl, {"http://docs.example.org/a", "http://www.example.org/b"})
    assert report["sites_fetched"] == 3
    assert report["sites"] == [
        {"site": "farm.example", "pages": 3, "relevant_fetched": 0, "judged_relevant": 3, "first_page": 2},
        {"site": "example.org", "pages": 2, "relevant_fetched": 2, "judged_relevant": 1, "first_page": 1},
        {"site": "other.test", "pages": 1, "relevant_fetched": 0, "judged_relevant": None, "first_page": 6},
    ]


def test_the_harvest_estimate_is_the_share_judged_relevant_with_wilsons_interval():
    stats = StatsCollector(get_crawler())
    for name, value in (("pages", 200), ("relevant", 20), ("estimate/calibration_error", 0.01)):
        stats.set_value(f"focused/{name}", value)
    # Wilson by hand: centre (0.1 + 1.96²/400) / (1 + 1.96²/200) = 0.10754, half-width 0.04187; plus 0.01 each side
    estimate, low, high = harvest_estimate(stats)
    assert estimate == 0.1 and low == pytest.approx(0.05567, abs=1e-4) and high == pytest.approx(0.15941, abs=1e-4)


def test_labels_and_crawl_urls_match_after_the_crawlers_canonicalization(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "url,label\nHTTP://Example.ORG:80/a#intro,1\nhttp://example.org/b?utm_source=mail,yes\nhttp://example.org/c,0\n"
    )
    crawl = tmp_path / "crawl.jsonl"
    crawl.write_text("".join(json.dumps({"url": u}) + "\n" for u in (A, f"{B}#top", B, C)))
    loaded, fetched = load_labels(labels), load_crawl(crawl)
    assert loaded.relevant == {A, B} and loaded.labeled == {A, B, C}
    assert [p.url for p in fetched.pages] == [A, B, C]  # the repeated B counts once
    assert summarize(fetched.pages, loaded.relevant)["harvest"] == pytest.approx(0.6667)


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("empty.txt", "\n# nothing\n", "no labeled URLs"),
        ("bad.csv", "url,label\nhttp://example.org/a,maybe\n", "bad.csv:2: label 'maybe'"),
        ("short.csv", "http://example.org/a\n", "short.csv:1: expected two columns"),
        ("none.csv", "http://example.org/a,0\n", "no URL is labeled relevant"),
        ("odd.txt", "ftp://example.org/a\n", "odd.txt:1: not a fetchable URL"),
    ],
)
def test_broken_label_files_name_file_line_and_problem(tmp_path, name, text, problem):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(EvaluationError, match=problem.replace(".", r"\.").replace("'", ".")):
        load_labels(path)


def evaluate(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "evaluate", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_crawl(path: Path, urls: list[str], strategy: str) -> Path:
    items = [
        {
            "url": u,
            "strategy": strategy,
            "relevance": 0.8 if u == A else 0.2,
            "relevant": u == A,
            "fetched_at": f"2026-11-22T10:00:{i:02d}+00:00",
        }
        for i, u in enumerate(urls)
    ]
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    return path


@pytest.mark.e2e
def test_evaluate_command_compares_crawls_in_json_and_plots(tmp_path):
    labels = tmp_path / "relevant.txt"
    labels.write_text(f"{A}\n{C}\n")
    graph = tmp_path / "graph.tsv"
    graph.write_text(f"{B}\t{A}\n{C}\t{A}\n{D}\t{A}\n{A}\t{C}\n{E}\t{B}\n")
    first = write_crawl(tmp_path / "best.jsonl", [A, C, B], "focused")
    second = write_crawl(tmp_path / "breadth.jsonl", [B, D, E, A], "bfs")
    out = tmp_path / "report"
    done = evaluate(
        first,
        second,
        "--labels",
        labels,
        "--out",
        out,
        "--budgets",
        "1,2,3",
        "--graph",
        graph,
        "--importance",
        "backlink,pagerank",
        "--hot-fraction",
        "0.2",
    )
    assert done.returncode == 0, done.stderr
    reports = json.loads(done.stdout)
    assert reports == json.loads((out / "summary.json").read_text())
    best, breadth = reports
    assert (best["strategy"], best["harvest_at_k"], best["recall_at_k"]) == (
        "focused",
        {"1": 1.0, "2": 1.0, "3": 0.6667},
        {"1": 0.5, "2": 1.0, "3": 1.0},
    )
    assert breadth["harvest_at_k"] == {"1": 0.0, "2": 0.0, "3": 0.0}
    assert best["random"]["harvest_at_k"]["1"] == 0.4  # 2 relevant of the graph's 5 pages
    assert best["pst"]["backlink"]["hot"] == 1 and best["pst"]["backlink"]["at_k"]["1"] == 1.0  # A: 3 in-links
    assert best["pages_per_second"] == 1.0 and best["calibration"]["precision"] == 1.0
    for name in ("harvest.png", "recall.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("crawl_text", "labels_text", "problem"),
    [
        ("", "http://example.org/a\n", "an empty crawl"),
        ('{"url": "http://example.org/a"}\nnot json\n', "http://example.org/a\n", "crawl.jsonl:2: not a JSON line"),
        ('{"url": "http://example.org/a"}\n', "", "no labeled URLs"),
        ('{"url": "https://example.org/a"}\n', "http://example.org/a\n", "none of its 1 fetched URLs"),
    ],
)
@pytest.mark.e2e
def test_evaluate_command_errors_are_one_clear_line(tmp_path, crawl_text, labels_text, problem):
    (tmp_path / "crawl.jsonl").write_text(crawl_text)
    (tmp_path / "labels.txt").write_text(labels_text)
    done = evaluate(tmp_path / "crawl.jsonl", "--labels", tmp_path / "labels.txt")
    assert done.returncode == 2 and done.stdout == ""
    assert problem in done.stderr and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
