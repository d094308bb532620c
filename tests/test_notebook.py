"""The evaluation notebook and `scrapy evaluate`, run on real crawls of the local web."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from testbed.localweb.web import LocalWeb
from tests.conftest import REPO, crawl


@pytest.fixture(scope="module")
def small_crawls(module_web, tmp_path_factory) -> tuple[list[Path], Path, Path]:
    """bfs and lexical crawls of 150 pages, the web's labels and its link graph."""
    server, work = module_web(), tmp_path_factory.mktemp("crawls")
    outputs = []
    for strategy in ("bfs", "lexical"):
        crawl(work, server.proxy, strategy=strategy, name=strategy, settings={"CLOSESPIDER_PAGECOUNT": 150})
        outputs.append(work / f"{strategy}.jsonl")
    web = LocalWeb()
    labels, graph = work / "relevant.txt", work / "graph.tsv"
    labels.write_text("\n".join(sorted(web.relevant_urls())) + "\n")
    graph.write_text("".join(f"{s}\t{t}\n" for s, t in web.edges()))
    return outputs, labels, graph


def test_evaluate_matches_a_real_crawl_with_its_labels(small_crawls, tmp_path):
    outputs, labels, graph = small_crawls
    command = [
        sys.executable,
        "-m",
        "scrapy",
        "evaluate",
        *map(str, outputs),
        "--labels",
        str(labels),
        "--graph",
        str(graph),
        "--importance",
        "pagerank",
        "--out",
        str(tmp_path),
    ]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    bfs, lexical = json.loads(done.stdout)
    assert (bfs["strategy"], lexical["strategy"]) == ("bfs", "lexical")
    assert lexical["harvest_at_k"]["100"] > bfs["harvest_at_k"]["100"]
    assert lexical["relevant_fetched"] > 0 and lexical["calibration"]["pages"] == lexical["pages"]
    assert 0 < lexical["pst"]["pagerank"]["at_k"]["100"] <= lexical["pst"]["pagerank"]["ideal_at_k"]["100"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["harvest.png", "recall.png", "summary.json"]


def test_evaluation_notebook_runs_on_a_small_crawl(small_crawls, monkeypatch):
    outputs, labels, _ = small_crawls
    monkeypatch.setenv("FOCUSED_CRAWLS", os.pathsep.join(map(str, outputs)))
    monkeypatch.setenv("FOCUSED_LABELS", str(labels))
    monkeypatch.setenv("FOCUSED_TOTAL", str(len(LocalWeb().pages)))
    notebook = nbformat.read(REPO / "notebooks" / "evaluation.ipynb", as_version=4)
    NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(REPO / "notebooks")}}
    ).execute()
    outputs_seen = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    text = "".join(output.get("text", "") for output in outputs_seen)
    assert "2 crawls" in text and "\nbfs " in text and "\nlexical " in text and "\nideal " in text
    assert sum("image/png" in output.get("data", {}) for output in outputs_seen) == 3  # harvest, recall, calibration
