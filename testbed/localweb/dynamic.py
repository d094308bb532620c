"""The local web in motion, for refresh crawls: pages change, new ones appear, some go away.

Each page changes as a Poisson process at its own rate, spread log-uniformly over three orders of
magnitude (Cho & Garcia-Molina found rates that differ so); new articles appear on the content sites
at Poisson times, linked from their section's page (which changes then too); a share of the articles
disappear (404) at a random time. Everything follows from the seed and the start time, so the ground
truth (`truth()`: every page's birth, death and change times) is known exactly. Most hosts answer
conditional GETs (ETag, Last-Modified); the hosts in IGNORE_VALIDATORS send neither, as many servers do,
and a crawler must compare what it gets.
"""

from __future__ import annotations

import random
import time
import zlib
from bisect import bisect_right
from dataclasses import replace
from email.utils import formatdate

from testbed.localweb.web import SITES, LocalWeb, Page, Reply, not_found

IGNORE_VALIDATORS = frozenset({"dbtalk.example", "news.example"})
BORN_ON = [host for host in SITES if host not in ("archive.example", "slow.example")]


class DynamicWeb(LocalWeb):
    def __init__(
        self,
        seed: int = 7,
        start: float | None = None,
        horizon: float = 3600.0,
        fastest: float = 5.0,
        slowest: float = 5000.0,
        births: float = 0.05,
        deaths: float = 0.05,
    ):
        """Mean seconds between changes from `fastest` to `slowest`; `births` new articles per second; a share
        `deaths` of the articles gone within `horizon` seconds of `start`."""
        super().__init__(seed)
        self.start = time.time() if start is None else start
        self.horizon = horizon
        rng = random.Random(seed * 7919 + 1)
        self.born = dict.fromkeys(self.pages, 0.0)
        self._add_births(rng, births)
        self.modified: dict[str, float] = {}  # when each page last changed before the start (its Last-Modified)
        self.changes = {url: self._poisson(rng, slowest, fastest, url) for url in sorted(self.pages)}
        for url, page in self.pages.items():  # a new article changes the section page that links to it
            born = [self.born[target] for target, _, _ in page.links if self.born.get(target, 0.0) > 0]
            self.changes[url] = sorted(self.changes[url] + born)
        articles = sorted(url for url in self.pages if "/article" in url)
        self.died = {url: rng.uniform(0, horizon) for url in articles if rng.random() < deaths}

    def truth(self) -> dict:
        """Every page's birth, death and change times (seconds after `start`) and whether it is relevant."""
        relevant = self.relevant_urls()
        pages = {
            url: {
                "born": self.born[url],
                "died": self.died.get(url),
                "changes": self.changes[url],
                "relevant": url in relevant,
            }
            for url in sorted(self.pages)
        }
        return {"start": self.start, "horizon": self.horizon, "pages": pages}

    def _add_births(self, rng: random.Random, births: float) -> None:
        at = rng.expovariate(births)
        while at < self.horizon:
            host = rng.choice(BORN_ON)
            topic, sections, _ = SITES[host]
            directory = f"http://{host}/section{rng.randrange(sections)}/"
            section, article = self.pages[directory], self._page(f"{directory}new{len(self.born)}.html", topic)
            self._link(section, article)
            self._link(article, section, topical=0.0)
            self.born[article.url] = at
            at += rng.expovariate(births)

    def _poisson(self, rng: random.Random, slowest: float, fastest: float, url: str) -> list[float]:
        """The page's change times after its birth; a page there from the start last changed before it."""
        mean, born = slowest * (fastest / slowest) ** rng.random(), self.born[url]
        self.modified[url] = born - (rng.expovariate(1 / mean) if born == 0 else 0.0)
        times, at = [], born + rng.expovariate(1 / mean)
        while at < self.horizon:
            times.append(at)
            at += rng.expovariate(1 / mean)
        return times

    def _page_reply(self, host: str, page: Page) -> Reply:
        now = time.time() - self.start
        if self.born[page.url] > now or self.died.get(page.url, float("inf")) <= now:
            return not_found()
        version = bisect_right(self.changes[page.url], now)
        rng = random.Random(f"{page.url}#{version}")
        paragraphs = [self._sentence(page.topic, len(p.split()), rng) for p in page.paragraphs]  # the version's text
        links = [link for link in page.links if self.born.get(link[0], 0.0) <= now]
        reply = super()._page_reply(host, replace(page, paragraphs=paragraphs, links=links))
        if host not in IGNORE_VALIDATORS:
            changed = self.changes[page.url][version - 1] if version else self.modified[page.url]
            reply.headers["ETag"] = f'"{zlib.crc32(page.url.encode()):08x}-{version}"'
            reply.headers["Last-Modified"] = formatdate(self.start + changed, usegmt=True)
        return reply
