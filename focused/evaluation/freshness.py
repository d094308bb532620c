"""How fresh a crawl kept its collection, against a changing web's ground truth (Cho & Garcia-Molina 2000).

A page the collection holds is fresh at time t when the version the crawl last fetched is still the live
one; its age is how long ago the live page first moved on from that version (0 while fresh); a page that
left the web is stale until the crawl reports it gone. Both are averaged over the collection at each time
and over the window (sampled at SAMPLES times), for every page and for the relevant ones. Changes
captured: the new versions the crawl fetched in the window, against the changes the web made to the pages
it held. New pages: those that appeared in the window, the share found and the median delay.
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from focused.evaluation.inputs import Fetch

SAMPLES = 600


def freshness_report(truth: dict, fetches: list[Fetch], since: float, until: float) -> dict:
    """The collection's time-averaged freshness and age over [since, until] (seconds since the epoch)."""
    start, pages = truth["start"], truth["pages"]
    held: dict[str, list[Fetch]] = {}
    for fetch in sorted(fetches, key=lambda f: f.at):
        if fetch.url in pages:
            held.setdefault(fetch.url, []).append(fetch)
    times = np.linspace(since, until, SAMPLES)
    fresh = np.full((len(held), SAMPLES), np.nan)  # nan: not in the collection at that time
    age = np.full((len(held), SAMPLES), np.nan)
    for row, (url, history) in enumerate(held.items()):
        fresh[row], age[row] = _timeline(pages[url], start, history, times)
    relevant = np.array([bool(pages[url].get("relevant")) for url in held], dtype=bool)
    return {
        "window": {"since": since, "until": until, "seconds": round(until - since, 1)},
        "pages_held": int(np.sum(~np.isnan(fresh[:, -1]))) if len(held) else 0,
        "freshness": {"all": _average(fresh), "relevant": _average(fresh[relevant])},
        "age_seconds": {"all": _average(age), "relevant": _average(age[relevant])},
        "changes": _changes(pages, start, held, since, until),
        "new_pages": _new_pages(pages, start, held, since, until),
        "gone": _gone(pages, start, held, since, until),
    }


def _timeline(page: dict, start: float, history: list[Fetch], times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Freshness (1/0) and age of one page at each time; nan where the collection does not hold it."""
    changes = np.array(page["changes"], dtype=float) + start
    died = start + page["died"] if page.get("died") is not None else np.inf
    fresh, age = np.full(len(times), np.nan), np.full(len(times), np.nan)
    copies = [f for f in history if f.change != "gone"]
    gone_at = min((f.at for f in history if f.change == "gone"), default=np.inf)
    copy_times = np.array([f.at for f in copies])
    held = np.searchsorted(copy_times, times, side="right") - 1  # the copy held at each time
    for i, t in enumerate(times):
        if held[i] < 0 or t >= gone_at:
            continue
        later = np.searchsorted(changes, copy_times[held[i]], side="right")  # the first change after the copy
        moved = min(changes[later] if later < len(changes) else np.inf, died)
        fresh[i], age[i] = (1.0, 0.0) if t < moved else (0.0, t - moved)
    return fresh, age


def _average(values: np.ndarray) -> float | None:
    """The mean over the pages held at each time, averaged over the times anything was held."""
    if not values.size or np.all(np.isnan(values)):
        return None
    held = ~np.all(np.isnan(values), axis=0)
    return round(float(np.nanmean(np.nanmean(values[:, held], axis=0))), 4)


def _changes(pages: dict, start: float, held: dict[str, list[Fetch]], since: float, until: float) -> dict:
    """The changes the web made to pages the crawl held, and the new versions the crawl fetched, in the window."""
    made = captured = 0
    for url, history in held.items():
        changes = [start + c for c in pages[url]["changes"]]
        made += sum(max(since, history[0].at) < c <= until for c in changes)
        version = None
        for fetch in history:
            if fetch.change == "gone":
                continue
            fetched = bisect_right(changes, fetch.at)
            captured += version is not None and fetched != version and since <= fetch.at <= until
            version = fetched
    return {"made": made, "captured": captured, "share": round(captured / made, 4) if made else None}


def _new_pages(pages: dict, start: float, held: dict[str, list[Fetch]], since: float, until: float) -> dict:
    report = {}
    for kind, wanted in (("all", lambda p: True), ("relevant", lambda p: bool(p.get("relevant")))):
        born = {url: start + p["born"] for url, p in pages.items() if since < start + p["born"] <= until and wanted(p)}
        delays = [held[url][0].at - at for url, at in born.items() if url in held]
        report[kind] = {
            "appeared": len(born),
            "found": len(delays),
            "median_delay_seconds": round(float(np.median(delays)), 1) if delays else None,
        }
    return report


def _gone(pages: dict, start: float, held: dict[str, list[Fetch]], since: float, until: float) -> dict:
    died = {url: start + pages[url]["died"] for url in held if pages[url].get("died") is not None}
    died = {url: at for url, at in died.items() if since < at <= until}
    reported = {url: min((f.at for f in held[url] if f.change == "gone"), default=None) for url in died}
    delays = [at - died[url] for url, at in reported.items() if at is not None]
    return {
        "went": len(died),
        "reported": len(delays),
        "median_delay_seconds": round(float(np.median(delays)), 1) if delays else None,
    }
