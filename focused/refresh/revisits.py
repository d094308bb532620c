"""The revisit schedule of a refresh crawl: when each page of the collection is due, and what a revisit is worth.

Every REPLAN seconds the change rate of every page is estimated (focused.refresh.estimate) under a
prior pooled from its section of its host, that host, and the whole collection (each worth one
observed change; the collection's own prior is the rate a uniform schedule would give), and the
policy (focused.refresh.schedule: FOCUSED_REFRESH_POLICY) turns rates and weights into revisits per
second for the whole FOCUSED_REFRESH_RATE. A page is due 1/f after its last visit. A due page goes into
the frontier as a conditional GET scored by what the revisit is worth (schedule.stale_value), beside
the discovered links scored by the strategy: one frontier shares the fetch rate between them, best
first, politely per host. A page's weight is FOCUSED_REFRESH_FLOOR + (1 - floor) x its relevance (a
relevant page's freshness is what the collection is for), plus what its changes brought so far in new
links (their scores per change seen): a hub whose new versions link to new relevant pages is worth
revisiting for them, which is how a refresh crawl finds new pages early.

In a shared crawl every process plans from the same history (focused.refresh.shared keeps it in step),
and a due page is queued by the one process that claims it first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from heapq import heappop, heappush
from typing import Any, Protocol

import numpy as np
from scrapy import Request
from scrapy.http import Response

from focused.frontier.evidence import META_KEY, LinkEvidence
from focused.refresh.estimate import posterior_rates
from focused.refresh.history import History, PageHistory, Visit
from focused.refresh.schedule import Policy, stale_value

REPLAN = 10.0  # seconds between re-estimates of every page's rate and due time
META = "focused_revisit"  # a revisit's meta: what the spider compares the new answer with


def revisit_of(message: Request | Response) -> dict[str, Any] | None:
    """What a revisit (its request or response) compares the answer with: the version the collection holds.
    None for a first fetch, and for a revisit that was redirected: the page moved, and where it went is new."""
    return None if message.meta.get("redirect_urls") else message.meta.get(META)


class Claims(Protocol):
    """Which process of a shared crawl queues a due page (focused.refresh.shared.SharedClaims)."""

    def take(self, url: str, generation: int) -> bool: ...


class Revisits:
    def __init__(self, history: History, policy: Policy, rate: float, floor: float, claims: Claims | None = None):
        self.history, self.policy, self.rate, self.floor = history, policy, rate, floor
        self.claims = claims
        self.rates: dict[str, float] = {}
        self.due_at: dict[str, float] = {}
        self._heap: list[tuple[float, str]] = []
        self.queued: set[str] = set()  # due pages this process put in the frontier, not fetched yet
        self.planned_at = float("-inf")
        self._frequency: dict[str, float] = {}  # revisits per second of each page, as last planned

    def visited(self, visit: Visit) -> None:
        """A fetch ended: the page is due again 1/f after it (f from the last plan; a new page's from a uniform
        share until the next plan)."""
        self.history.record(visit)
        self._ended(visit.url)

    def ended(self, url: str, now: float) -> None:
        """A revisit of `url` ended without a visit (the fetch failed, robots.txt now forbids it, it redirected):
        the page is due again a period later."""
        self.history.tried(url, now)
        self._ended(url)

    def requests(self, now: float, errback: Callable[..., Any] | None) -> list[Request]:
        """Conditional GETs of the pages due by `now`, each scored by what its revisit is worth."""
        for entry in self.history.sync():  # other processes' visits and failed revisits
            self._ended(entry.url)
        if now - self.planned_at >= REPLAN:
            self.plan(now)
        due = []
        while self._heap and self._heap[0][0] <= now:
            when, url = heappop(self._heap)
            page = self.history.get(url)
            if page is None or page.gone or url in self.queued or self.due_at.get(url) != when:
                continue
            if self.claims and not self.claims.take(url, page.generation):
                continue  # another process queued it
            self.queued.add(url)
            due.append(self._request(page, now, errback))
        return due

    def next_due(self, now: float) -> float | None:
        """Seconds until the next page is due (None: none will be)."""
        while self._heap and self.due_at.get(self._heap[0][1]) != self._heap[0][0]:
            heappop(self._heap)
        return max(0.0, self._heap[0][0] - now) if self._heap else None

    def plan(self, now: float) -> None:
        """Estimate every live page's change rate and set when it is due next."""
        self.planned_at = now
        pages = [page for page in self.history.pages.values() if not page.gone]
        if not pages:
            return
        rates = self._estimate(pages)
        weights = np.array([self._weight(page) for page in pages])
        frequencies = self.policy(rates, weights, self.rate)
        self._frequency = {}
        for page, rate, frequency in zip(pages, rates, frequencies):
            self.rates[page.url] = float(rate)
            self._frequency[page.url] = float(frequency)
            if page.url not in self.queued:
                self._due(page.url, _since(page) + 1 / frequency if frequency > 0 else float("inf"))

    def _ended(self, url: str) -> None:
        """A revisit of `url` ended, here or in another process: due again a period later, unless it is gone."""
        self.queued.discard(url)
        page = self.history.get(url)
        if page is not None and not page.gone:
            self._due(url, _since(page) + 1 / self._frequency_of(url))

    def _frequency_of(self, url: str) -> float:
        """Revisits per second of a page as last planned (a page new since: a uniform share of the rate)."""
        return self._frequency.get(url) or self.rate / max(len(self.history), 1)

    def _weight(self, page: PageHistory) -> float:
        return self.floor + (1 - self.floor) * page.relevance + page.found / max(page.version - 1, 1)

    def _due(self, url: str, when: float) -> None:
        self.due_at[url] = when
        if when != float("inf"):
            heappush(self._heap, (when, url))

    def _estimate(self, pages: list[PageHistory]) -> np.ndarray:
        """Each page's rate under a prior from its section, whose prior is from its host, whose is from the
        collection's, whose is the uniform schedule's rate of visits (no change seen yet: revisit uniformly)."""
        uniform = self.rate / len(pages)
        collection = _pooled([pages], np.array([uniform]))[0]
        hosts = _groups(pages, lambda page: page.section[0])
        host_rates = dict(zip(hosts, _pooled(hosts.values(), np.full(len(hosts), collection))))
        sections = _groups(pages, lambda page: page.section)
        section_rates = dict(
            zip(sections, _pooled(sections.values(), np.array([host_rates[key[0]] for key in sections])))
        )
        priors = np.array([section_rates[page.section] for page in pages])
        return posterior_rates(
            [page.changed for page in pages],
            np.array([page.exposure for page in pages]),
            np.array([page.exact for page in pages]),
            priors,
        )

    def _request(self, page: PageHistory, now: float, errback: Callable[..., Any] | None) -> Request:
        value = stale_value(self._weight(page), self.rates.get(page.url, 0.0), now - page.last_visit)
        headers = {}
        if page.etag:
            headers["If-None-Match"] = page.etag
        if page.last_modified:
            headers["If-Modified-Since"] = page.last_modified
        meta = {
            META_KEY: LinkEvidence(score=float(value), signals={"revisit": float(value)}),
            META: {"version": page.version, "version_at": page.version_at, "body": page.body, "content": page.content},
            "handle_httpstatus_list": [304, 404, 410],
        }
        return Request(page.url, headers=headers, meta=meta, dont_filter=True, errback=errback)


def _since(page: PageHistory) -> float:
    """When the page's period started: its last visit, or a revisit that ended without one since."""
    return max(page.last_visit, page.tried)


def _groups(pages: list[PageHistory], key: Callable[[PageHistory], Hashable]) -> dict[Any, list[PageHistory]]:
    groups: dict[Any, list[PageHistory]] = defaultdict(list)
    for page in pages:
        groups[key(page)].append(page)
    return groups


def _pooled(groups: Iterable[list[PageHistory]], priors: np.ndarray) -> np.ndarray:
    """One rate per group of pages, from all their intervals together."""
    groups = list(groups)
    changed = [[t for page in group for t in page.changed] for group in groups]
    exposure = np.array([sum(page.exposure for page in group) for group in groups])
    exact = np.array([sum(page.exact for page in group) for group in groups])
    return posterior_rates(changed, exposure, exact, priors)


class Pace:
    """At most `rate` fetches per second for the whole crawl, evenly spaced (no bursts: a refresh crawl runs
    for days, and the fetch rate is what its operator promised the web)."""

    def __init__(self, rate: float):
        self.interval = 1 / rate
        self.next_at = float("-inf")

    def take(self, now: float) -> float:
        """0 if a fetch may go out now (it then has the slot); else seconds until one may."""
        if self.next_at > now:
            return self.next_at - now
        self.next_at = now + self.interval
        return 0.0

    def refund(self) -> None:
        """The slot just taken went unused (nothing to fetch)."""
        self.next_at -= self.interval
