"""A site the crawl has not heard from yet gets one request at a time.

The frontier runs ahead of the verdicts (FOCUSED_MAX_UNJUDGED pages), so links into a new site, all scored
before any page of it was judged, could all be handed out before the first is: on the benchmark's `testing`
topic a stuffed farm's first three fetches all carried the exploration bonus of a site never fetched (session
43). Held to one request until that request is done with (its page judged and its links queued, or its
failure known), a new site's other links are fetched at scores that know what its first page was. A site is a
registrable domain (focused.frontier.urls.site_of), as a strategy's budgets are.
"""

from __future__ import annotations

from focused.frontier.urls import site_of

LOOK_TTL = 120.0  # seconds a look may hold its site: one whose end no signal reported must not hold it forever


class FirstLooks:
    def __init__(self) -> None:
        self.heard: set[str] = set()  # sites a request of which was done with
        # a site not heard from -> (its request's record, host, when it was handed out)
        self.looking: dict[str, tuple[int, str, float]] = {}

    def busy(self, host: str, now: float) -> bool:
        """The host's site has not been heard from and has its one request out."""
        look = self.looking.get(site_of(host))
        return look is not None and now - look[2] < LOOK_TTL

    def handed_out(self, host: str, seq: int, now: float) -> None:
        site = site_of(host)
        if site not in self.heard:
            self.looking[site] = (seq, host, now)

    def finished(self, seq: int) -> str | None:
        """The record is done with: if it was a site's first look, the site is heard from; returns its host."""
        site = next((site for site, (looking, _, _) in self.looking.items() if looking == seq), None)
        if site is None:
            return None
        self.heard.add(site)
        return self.looking.pop(site)[1]
