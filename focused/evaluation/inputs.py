"""Reading what an evaluation compares: crawl outputs, label files and a web's link graph.

Every URL goes through the crawler's own canonicalization, so a label written
`HTTP://Example.org:80/a#top` matches the fetched `http://example.org/a`. Problems are
EvaluationErrors naming the file, the line and what is wrong.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from focused.evaluation.metrics import FetchedPage
from focused.frontier.urls import BadURL, canonical_url
from focused.strategies.importance import LinkGraph

TRUE = {"1", "true", "yes", "relevant", "y", "t"}
FALSE = {"0", "false", "no", "irrelevant", "n", "f"}


class EvaluationError(ValueError):
    """An input that cannot be evaluated; the message says which file and why."""


@dataclass(frozen=True)
class Labels:
    path: Path
    relevant: frozenset[str]
    labeled: frozenset[str]  # relevant and, for CSV labels, the pages labeled irrelevant


@dataclass(frozen=True)
class Crawl:
    path: Path
    strategy: str
    pages: list[FetchedPage]  # in fetch order, each URL once
    seconds: float | None  # from the first page's fetch to the last one's


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise EvaluationError(f"{path}: cannot read: {exc}") from exc


def _canonical(path: Path, number: int, url: str) -> str:
    try:
        return canonical_url(url)
    except BadURL as exc:
        raise EvaluationError(f"{path}:{number}: not a fetchable URL ({exc})") from exc


def load_labels(path: Path) -> Labels:
    """A text file of relevant URLs, one a line, or CSV `url,label` (label 1/0, true/false, ...)."""
    relevant: set[str] = set()
    labeled: set[str] = set()
    lines = _lines(path)
    is_csv = path.suffix.lower() == ".csv"
    rows = csv.reader(lines) if is_csv else ([line] for line in lines)
    for number, row in enumerate(rows, 1):
        if not row or not row[0].strip() or row[0].lstrip().startswith("#"):
            continue
        if is_csv and number == 1 and row[0].strip().lower() == "url":
            continue  # header
        if is_csv and len(row) != 2:
            raise EvaluationError(f"{path}:{number}: expected two columns `url,label`, got {len(row)}")
        url = _canonical(path, number, row[0])
        label = row[1].strip().lower() if is_csv else "1"
        if label not in TRUE | FALSE:
            raise EvaluationError(f"{path}:{number}: label {row[1]!r} is neither relevant (1, true) nor not (0, false)")
        labeled.add(url)
        if label in TRUE:
            relevant.add(url)
    if not labeled:
        raise EvaluationError(f"{path}: no labeled URLs (an empty label file)")
    if not relevant:
        raise EvaluationError(f"{path}: no URL is labeled relevant")
    return Labels(path, frozenset(relevant), frozenset(labeled))


def load_crawl(path: Path) -> Crawl:
    """A crawl's JSON-lines feed: one item per fetched page, in the order they were written."""
    pages: list[FetchedPage] = []
    seen: set[str] = set()
    times: list[str] = []
    strategy = ""
    for number, line in enumerate(_lines(path), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvaluationError(f"{path}:{number}: not a JSON line ({exc.msg})") from exc
        if not isinstance(item, dict) or not isinstance(item.get("url"), str):
            raise EvaluationError(f"{path}:{number}: an item without a `url`")
        url = _canonical(path, number, item["url"])
        strategy = strategy or str(item.get("strategy") or "")
        if item.get("fetched_at"):
            times.append(item["fetched_at"])
        if url not in seen:
            seen.add(url)
            pages.append(FetchedPage(url, item.get("relevance"), item.get("relevant"), item.get("audited")))
    if not pages:
        raise EvaluationError(f"{path}: an empty crawl (no fetched pages)")
    return Crawl(path, strategy or path.stem, pages, _seconds(times))


@dataclass(frozen=True)
class Fetch:
    """One item of a crawl or refresh feed: which page, when, and what the crawl made of it."""

    url: str
    at: float  # seconds since the epoch
    change: str  # new, changed or gone


def load_fetches(path: Path) -> list[Fetch]:
    """Every item of a feed (a first crawl's, or a refresh crawl's updates), in the order written."""
    fetches = []
    for number, line in enumerate(_lines(path), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            at = datetime.fromisoformat(item["fetched_at"]).timestamp()
        except (json.JSONDecodeError, TypeError, KeyError, ValueError) as exc:
            raise EvaluationError(f"{path}:{number}: not an item with `url` and `fetched_at` ({exc})") from exc
        fetches.append(Fetch(_canonical(path, number, item["url"]), at, str(item.get("change") or "new")))
    return fetches  # empty: a refresh crawl that found nothing new or changed


def load_truth(path: Path) -> dict:
    """A changing web's ground truth (testbed.localweb.dynamic): start, and per page born, died, changes, relevant."""
    try:
        truth = json.loads(path.read_text(encoding="utf-8"))
        pages = {canonical_url(url): page for url, page in truth["pages"].items() if {"born", "changes"} <= set(page)}
        return {"start": float(truth["start"]), "pages": pages}
    except (OSError, ValueError, KeyError, TypeError, BadURL) as exc:
        raise EvaluationError(f"{path}: not a ground truth of page changes ({exc!r})") from exc


def _seconds(times: list[str]) -> float | None:
    try:
        stamps = sorted(datetime.fromisoformat(t).timestamp() for t in times)
    except ValueError:
        return None
    return stamps[-1] - stamps[0] if len(stamps) > 1 else None


def check_overlap(crawl: Crawl, labels: Labels) -> None:
    """Labels that match no fetched URL are nearly always URLs spelled differently."""
    if any(page.url in labels.labeled for page in crawl.pages):
        return
    raise EvaluationError(
        f"{crawl.path}: none of its {len(crawl.pages)} fetched URLs is among the {len(labels.labeled)} URLs "
        f"labeled in {labels.path} (e.g. {crawl.pages[0].url} vs {min(labels.labeled)}): the two name pages "
        "differently (scheme, host, path prefix?). If the crawl truly found no labeled page, pass --allow-no-match."
    )


def load_graph(path: Path) -> LinkGraph:
    """A web's links as tab-separated `source<TAB>target` lines."""
    graph = LinkGraph()
    targets: dict[str, list[str]] = {}
    for number, line in enumerate(_lines(path), 1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 2:
            raise EvaluationError(f"{path}:{number}: expected `source<TAB>target`")
        source, target = (_canonical(path, number, field) for field in fields)
        targets.setdefault(source, []).append(target)
    if not targets:
        raise EvaluationError(f"{path}: an empty link graph")
    for source, links in targets.items():
        graph.add_links(source, links)
    return graph
