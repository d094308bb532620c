"""A site the crawl has no relevant, credible page from yet gets one request at a time.

The frontier runs ahead of the verdicts (FOCUSED_MAX_UNJUDGED pages), so links into a new site, all scored
before any page of it was judged, could all be handed out before the first is: on the benchmark's `testing`
topic a stuffed farm's first three fetches all carried the exploration bonus of a site never fetched (session
43). Held to one request until that request is done with (its page judged and its links queued, or its
failure known), a new site's other links are fetched at scores that know what its first page was. The site
stays on that probation until one of its pages is judged relevant and is credible as a source (its content
plausible and new: focused.pages.credibility): a site that has given nothing takes its pages one verdict at a
time, so a burst of links scored before its last verdict (a parked domain's dozen "related" links, session 45)
cannot all be out at once. A relevant verdict alone is not enough: a farm of text spun from real pages fools
the classifier (0.56-0.95 on the local web) but repeats what the crawl has read, and its first believed page
used to free it to a burst late in a crawl (session 48). Only for a strategy that asks (Strategy.probation):
a baseline's (bfs, lexical) order must owe nothing to the classifier, so its sites are held for their first
request only (session 46: the demo's breadth-first harvest rose from 22% to 36% under probation). A site is
a registrable domain (focused.frontier.urls.site_of), as a strategy's budgets are.
"""

from __future__ import annotations

from typing import NamedTuple

from focused.frontier.urls import site_of

VERDICT = "focused_relevant"  # response.meta: the page is relevant and credible, which ends its site's probation
LOOK_TTL = 120.0  # seconds a look may hold its site: one whose end no signal reported must not hold it forever


class Look(NamedTuple):
    """A site's one request out while it is on probation."""

    seq: int  # its record
    host: str
    since: float  # when it was handed out


class Probation:
    """The sites with a relevant, credible page, and each other site's one request out."""

    def __init__(self, until_relevant: bool = True) -> None:
        self.until_relevant = until_relevant  # False: a site is free once its first request is done with
        self.proven: set[str] = set()  # sites with a page that proves them (or, if not until_relevant, any done)
        self.looking: dict[str, Look] = {}  # a site on probation -> its request out
        self.sites: dict[int, str] = {}  # a look's record -> its site: every finished request asks, in one look-up

    def busy(self, host: str, now: float) -> bool:
        """The host's site is on probation and has its one request out."""
        look = self.looking.get(site_of(host))
        return look is not None and now - look.since < LOOK_TTL

    def handed_out(self, host: str, seq: int, now: float) -> None:
        site = site_of(host)
        if site not in self.proven:
            if (stale := self.looking.get(site)) is not None:  # a look past LOOK_TTL: no signal will end it
                del self.sites[stale.seq]
            self.looking[site] = Look(seq, host, now)
            self.sites[seq] = site

    def finished(self, seq: int, proves: bool) -> str | None:
        """The record is done with: if it was a look at a site on probation, the site may take its next request,
        and is off probation if the page proves it (relevant and credible: VERDICT); returns its host."""
        site = self.sites.pop(seq, None)
        if site is None:
            return None
        if proves or not self.until_relevant:
            self.proven.add(site)
        return self.looking.pop(site).host
