"""Trust from the seeds (after TrustRank, Gyöngyi et al. 2004), per host, on the graph the crawl has seen.

Trust flows from the seeds' hosts along links and splits among them: a host passes on, to
each host it links to, DAMPING times its own trust times the share of its links that point
there (the mean over its fetched pages of each page's share: a footer link among a page's
sixty links carries a sixtieth, and a site of many pages that links a host from one page
vouches for it less the more of the site the crawl reads). A host's trust is that of its
best chain of such endorsements from a seed. Unlike TrustRank's sum, the best chain cannot be inflated by a cycle: a link
farm's pages linking to each other, on one host or across many, add nothing to what its
entry links carry (summed, a closed region multiplies its inflow by up to 1 / (1 - DAMPING)
and reached seed-host levels on the benchmark web: README, "Benchmarks"). A region reached
through a few footer links of real pages gets little, however topical its pages claim to
be; a farm spread over thousands of subdomains gets less at each hop. Spam cannot raise its
trust by what it writes, only by getting trusted pages to link to it.

Trust is 1 on a seed host; `factor` maps it to 0..1 against FOCUSED_TRUST_FLOOR, the trust
at which a host is as welcome as any.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

DAMPING = 0.85  # trust kept per hop, as PageRank's damping


class HostTrust:
    def __init__(self, seed_hosts: set[str], floor: float):
        self.seed_hosts = seed_hosts
        self.floor = floor
        self.pages: dict[str, int] = {}  # host -> pages fetched there
        self.shares: dict[str, dict[str, float]] = {}  # host -> host -> summed share (plain dicts: JOBDIR pickles them)
        self.trust: dict[str, float] = {}

    def observe(self, host: str, link_hosts: Sequence[str]) -> None:
        """A page of `host` was fetched; `link_hosts` are the hosts of its links, one per link."""
        self.pages[host] = self.pages.get(host, 0) + 1
        shares = self.shares.setdefault(host, {})
        for target in link_hosts:
            shares[target] = shares.get(target, 0.0) + 1 / len(link_hosts)

    def update(self) -> None:
        """Recompute every host's trust: the best chain from a seed (Dijkstra's order: every weight is
        below 1, so a host's best chain is final when it is taken from the heap)."""
        trust: dict[str, float] = {}
        heap = [(-1.0, host) for host in self.seed_hosts]
        while heap:
            negative, host = heapq.heappop(heap)
            if host in trust:
                continue
            trust[host] = -negative
            for target, share in self.shares.get(host, {}).items():
                if target not in trust:
                    heapq.heappush(heap, (negative * DAMPING * share / self.pages[host], target))
        self.trust = trust

    def factor(self, host: str) -> float:
        """0..1: the host's trust against the floor; 1 until the first update (nothing is known yet)."""
        if not self.trust:
            return 1.0
        return min(1.0, self.trust.get(host, 0.0) / self.floor)
