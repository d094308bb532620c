"""Crawl quality against labels: harvest rate, recall, Cho et al.'s P_ST, the ideal crawler.

All curves are functions of K, the number of pages fetched so far, in fetch order:
- harvest(K) = relevant among the first K / K;
- recall(K)  = relevant among the first K / all labeled relevant pages;
- P_ST(K) (Cho, Garcia-Molina & Page 1998, crawl-and-stop with threshold) = hot pages among
  the first K / all hot pages, where a page is hot if its importance reaches a threshold G.
  With the labels as importance, P_ST is recall; with backlink counts or PageRank over the
  web's whole graph, it measures what Cho et al. measured;
- the ideal crawler fetches hot pages first: min(K, H) / H; a random crawler K / T.
A budget beyond the crawl's length has no value (None): the crawl never got there.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import brier_score_loss, precision_score, recall_score

from focused.frontier.urls import host_of, site_of

BUDGETS = (100, 250, 500, 1000, 2000, 5000)
RELIABILITY_BINS = 10
SITES_SHOWN = 25  # the sites that took the most pages, in the report


@dataclass(frozen=True)
class FetchedPage:
    url: str  # canonical
    estimate: float | None  # the crawler's own relevance estimate, if it recorded one
    judged_relevant: bool | None  # the crawler's own verdict
    audited: bool | None = None  # the auditor's verdict, on the pages it sampled (focused/relevance/audit.py)


def found(urls: Sequence[str], targets: Collection[str]) -> np.ndarray:
    """found[k] = targets among the first k+1 URLs."""
    return np.cumsum([url in targets for url in urls], dtype=np.int64)


def harvest_rate(urls: Sequence[str], relevant: Collection[str], budget: int | None = None) -> float:
    """Fraction of the first `budget` fetched URLs (all if None) that are labeled relevant."""
    fetched = urls[:budget] if budget else urls
    return sum(url in relevant for url in fetched) / len(fetched) if fetched else 0.0


def at_budgets(curve: np.ndarray, budgets: Sequence[int] = BUDGETS) -> dict[str, float | None]:
    """Values of a per-page curve at each budget; None past the curve's end."""
    return {str(k): (round(float(curve[k - 1]), 4) if k <= len(curve) else None) for k in budgets}


def ideal_at_budgets(hot: int, budgets: Sequence[int] = BUDGETS, total: int | None = None) -> dict[str, dict]:
    """The ideal crawler: every page it fetches is hot until none is left."""
    ks = [k for k in budgets if total is None or k <= total]
    return {
        "harvest_at_k": {str(k): round(min(k, hot) / k, 4) for k in ks},
        "recall_at_k": {str(k): round(min(k, hot) / hot, 4) if hot else None for k in ks},
    }


def random_at_budgets(hot: int, total: int, budgets: Sequence[int] = BUDGETS) -> dict[str, dict]:
    """A crawler fetching pages at random: expected harvest H/T, recall K/T."""
    ks = [k for k in budgets if k <= total]
    return {
        "harvest_at_k": {str(k): round(hot / total, 4) for k in ks},
        "recall_at_k": {str(k): round(k / total, 4) for k in ks},
    }


def pst(
    urls: Sequence[str], importance: Mapping[str, float], threshold: float, budgets: Sequence[int] = BUDGETS
) -> dict:
    """Cho et al.'s P_ST: the share of hot pages (importance >= threshold) fetched by each budget."""
    hot = {url for url, value in importance.items() if value >= threshold}
    curve = found(urls, hot) / max(len(hot), 1)
    return {
        "threshold": threshold,
        "hot": len(hot),
        "at_k": at_budgets(curve, budgets),
        "ideal_at_k": ideal_at_budgets(len(hot), budgets, len(importance))["recall_at_k"],
        "random_at_k": random_at_budgets(len(hot), len(importance), budgets)["recall_at_k"],
    }


def calibration(pages: Sequence[FetchedPage], relevant: Collection[str]) -> dict | None:
    """How well the crawler's own relevance estimates agree with the labels, on fetched pages."""
    judged = [p for p in pages if p.estimate is not None and p.judged_relevant is not None]
    if not judged:
        return None
    truth = np.array([p.url in relevant for p in judged])
    verdict = np.array([bool(p.judged_relevant) for p in judged])
    estimate = np.clip([p.estimate for p in judged], 0.0, 1.0)
    bins = np.minimum((estimate * RELIABILITY_BINS).astype(int), RELIABILITY_BINS - 1)
    table = [
        {
            "bin": f"{b / RELIABILITY_BINS:.1f}-{(b + 1) / RELIABILITY_BINS:.1f}",
            "pages": int((bins == b).sum()),
            "mean_estimate": round(float(estimate[bins == b].mean()), 4),
            "share_relevant": round(float(truth[bins == b].mean()), 4),
        }
        for b in range(RELIABILITY_BINS)
        if (bins == b).any()
    ]
    audited = [p.audited for p in judged if p.audited is not None]
    return {
        "pages": len(judged),
        # the crawl's own estimate (focused/output/progress.py): its auditor's, on the pages audited, if it had one ...
        "estimated_harvest": round(float(np.mean(audited if audited else verdict)), 4),
        "labeled_harvest": round(float(truth.mean()), 4),  # ... and the labels' verdict on the same pages
        "audited_pages": len(audited),
        "classifier_harvest": round(float(verdict.mean()), 4),  # the share the crawl's classifier judged relevant
        "precision": round(float(precision_score(truth, verdict, zero_division=0)), 4),
        "recall": round(float(recall_score(truth, verdict, zero_division=0)), 4),
        "brier": round(float(brier_score_loss(truth, estimate)), 4) if truth.any() and not truth.all() else None,
        "reliability": table,
    }


def by_site(pages: Sequence[FetchedPage], relevant: Collection[str]) -> list[dict]:
    """Where the budget went: per site (the registrable domain the crawler budgets by), its pages, how many the labels
    and the crawler's own verdicts call relevant, and when the crawl first reached it; the sites that took the most
    pages first. A link farm that captured the crawl shows at the top with nothing labeled relevant."""
    sites: dict[str, dict] = {}
    for number, page in enumerate(pages, 1):
        site = site_of(host_of(page.url))
        row = sites.setdefault(
            site, {"site": site, "pages": 0, "relevant_fetched": 0, "judged_relevant": None, "first_page": number}
        )
        row["pages"] += 1
        row["relevant_fetched"] += page.url in relevant
        if page.judged_relevant is not None:
            row["judged_relevant"] = (row["judged_relevant"] or 0) + bool(page.judged_relevant)
    return sorted(sites.values(), key=lambda row: (-row["pages"], row["first_page"]))


def summarize(
    pages: Sequence[FetchedPage],
    relevant: Collection[str],
    total: int | None = None,
    budgets: Sequence[int] = BUDGETS,
) -> dict:
    """The report for one crawl: its curves at each budget, and the ideal (and random) crawler's."""
    urls = [p.url for p in pages]
    hits = found(urls, relevant)
    k = np.arange(1, len(urls) + 1)
    report = {
        "pages": len(urls),
        "labeled_relevant": len(relevant),
        "relevant_fetched": int(hits[-1]) if len(hits) else 0,
        "harvest": round(float(hits[-1] / len(urls)), 4) if len(urls) else 0.0,
        "harvest_at_k": at_budgets(hits / k, budgets),
        "recall_at_k": at_budgets(hits / max(len(relevant), 1), budgets),
        "ideal": ideal_at_budgets(len(relevant), budgets, total),
    }
    if total:
        report["random"] = random_at_budgets(len(relevant), total, budgets)
    report["calibration"] = calibration(pages, relevant)
    sites = by_site(pages, relevant)
    report["sites_fetched"], report["sites"] = len(sites), sites[:SITES_SHOWN]
    return report
