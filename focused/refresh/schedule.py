"""How often to revisit each page, for the most freshness a fetch rate can buy (Cho & Garcia-Molina 2000).

A page changing as a Poisson process at rate r and revisited every 1/f seconds is fresh for a share
F(r, f) = (f / r)(1 - exp(-r / f)) of the time. Maximizing sum(w_i F(r_i, f_i)) under sum(f_i) = budget
(w_i: how much the page's freshness matters) sets w_i dF/df_i equal for every page revisited, where
dF/df = g(r / f) / r and g(x) = 1 - exp(-x)(1 + x), rising from 0 to 1. A page whose w / r falls below
that common value gets no revisits at all: a page that changes faster than the crawl can follow is not
worth the fetches, the opposite of revisiting in proportion to change rate.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

_X = np.geomspace(1e-6, 60.0, 4000)  # r / f: visits per change from a million to 1/60
_G = -np.expm1(-_X) - _X * np.exp(-_X)  # g(x), increasing


def freshness(rate: np.ndarray | float, frequency: np.ndarray | float) -> np.ndarray:
    """The expected share of time a copy is fresh, revisited `frequency` times per second (0: never)."""
    rate, frequency = np.asarray(rate, dtype=float), np.asarray(frequency, dtype=float)
    x = np.divide(rate, frequency, out=np.full(np.broadcast(rate, frequency).shape, np.inf), where=frequency > 0)
    return np.where(np.isfinite(x), -np.expm1(-x) / np.where(np.isfinite(x), x, 1.0), 0.0)


def optimal(rates: np.ndarray, weights: np.ndarray, budget: float) -> np.ndarray:
    """Revisits per second of each page that maximize the weighted freshness for `budget` fetches per second."""
    rates, weights = np.maximum(np.asarray(rates, dtype=float), 1e-12), np.asarray(weights, dtype=float)
    if not len(rates) or budget <= 0:
        return np.zeros(len(rates))

    def spent(mu: float) -> tuple[float, np.ndarray]:
        level = mu * rates / np.maximum(weights, 1e-12)  # g(r / f) each page must reach
        x = np.interp(level, _G, _X, right=np.inf)
        frequency = np.where(level < _G[-1], rates / x, 0.0)
        return float(frequency.sum()), frequency

    low, high = 0.0, float(np.max(weights / rates)) * _G[-1]  # at high, no page is revisited
    for _ in range(80):
        mid = (low + high) / 2
        if spent(mid)[0] > budget:
            low = mid
        else:
            high = mid
    return spent(high)[1]


def uniform(rates: np.ndarray, weights: np.ndarray, budget: float) -> np.ndarray:
    """Every page as often: the baseline a crawler without estimates follows."""
    return np.full(len(rates), budget / len(rates)) if len(rates) else np.zeros(0)


def proportional(rates: np.ndarray, weights: np.ndarray, budget: float) -> np.ndarray:
    """Each page in proportion to its change rate: the intuitive policy Cho & Garcia-Molina show is worse than
    uniform."""
    rates = np.asarray(rates, dtype=float)
    return budget * rates / rates.sum() if len(rates) and rates.sum() > 0 else uniform(rates, weights, budget)


Policy = Callable[[np.ndarray, np.ndarray, float], np.ndarray]
POLICIES: dict[str, Policy] = {"optimal": optimal, "uniform": uniform, "proportional": proportional}


def stale_value(weight: float, rate: float, elapsed: float) -> float:
    """What a revisit now is worth: the chance the copy went stale since the last visit, times the page's weight.
    In the same unit as a discovered link's score (the chance its page is relevant, and so missing from the
    collection), which is how revisits and discovery share the fetch rate in one frontier."""
    return weight * -np.expm1(-rate * max(elapsed, 0.0))
