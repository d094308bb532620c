"""Trust from the seeds (after TrustRank, Gyöngyi et al. 2004), per site, on the graph the crawl has seen.

A site is whatever unit the caller keys it by: the focused strategy uses registrable domains
(focused.frontier.urls.site_of). Trust flows from the seeds' sites along links and splits among them:
a site passes on, to each site it links to, DAMPING times its own trust times the share of
its links that point there (the mean over its fetched pages of each page's share: a footer
link among a page's sixty links carries a sixtieth, and a site of many pages that links
another from one page vouches for it less the more of the site the crawl reads; a site whose pages
link to its own counts UNREAD pages more that link nowhere, which matters while few are read: its
index links to everything, the sponsors in its footer too). A site's
trust is that of its best chain of such endorsements from a seed. Unlike TrustRank's sum, the best chain cannot be inflated by a cycle: a link
farm's pages linking to each other, on one host or across many, add nothing to what its
entry links carry (summed, a closed region multiplies its inflow by up to 1 / (1 - DAMPING)
and reached seed-host levels on the benchmark web: docs/benchmarks.md). A region reached
through a few footer links of real pages gets little, however topical its pages claim to
be; a farm spread over thousands of sites gets less at each hop. Spam cannot raise its
trust by what it writes, only by getting trusted pages to link to it.

Trust is recomputed a batch at a time (`update`); a site first linked in between is trusted at once as the next
update would trust it. Trust is 1 on a seed's site; `factor` maps it to 0..1 against FOCUSED_TRUST_FLOOR, the
trust at which a site is as welcome as any; `earned_factor`, how far the site's own credible pages may
prove it past that: further when a site trusted in full vouches for it than when only sites on probation do.

Which of two sites serving the same page is the original (`outranks`): the one trusted more, by
more than a hop's damping. Between sites trusted alike (a mirror linked beside its original from
one page), the one more sites vouch for: the trusted sites linking to each, counted once each
(a copy is linked from where it was put up, its original from across the web). A seed's site
is never the copy: the user named it.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

DAMPING = 0.85  # trust kept per hop, as PageRank's damping
UNREAD = 4  # pages more a site is read as having, linking nowhere, when its pages link to its own (_pages)


class SiteTrust:
    def __init__(self, seed_sites: set[str], floor: float):
        self.seed_sites = seed_sites
        self.floor = floor
        self.pages: dict[str, int] = {}  # site -> pages fetched there
        self.shares: dict[str, dict[str, float]] = {}  # site -> site -> summed share (plain dicts: JOBDIR pickles them)
        self.endorsers: dict[str, set[str]] = {}  # site -> the other sites linking to it
        self.trust: dict[str, float] = {}
        self.vouched: set[str] = set()  # sites whose best chain's last link is from a site at or above the floor

    def observe(self, site: str, link_sites: Sequence[str]) -> None:
        """A page of `site` was fetched; `link_sites` are the sites of its links, one per link."""
        self.pages[site] = self.pages.get(site, 0) + 1
        shares = self.shares.setdefault(site, {})
        for target in link_sites:
            shares[target] = shares.get(target, 0.0) + 1 / len(link_sites)
            if target != site:
                self.endorsers.setdefault(target, set()).add(site)
        if self.trust:
            self._first_endorsed(site, {target for target in link_sites if target not in self.trust})

    def _first_endorsed(self, site: str, new: set[str]) -> None:
        """Sites this page is the first to link to get the trust its site passes on, until the next update: a
        site no update has reached would have none, and links into it would score as a farm's until the next
        batch (up to FOCUSED_RESCORE_INTERVAL pages: on the local web, the archive's front page waited 55 pages
        behind a farm's leftovers). Its only endorser so far is this page's site, so this is what update gives."""
        trusted = self.of(site)
        per_share = self._per_share(site, trusted)
        for target in new:
            self.trust[target] = per_share * self.shares[site][target]
            if trusted >= self.floor:
                self.vouched.add(target)

    def update(self) -> None:
        """Recompute every site's trust: the best chain from a seed (Dijkstra's order: every weight is
        below 1, so a site's best chain is final when it is taken from the heap)."""
        trust: dict[str, float] = {}
        vouched: set[str] = set()
        heap = [(-1.0, site, True) for site in self.seed_sites]
        while heap:
            negative, site, in_full = heapq.heappop(heap)
            if site in trust:
                continue
            trust[site] = -negative
            if in_full:
                vouched.add(site)
            shares = self.shares.get(site, {})
            per_share = -self._per_share(site, -negative) if shares else 0.0  # once per site, not per link
            for target, share in shares.items():
                if target not in trust:  # a site's trust is final when popped: whether it is in full is known
                    heapq.heappush(heap, (per_share * share, target, -negative >= self.floor))
        self.trust, self.vouched = trust, vouched

    def _per_share(self, site: str, trusted: float) -> float:
        """What a site of trust `trusted` passes on per unit of link share."""
        return trusted * DAMPING / self._pages(site)

    def _pages(self, site: str) -> float:
        """What a site's summed link shares are a mean over: its pages read, and UNREAD more that endorse nothing when
        its pages link to its own (it has more to read). An index page links to everything, its footer's sponsors
        too: the first pages read are not yet the site's word. A portal, whose page links only elsewhere, is read."""
        return self.pages[site] + (UNREAD if self.shares[site].get(site) else 0)

    def of(self, site: str) -> float:
        return self.trust.get(site, 0.0)

    def factor(self, site: str) -> float:
        """0..1: the site's trust against the floor; 1 until the first update (nothing is known yet)."""
        if not self.trust:
            return 1.0
        return min(1.0, self.of(site) / self.floor)

    def earned_factor(self, site: str) -> float:
        """What the site's credible relevant pages earned counts by: the square root of its factor when its best
        chain's last link comes from a site trusted in full (a real site's page vouches for it, however deep in
        that site), its factor when it comes from a site still short of the floor itself. Pages prove what a site
        holds only as far as no site on probation vouched for it: a network of sites linking each other, each
        with pages as credible as a real site's, earns through its entry sites alone."""
        factor = self.factor(site)
        return factor**0.5 if site in self.vouched else factor

    def outranks(self, site: str, other: str) -> bool:
        """Whether `site` holds the original of a page `other` serves too (the module's docstring)."""
        mine, theirs = self.of(site), self.of(other)
        if mine * DAMPING > theirs:
            return True
        if other in self.seed_sites or theirs * DAMPING > mine:
            return False
        return self.endorsement(site) * DAMPING > self.endorsement(other)

    def endorsement(self, site: str) -> float:
        """The sites linking to `site`, each counted by its trust against the floor."""
        return sum(self.factor(endorser) for endorser in self.endorsers.get(site, ()))
