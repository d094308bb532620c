"""The scheduler's side of the collection: what it does with visits, and in a refresh crawl with due pages.

In a crawl, `Collection` records every visit the spider reports in the history (logged to JOBDIR, or to
Redis for a shared crawl), so that a later refresh crawl knows what it holds. In a refresh crawl, `Refresh`
also hands the scheduler the pages that fell due (focused.refresh.revisits), paces everything it hands out to
FOCUSED_REFRESH_RATE, hears when a revisit ended without a visit, credits a page with the new links its later
versions brought, and keeps the crawl open while nothing is due yet. The scheduler calls the same hooks in both.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from time import time
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider

from focused.frontier.distributed import connect, crawl_key
from focused.frontier.queues import Record
from focused.frontier.records import is_revisit
from focused.refresh.history import History, Visit
from focused.refresh.revisits import Pace, Revisits
from focused.refresh.schedule import POLICIES
from focused.refresh.shared import SharedClaims, SharedPace

logger = logging.getLogger(__name__)


class Collection:
    def __init__(self, history: History):
        self.history = history

    def load(self) -> None:
        if recovered := self.history.load():
            logger.warning("The last run did not close cleanly: the history's journal recovered %d entries", recovered)

    def save(self) -> None:
        self.history.save()

    def visited(self, visit: Visit) -> None:
        self.history.record(visit)

    def due(self, errback: Callable[..., Any] | None) -> list[Request]:
        """Revisits to admit to the frontier now."""
        return []

    def take(self, now: float) -> float:
        """0 if a request may go out now (`now`: monotonic); else seconds until one may."""
        return 0.0

    def refund(self) -> None:
        """No request went out after all."""

    def next_look(self) -> float | None:
        """Seconds until a page falls due (None: none will)."""
        return None

    def admitted(self, record: Record) -> None:
        """A request entered the frontier."""

    def ended(self, url: str) -> None:
        """A revisit of `url` ended without a visit (failed, forbidden, redirected elsewhere)."""

    def resumed(self, record: Record) -> None:
        """A record came back from JOBDIR into the frontier."""

    def idle(self) -> None:
        """Nothing to hand out: the crawl may end."""


class Refresh(Collection):
    def __init__(self, history: History, revisits: Revisits, pace: Pace | SharedPace):
        super().__init__(history)
        self.revisits, self.pace = revisits, pace

    @classmethod
    def from_crawler(cls, crawler: Crawler, history: History) -> Refresh:
        """A shared crawl's processes share the claims on due pages and the pace (focused.refresh.shared)."""
        settings = crawler.settings
        rate = settings.getfloat("FOCUSED_REFRESH_RATE")
        pace: Pace | SharedPace = Pace(rate)
        claims = None
        if settings.get("FOCUSED_REDIS_URL"):
            client, key = connect(crawler), crawl_key(crawler)
            pace, claims = SharedPace(client, key, rate), SharedClaims(client, key)
        policy = POLICIES[settings.get("FOCUSED_REFRESH_POLICY")]
        revisits = Revisits(history, policy, rate, settings.getfloat("FOCUSED_REFRESH_FLOOR"), claims)
        return cls(history, revisits, pace)

    def load(self) -> None:
        super().load()
        logger.info("Refreshing a collection of %d pages", len(self.history))
        if not self.history.pages:
            logger.warning(
                "The collection holds no history of pages (in JOBDIR or Redis: made before focused kept one?): the "
                "pages this crawl fetches will be revisited"
            )

    def visited(self, visit: Visit) -> None:
        self.revisits.visited(visit)

    def due(self, errback: Callable[..., Any] | None) -> list[Request]:
        return self.revisits.requests(time(), errback)

    def take(self, now: float) -> float:
        return self.pace.take(now)

    def refund(self) -> None:
        self.pace.refund()

    def next_look(self) -> float | None:
        return self.revisits.next_due(time())

    def admitted(self, record: Record) -> None:
        """A new link on a page revisited: the page's later versions bring new pages (its score says how good)."""
        if record.parent_url and not is_revisit(record):
            self.history.found(record.parent_url, min(max(record.score, 0.0), 1.0))

    def ended(self, url: str) -> None:
        self.revisits.ended(url, time())

    def resumed(self, record: Record) -> None:
        if is_revisit(record):
            self.revisits.queued.add(record.url)

    def idle(self) -> None:
        """A refresh crawl runs until stopped: when nothing is due yet, the next page will be."""
        raise DontCloseSpider
