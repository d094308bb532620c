"""Figures of an evaluation: harvest rate and recall against pages fetched, crawls overlaid.

The ideal crawler (every page relevant until none is left) and, when the web's size is
known, a random crawler are drawn as reference lines: a crawl is judged by where it lies
between them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure  # no pyplot: no global state, no screen needed

from focused.evaluation.metrics import found


def plot_curves(
    crawls: Sequence[tuple[str, Sequence[str]]], relevant: Collection[str], out: Path, total: int | None = None
) -> list[Path]:
    """Write harvest.png and recall.png to `out`; `crawls` are (name, URLs in fetch order)."""
    out.mkdir(parents=True, exist_ok=True)
    length = max(len(urls) for _, urls in crawls)
    k = np.arange(1, length + 1)
    hot = len(relevant)
    ideal = np.minimum(k, hot)
    figures = {
        "harvest": (
            "harvest rate (relevant share of pages fetched)",
            lambda hits, ks: hits / ks,
            ideal / k,
            np.full(length, hot / total) if total else None,
        ),
        "recall": (
            "recall (share of labeled relevant pages found)",
            lambda hits, ks: hits / hot,
            ideal / hot,
            np.minimum(k / total, 1.0) if total else None,
        ),
    }
    paths = []
    for name, (ylabel, measure, ideal_curve, random_curve) in figures.items():
        figure = Figure(figsize=(7, 4.5))
        axes = figure.subplots()
        for label, urls in crawls:
            axes.plot(k[: len(urls)], measure(found(urls, relevant), k[: len(urls)]), label=label)
        axes.plot(k, ideal_curve, "k--", linewidth=1, label="ideal")
        if random_curve is not None:
            axes.plot(k, random_curve, "k:", linewidth=1, label="random")
        axes.set(xlabel="pages fetched", ylabel=ylabel, ylim=(0, 1.02), xlim=(1, length))
        axes.grid(alpha=0.3)
        axes.legend()
        figure.tight_layout()
        paths.append(out / f"{name}.png")
        figure.savefig(paths[-1], dpi=110)
    return paths
