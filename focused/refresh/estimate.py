"""How often a page changes, from what a crawler can see: whether it changed between two visits.

A crawler never sees the changes themselves, only that the page differed at the next visit
(an interval of length t "changed" with probability 1 - exp(-rate * t) under Poisson changes).
Counting changes per time underestimates a page that changes more than once between visits;
Cho & Garcia-Molina ("Estimating frequency of change", 2003) give estimators for such
incomplete histories. Regular visits: their bias-reduced estimator. Irregular visits (a crawler's
own schedule): the maximum-likelihood rate, using the Last-Modified dates where the server gives them
(a change whose time is known tells more than "changed since"), here with a Gamma prior from the page's
host and section, so that a page seen twice, or never seen to change, still gets a sensible estimate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

LOWEST, HIGHEST = 1e-9, 1e4  # changes per second between which a rate is searched (a change in 30 years; 10^4/s)


def regular_rate(visits: int, changes: int, interval: float) -> float:
    """Changes per second from `visits` at a fixed `interval` of which `changes` found the page changed: Cho &
    Garcia-Molina's estimator -log((n - X + 0.5) / (n + 0.5)) / I, nearly unbiased and finite when every visit
    saw a change."""
    return -math.log((visits - changes + 0.5) / (visits + 0.5)) / interval


def posterior_rates(
    changed: Sequence[Sequence[float]],
    exposure: np.ndarray,
    exact: np.ndarray,
    prior: np.ndarray,
    strength: float = 1.0,
) -> np.ndarray:
    """The most probable change rate (per second) of each page, from what its visits showed:
    - `changed`: the lengths (s) of intervals between visits that ended in a change whose time is unknown
      (likelihood 1 - exp(-r t) each);
    - `exact`: the changes whose time is known from Last-Modified (Cho & Garcia-Molina 2003, section 6: the
      last change before a visit, a seconds earlier, has likelihood r exp(-r a));
    - `exposure`: the summed time (s) the page is known not to have changed (unchanged intervals, and those a);
    and a Gamma prior with mode `prior` worth `strength` observed changes (shape 1 + s, rate s / prior).

    The log-posterior sum(log(1 - exp(-r t_i))) + (k + s) log r - r (E + s / prior) is concave in r, so its
    stationary point sum(t_i / (exp(r t_i) - 1)) + (k + s) / r - E - s / prior = 0 is found by bisection on log
    r, for all pages at once. With s = 0, k = 0 and regular visits it is the maximum-likelihood -log(1 - X/n) / I.
    """
    width = max((len(t) for t in changed), default=0)
    t = np.zeros((len(changed), max(width, 1)))
    for row, lengths in enumerate(changed):
        t[row, : len(lengths)] = lengths
    counts = np.asarray(exact, dtype=float) + strength
    slope = -np.asarray(exposure, dtype=float) - (strength / np.asarray(prior, dtype=float) if strength > 0 else 0.0)
    low, high = np.full(len(t), math.log(LOWEST)), np.full(len(t), math.log(HIGHEST))
    for _ in range(60):
        mid = (low + high) / 2
        rate = np.exp(mid)[:, None]
        terms = np.divide(t, np.expm1(np.minimum(rate * t, 700)), out=np.zeros_like(t), where=t > 0)
        gradient = terms.sum(axis=1) + counts / rate[:, 0] + slope
        rising = gradient > 0
        low, high = np.where(rising, mid, low), np.where(rising, high, mid)
    return np.exp((low + high) / 2)
