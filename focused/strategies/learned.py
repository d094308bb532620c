"""The learned strategy: link classifier, context graph and hub scores, learning as it crawls.

    score(link) = w_link · p(relevant | anchor, words around, URL words, parent relevance, distance) · c(parent)
                + w_parent · inherited(parent)
                + w_context_graph · v(link) · c(parent)
                + w_hub · hub(parent) · p(...)
                + w_explore · payoff · ½^(pages read on the link's site) · trust
    all times alive(link), the chance that the link gives a page (focused/strategies/deadends.py),
    novel(link), the chance that its query parameters, or its path read under a sibling directory or going on
    below a page read, give a page not read yet (focused/strategies/variants.py),
    kind(link), how far links with its anchor on its page's host bore out their pages' relevance, against links in
    general (focused/strategies/linkkinds.py),
    and min(1, allowance / (pages read + 1))² of the link's site, where
    allowance = (FOCUSED_HOST_PROBE · payoff · trust + FOCUSED_HOST_YIELD · credible relevant pages · trust') · believed share
    (trust' = √trust for a site a fully trusted site links to, trust otherwise: focused/strategies/trust.py)
    and payoff is the share of the sites found beyond the seeds' that gave a credible relevant page
    (1 on a seed's site: the user chose it).

A site is a registrable domain (focused.frontier.urls.site_of): whoever registers a name can make any
number of hosts under it, so exploration, budget and trust are a site's, as IRLbot's budgets
are a pay-level domain's (Lee et al. 2008); politeness stays per host.

- p(...) is the mean of the link's lexical similarity to the profile (twice the cosine, at most 1) and an
  online logistic model (SGD) trained on the crawl's own outcomes: the link
  that led to each fetched page is an example, with a soft label: the page's credible
  relevance times its novelty (focused/pages/credibility.py), so an uncertain verdict teaches
  as little as it is worth, a near-duplicate teaches "nothing new" and so does a link that
  gave no page, such as a 404. Its features: the words of anchor, context and URL, their lexical
  similarity to the profile, the distance since the last relevant ancestor, the parent's
  relevance and the target site's smoothed rate of new relevant content (the same soft labels,
  summed; a link is learned from with its site's rate as it was when the link was followed: with its own
  page's verdict in it, the first page of every site taught that rate is the label, and a site not read
  yet, at the prior of a half, then outranked the sites the crawl knew: docs/benchmarks.md, session 72).
  Until it has seen FOCUSED_LINK_WARMUP pages of each class, the lexical similarity alone stands in for it.
  The profile's words stay half of the evidence after: the model learns from the links the crawl chose to
  follow, and on its own it buried links whose anchors say what the user asked for (a link "Time series / date
  functionality", lexical similarity 0.61, at p = 0.02 for 840 responses: docs/benchmarks.md, session 51).
- c(parent) is the parent's credibility as a source: the plausibility of its content times
  its novelty (focused/pages/credibility.py). A page stuffed with the topic's words, or text spun
  from pages already read, does not get to vouch for its own links with topical anchors:
  a link farm's pages link to each other with exactly the words the topic uses.
  relevance(parent) is already the parent's credible relevance, so it is not weighed again:
  counted twice, the novelty of a navigation page (repetitive by nature) starved the pages
  behind it (docs/benchmarks.md: the tunneling runs); so did its plausibility, on the local
  web (session 28: the harvest fell to lexical's in 4 runs of 4).
- inherited(parent) is that relevance as a prior worth PARENT_PRIOR followed links, drawn toward the
  relevance of the pages fetched through the parent's links so far: the links of a reference page whose
  followed stubs held nothing new stop inheriting its verdict (docs/benchmarks.md, session 54).
- v(...) is the context graph (Diligenti et al. 2000) per link, learned from the paths the
  crawl observed: the value of what the link's page led to, the mean credible relevance
  of the pages fetched through its links, or half that mean one link further (a discounted
  future reward, two steps deep, as Rennie & McCallum 1999 learn it). A logistic model on the
  link's own features (those of p), refit every batch on the pages whose links have been
  followed. p says "this link is relevant", v says "this link leads to relevant pages": it
  carries the crawl through pages that are not on the topic themselves (a tutorial's index, a
  release-notes list) toward those that are. Gated by c(parent) as p is. It replaces the
  page-level layer classifier of the first design, whose closeness was the same for every link
  of a page and lowered the harvest (docs/benchmarks.md). Off by default (w_context_graph 0): in
  session 80 the crawl without it read more of the held-out topics' pages early and fewer hazard
  pages; the distance since the last relevant ancestor stays among p's features.
- hub(parent) is the parent's HITS hub score on the crawled graph (0..1), gated by the link's
  own evidence p: a hub's topical links gain most and its navigation nothing. Ungated, one
  strong hub (a manual page with 150 links) lifted all its links above real evidence.
- the exploration bonus goes to links into sites the crawl has barely sampled, and halves
  with each page read there (a fetch that redirected elsewhere counts on the site that
  redirected: doorway pages would otherwise keep the bonus forever): new regions of the web get a
  look, and then their observed outcomes (the site rate, the context graph) decide. A broken link
  does not spend it, as it spends no allowance: alive(link) fades the links of a directory whose
  fetches fail, and a site is worth a look until a page of it has been read. The bonus is not times the link's
  own evidence: the one working link into the site that holds most of a topic may say nothing of the
  topic (`datetime`'s "pandas' dataframe"), and what a link says is already in p. Farms met
  through a footer link are held back by trust, probation and the payoff instead. (Gated by p
  since session 36, when footer links into farms outranked every link with evidence; on session
  58's held-out topics the ungated bonus, halved per page read, kept the same hazard share and
  raised recall: docs/benchmarks.md.)
  A web ring of blogs on thousands of subdomains is one site: one bonus, not one per blog;
  a network of blogs on as many domains gets each bonus times the site's trust, so only as
  far as trusted pages vouch for it. Bonus and probe are an
  expectation of what a look at a new site finds, so on a site beyond the seeds' both are
  times the payoff of the looks so far (the sites beyond the seeds' that gave a credible
  relevant page, up to one each, + 1, over the sites found + 1): on the web at large, or among
  farms spread over many domains to collect such bonuses, most looks find nothing, and links
  with evidence come first.
- alive(link) is where broken links cluster: the share of fetches under each directory of the
  link's path that gave a page, each shrunk toward its parent's. Every link of a relevant page
  inherits its relevance, working or not: one manual's links to translations the server does
  not have took 600 of 2,000 responses on the benchmark web before this.
- novel(link) is where one page answers under many URLs: per host and query parameter, the share of the
  pages read under it that were not near-duplicates, shrunk toward that name's share over every host. Every
  page of a seeded site linking to its own display options and earlier revisions took 8% to 15% of three
  held-out topics' crawls before this (session 81). A parameter whose chance halves has the frontier
  re-scored: a page's other options were queued with the first one, at its first chance.
  Paths too: a link whose path below a directory was read already under a sibling subdirectory (/docs/16/ssl.html
  after /docs/15/ssl.html) has that directory's share of such repeats that were new, shrunk toward its host's:
  a manual with a version switcher, every page again under each other release, had 3.0% of the
  held-out topics' pages read again before this, 0.7% after (two runs, session 83). And a path below a
  page read (/docs/ssl.html/print: a server that accepts path info answers it with the page), learned
  apart: session 84's print views took 1.33% of the held-out topics' pages before this, 0.53% after (two runs).

- the allowance is the budget a site earns, in pages read (a broken link into the site spends none
  of it: alive(link) fades those): a few pages to show what it holds, and a number
  of pages per relevant page it gave, each counted by the page's credibility (a spun or
  copied page earns little, a stuffed one nothing); all of it shrinking as the site's pages
  prove implausible or derivative (the believed share: summed credibility + 1 over pages
  read + 1): a site that mostly repeats others' pages is a copier, and its pages that
  look new may be copies of pages not read yet (a repeat of a page on a site it cannot be ranked against
  is no such sign: either may be the copy). Text of a page that turns out to be a page's met later on a
  site that outranks its own (`original`) is disowned: its credit goes back, all of it for a copy, a share for
  a page spun from many (`disown`). Past it, every score into the
  site fades as the square of its share left (the "overspent" signal): a link farm whose pages the
  classifier half-believes cannot take the budget by sheer size, whatever its text looks like, while a
  site that keeps giving relevant pages keeps its full priority. It is about the site's
  outcomes, not about any one kind of spam. Squared, because a farm of spun pages earns a little with
  each page it gives (a third of a page per page on the local web), so its share left settles at 5-10%
  rather than falling: faded in proportion, its links (topical anchors, believed parents) kept
  pace with a real site's weak links once the real evidence ran out (session 48).
  The same holds within a site, for each of its hosts and each directory of a host's paths: an allowance of
  the same probe (trust and payoff are the site's) and the same pages per credible relevant page read under
  it, and a link's share left is the least of its site's, host's and directories'. A site earns by its best
  part, and its other parts spent from that: the browsers of the repositories three manuals are written in,
  on the manuals' own domains (hg.python.org, svn.apache.org), none of their pages relevant, took 8.6% of the
  held-out topics' pages (up to 12.5% of a crawl) on what the manuals' pages had earned; 1.7% after (two runs
  each), and a hazard written after this, mailing-list archives on the manuals' domains, 1.7% against 2.9%
  (docs/benchmarks.md, session 88).
- trust is the site's trust from the seeds (after TrustRank, on the site graph: focused/strategies/trust.py)
  against FOCUSED_TRUST_FLOOR: what the classifier believes of a site's pages, and so what
  the site earns, counts only as far as trusted pages vouch for the site by linking to it.
  A farm reached through a few footer links, or spread over thousands of subdomains, gets
  little of the budget even when its pages fool the classifier. Trust is recomputed with
  every page of the first batch, then every batch: nothing is trusted blindly at the start.

Models are updated and the frontier re-scored every FOCUSED_RESCORE_INTERVAL pages.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scrapy.settings import BaseSettings
from sklearn.linear_model import SGDClassifier

from focused.frontier.evidence import LinkEvidence
from focused.frontier.urls import host_of, site_of
from focused.pages.credibility import new_content
from focused.pages.extract import Link
from focused.profile import Profile
from focused.relevance.similarity import TopicSimilarity
from focused.strategies.base import ParentPage, Scored, Strategy
from focused.strategies.crawlgraph import LAYERS, CrawlGraph
from focused.strategies.deadends import PathOutcomes, directories
from focused.strategies.linkkinds import KindOutcomes
from focused.strategies.linkwords import LinkWords
from focused.strategies.trust import SiteTrust
from focused.strategies.variants import QueryOutcomes, SiblingOutcomes, halved

EPOCHS = 5  # passes of SGD over each batch of new link outcomes
LEAD_DISCOUNT = 0.5  # what a page two links on is worth, against one that the link's page links to
LEAD_WINDOW = 20000  # the most recent paths the context graph is refit on
# of a judged page's credit, what a relevant page too short for the content envelope to judge earns its site: short
# reviews of a directory honey pot, believed at classifier 0.7-0.99, earned it the budget (docs/benchmarks.md, session 87)
UNJUDGED_CREDIT = 0.5
PARENT_PRIOR = 10  # followed links' worth of belief in a page's verdict, as the prior of what its other links hold
FACTORS = ("dead_end", "variant", "kind", "overspent")  # the signals that fade a link's evidence (Learned._faded)


def soft_examples(X: sparse.csr_matrix, soft: np.ndarray) -> tuple[sparse.csr_matrix, np.ndarray, np.ndarray]:
    """A soft label r as two weighted examples: relevant with weight r, irrelevant with weight 1 - r."""
    return sparse.vstack([X, X]).tocsr(), np.repeat([1, 0], len(soft)), np.concatenate([soft, 1 - soft])


@dataclass
class SiteOutcomes:
    """What the crawl got from a site's fetches (a fetch that gave no page counts, with nothing)."""

    fetched: int = 0  # every fetch, broken links too: what the site's rate counts
    read: int = 0  # fetches that gave a page or redirected elsewhere: what the allowance, belief and bonus count
    new_relevant: float = 0.0  # credible relevance times new share, summed: the site's rate in p(...)
    earned: float = 0.0  # credibility of the pages judged relevant, summed: what extends the allowance
    believed: float = 0.0  # credibility of every page, summed: how far the site's pages deserve belief

    def allowance(self, probe: float, per_relevant: float, trust: float, earned_trust: float) -> float:
        """The probe (times trust) plus the fetches its relevant pages earned (times what trust lets them count:
        SiteTrust.earned_factor), as far as the site's pages were believed so far (Laplace-smoothed: 1 before
        its first page). A site whose pages mostly repeat others' (a copy of a site, spun text) has its
        novel-looking pages believed as little: they may copy pages not read yet."""
        return (probe * trust + per_relevant * self.earned * earned_trust) * (1 + self.believed) / (1 + self.read)

    def left(self, probe: float, per_relevant: float, trust: float, earned_trust: float) -> float:
        """The allowance / the next fetch, at most 1: 1 while the site has earned another fetch."""
        return min(1.0, self.allowance(probe, per_relevant, trust, earned_trust) / (self.read + 1))

    def add(self, page: ParentPage) -> None:
        """A page read here: its verdict for the rate, its credit for the allowance, its credibility for belief."""
        self.read += 1
        self.new_relevant += page.relevance
        self.earned += page.credibility * _credit(page.judged) if page.relevant else 0.0
        self.believed += page.credibility

    def take_back(self, relevance: float, credibility: float, relevant: bool, judged: bool) -> None:
        """Some of a page of the site was another's text: what it was credited with for that goes, as `add`
        credited it."""
        self.new_relevant -= relevance
        self.earned -= credibility * _credit(judged) if relevant else 0.0
        self.believed -= credibility


def _credit(judged: bool) -> float:
    """What a relevant page's credibility earns its site: all of it if the content envelope could judge it."""
    return 1.0 if judged else UNJUDGED_CREDIT


class Learned(Strategy):
    name = "focused"
    probation = True

    def __init__(self, profile: Profile, settings: BaseSettings):
        super().__init__(profile, settings)
        self.weights = settings.getdict("FOCUSED_WEIGHTS")
        self.interval = settings.getint("FOCUSED_RESCORE_INTERVAL")
        self.warmup = settings.getint("FOCUSED_LINK_WARMUP")
        self.host_probe = settings.getfloat("FOCUSED_HOST_PROBE")
        self.host_yield = settings.getfloat("FOCUSED_HOST_YIELD")
        seed_sites = {site_of(host_of(url)) for url in profile.seeds}
        self.trust = SiteTrust(seed_sites, settings.getfloat("FOCUSED_TRUST_FLOOR"))
        self.similarity = TopicSimilarity(profile)
        self.graph = CrawlGraph()
        self.link_words = LinkWords(self.similarity, 2 * settings.getint("FOCUSED_RESCORE_LIMIT"))
        self.link_model = SGDClassifier(loss="log_loss", alpha=1e-4, random_state=0)
        self.lead_model: SGDClassifier | None = None  # v(link): the context graph, once paths show both classes
        # links judged since the last batch, with the page each led to (its relevance is the label; None: a dead end)
        # and their site's rate as it was before that outcome: what the link was scored on
        self.pending: list[tuple[LinkEvidence, int | None, tuple[float, float]]] = []
        self.outcomes = [0.0, 0.0]  # irrelevant, relevant outcomes learned from (soft labels summed)
        self.sites: dict[str, SiteOutcomes] = {}
        # per fetched page: the features of the link that led to it (a batch at a time; None outside LEAD_WINDOW)
        self.arrival_rows: list[sparse.csr_matrix | None] = []
        self._let_go = 0  # pages before this one no longer keep their arrival row
        self.credibility: list[float] = []  # per fetched page: its credibility as a source of links
        self.judged: list[bool] = []  # per fetched page: long enough for the content envelope (UNJUDGED_CREDIT)
        self.novelty: list[float] = []  # per fetched page: the share of its text still its own (disown)
        self.hubs = np.zeros(0)
        self.followed = (np.zeros(0), np.zeros(0))  # per page: pages fetched through its links, relevance summed
        self.version = 0  # bumped when the models or a site's allowance change: the frontier should be re-scored
        self.left: dict[str, float] = {}  # per site: its allowance left when it last had the frontier re-scored
        self.sections: dict[str, SiteOutcomes] = {}  # per host and directory (deadends.directories): what it earned
        self.sections_left: dict[str, float] = {}  # per host and directory: as `left`
        self.exploration = 1.0  # what a look at a new site has been worth so far (_update_sites)
        self.paths = PathOutcomes()  # which directories' links lead to pages
        self.variants = QueryOutcomes()  # which query parameters only vary a page
        self.siblings = SiblingOutcomes()  # which directories hold the same pages as their siblings
        self.kinds = KindOutcomes()  # which kinds of link bear out the relevance of the page they are on

    # --- a fetched page -----------------------------------------------------------
    def score(self, parent: ParentPage, links: list[Link]) -> list[Scored]:
        self._observe(parent, links)
        infos = [
            LinkEvidence(
                url=link.url,
                anchor=link.anchor,
                context=link.context,
                parent_url=parent.url,
                parent_relevance=parent.relevance,
            )
            for link in links
        ]
        if len(self.graph) < self.interval:
            self._update_sites()  # the first batch too is scored with what trusted pages say: nothing is trusted blindly
            self.version += 1  # and what each page showed of its site counts before the next page is fetched
        scored = self.rescore(infos)
        if len(self.graph) % self.interval == 0:
            self._learn()
        return scored

    def rescore(self, infos: list[LinkEvidence]) -> list[Scored]:
        """Scores for links from what is known now."""
        if not infos:
            return []
        parents, sites = self._parents(infos), self._sites(infos)
        p_link, v_link = self._link_values(infos, parents, sites)
        w = self.weights
        lefts: dict[str, float] = {}  # each host's and directory's allowance left, worked out once per scoring
        scored = []
        for info, parent, site, p, v in zip(infos, parents, sites, p_link, v_link):
            outcomes, trust = self._site(site), self.trust.factor(site)
            evidence = float(p) * self._credibility(parent)
            signals = {
                "link": w["link"] * evidence,
                "parent": w["parent"] * self._inherited(parent, float(info.get("parent_relevance") or 0.0)),
                "context_graph": w["context_graph"] * float(v) * self._credibility(parent),
                "hub": w["hub"] * evidence * (float(self.hubs[parent]) if 0 <= parent < len(self.hubs) else 0.0),
                "explore": w["explore"] * self._payoff(site) * 0.5**outcomes.read * trust,
            }
            scored.append(self._faded(info, signals, site, outcomes, trust, lefts))
        return scored

    def current(self, info: LinkEvidence) -> Scored | None:
        """The link's score with its fading factors as they are now, from the evidence it was scored on. Between
        re-scorings the factors go stale: a burst of a relevant page's display options (`?rev=`, `?font=`) was
        fetched at the query fade of when they were queued, 13 copies in a row (docs/benchmarks.md, session 92)."""
        signals = info.get("signals") or {}
        if FACTORS[0] not in signals:
            return None  # a seed, or a request the strategy did not score
        site = site_of(host_of(info["url"]))
        evidence = {name: value for name, value in signals.items() if name not in FACTORS}
        return self._faded(info, evidence, site, self._site(site), self.trust.factor(site), {})

    def _faded(
        self,
        info: LinkEvidence,
        signals: dict[str, float],
        site: str,
        outcomes: SiteOutcomes,
        trust: float,
        lefts: dict[str, float],
    ) -> Scored:
        """The link's evidence (`signals`) times the chance it gives a page (alive), a new one (novel), how far its
        kind bears out its page (focused/strategies/linkkinds.py) and its allowance left, each factor's share of
        the score among the signals."""
        url = info["url"]
        total = sum(signals.values())
        signals["dead_end"] = -total * (1.0 - self.paths.alive(url))
        total += signals["dead_end"]
        signals["variant"] = -total * (1.0 - self.variants.novel(url) * self.siblings.novel(url))
        total += signals["variant"]
        signals["kind"] = -total * (1.0 - self.kinds.share(info.get("parent_url"), info.get("anchor") or ""))
        total += signals["kind"]
        left = min(self._allowance_left(site, outcomes, trust), self._sections_left(url, lefts))
        signals["overspent"] = -total * (1.0 - left**2)
        return Scored(total + signals["overspent"], signals)

    def _site(self, site: str) -> SiteOutcomes:
        return self.sites.get(site) or SiteOutcomes()

    def _payoff(self, site: str) -> float:
        """What a look at the site is expected to find: a seed's site is the user's word, any other site the
        crawl's experience of the sites it found."""
        return 1.0 if site in self.trust.seed_sites else self.exploration

    def _allowance_left(self, site: str, outcomes: SiteOutcomes, trust: float) -> float:
        """min(1, the site's allowance / its next fetch): 1 while the site has earned another fetch."""
        probe = self.host_probe * self._payoff(site)
        return outcomes.left(probe, self.host_yield, trust, self.trust.earned_factor(site))

    def _section_left(self, section: str) -> float:
        """A host's or directory's allowance left: a site's, within the site (its trust and payoff are the site's)."""
        outcomes = self.sections.get(section)
        return outcomes.left(self.host_probe, self.host_yield, 1.0, 1.0) if outcomes else 1.0

    def _sections_left(self, url: str, lefts: dict[str, float]) -> float:
        """The least allowance left of the URL's host and directories (`lefts`: those already worked out)."""
        return min(
            lefts[section] if section in lefts else lefts.setdefault(section, self._section_left(section))
            for section in directories(url)
        )

    def _check_sections(self, url: str) -> None:
        """Have the frontier re-scored when the allowance left of the page's host or a directory of it has halved."""
        halvings = [halved(self.sections_left, section, self._section_left(section)) for section in directories(url)]
        self.version += any(halvings)  # a list, not a generator: each section's record is brought up to date

    def _check_allowance(self, site: str, outcomes: SiteOutcomes) -> None:
        """Have the frontier re-scored when a site's allowance left has halved since it last was: the links a
        site showed on its first pages were scored before its later pages proved what it holds, and a farm
        would otherwise be fetched at those scores until the next batch."""
        self.version += halved(self.left, site, self._allowance_left(site, outcomes, self.trust.factor(site)))

    def _inherited(self, parent: int, relevance: float) -> float:
        """What a page's links inherit: its relevance, drawn toward that of the pages its links led to so far. A
        reference page whose followed stubs held nothing new stops lending its verdict to the hundreds left
        (`datetime`'s offsets stubs, session 53), as a guide whose links held what it promised keeps lending it."""
        counts, sums = self.followed
        if not 0 <= parent < len(counts):
            return relevance
        return float(PARENT_PRIOR * relevance + sums[parent]) / (PARENT_PRIOR + counts[parent])

    def _credibility(self, parent: int) -> float:
        return self.credibility[parent] if parent >= 0 else 1.0

    # --- learning -------------------------------------------------------------------
    def _observe(self, parent: ParentPage, links: list[Link]) -> None:
        info = parent.info
        number = self.graph.add(
            parent.url,
            info.get("parent_url"),
            parent.relevance,
            parent.relevant,
            [link.url for link in links],
            parent.duplicate,
        )
        site = site_of(host_of(parent.url))
        rate = self._site_rate(site)
        outcomes = self.sites.setdefault(site, SiteOutcomes())
        outcomes.fetched += 1
        outcomes.add(parent)
        for section in directories(parent.url):
            self.sections.setdefault(section, SiteOutcomes()).add(parent)
        for url in (parent.url, *parent.redirects):
            self.paths.observe(url, page=True)
        new = not parent.duplicate
        self.version += self.variants.observe(parent.url, new) | self.siblings.observe(parent.url, new)
        self.trust.observe(site, [site_of(host_of(link.url)) for link in links])
        for redirecting in {site_of(host_of(url)) for url in parent.redirects} - {site}:
            redirected = self.sites.setdefault(redirecting, SiteOutcomes())
            redirected.fetched += 1  # a redirect spent a fetch there too, and showed nothing of its own
            redirected.read += 1
            self.trust.observe(redirecting, [site])  # and vouched for where it led
        self.credibility.append(parent.credibility)
        self.judged.append(parent.judged)
        self.novelty.append(parent.novelty)
        self._check_allowance(site, outcomes)
        self._check_sections(parent.url)
        self.arrival_rows.append(None)
        if info.get("parent_url"):
            self.pending.append(({**info, "url": parent.url}, number, rate))
            handed = float(info.get("parent_relevance") or 0.0)
            self.version += self.kinds.observe(info["parent_url"], info.get("anchor") or "", handed, parent.relevance)

    def original(self, url: str, earlier: str) -> bool | None:
        """A page is the original of an earlier one on another site when its site is trusted more, or alike and
        vouched for by more sites (SiteTrust.outranks): a copy met first does not keep the original's credit. On
        one site, the page read first is the original; between sites neither outranks, nobody can tell yet."""
        mine, theirs = site_of(host_of(url)), site_of(host_of(earlier))
        if mine == theirs or self.trust.outranks(theirs, mine):
            return False
        return True if self.trust.outranks(mine, theirs) else None

    def disown(self, url: str, share: float = 1.0) -> bool:
        """Its own text is what a page is credited for (new_content): the share of it that was another's goes back,
        from the page's verdict, its credibility as a source and its site's outcomes alike."""
        number = self.graph.page(url)
        if number < 0 or self.graph.duplicate[number]:
            return False
        before = new_content(self.novelty[number])
        self.novelty[number] = max(0.0, self.novelty[number] - share)
        kept = new_content(self.novelty[number]) / before if before else 0.0
        relevant = self.graph.relevant[number]
        taken = 1.0 - kept
        for outcomes in (self._site(site_of(host_of(url))), *(self.sections[section] for section in directories(url))):
            outcomes.take_back(
                taken * self.graph.relevance[number], taken * self.credibility[number], relevant, self.judged[number]
            )
        self.credibility[number] *= kept
        if kept:
            self.graph.relevance[number] *= kept
            return False
        self.graph.disown(number)
        return relevant

    def dead_end(self, url: str, info: LinkEvidence) -> None:
        """The fetch found nothing: an irrelevant outcome for the link model and the site's rate, a sign that the
        link's directories are dead (alive(link)); not a look at what the site holds, so neither its allowance nor
        its exploration bonus is spent, nor its belief shrunk: other sites' old links into
        pandas.pydata.org had spent its probe before its first page was read (docs/benchmarks.md, session 43)."""
        site = site_of(host_of(url))
        rate = self._site_rate(site)
        self.sites.setdefault(site, SiteOutcomes()).fetched += 1
        self.paths.observe(url, page=False)
        if info.get("parent_url"):
            self.pending.append(({**info, "url": url}, None, rate))

    def _learn(self) -> None:
        if self.pending:
            infos, numbers, rates = map(list, zip(*self.pending))
            X = self._link_matrix(infos, self._parents(infos), rates, *self.link_words(infos))
            soft = np.array([self.graph.relevance[n] if n is not None else 0.0 for n in numbers])
            X2, y, weight = soft_examples(X, soft)
            for _ in range(EPOCHS):
                self.link_model.partial_fit(X2, y, classes=[0, 1], sample_weight=weight)
            self.outcomes[0] += float((1 - soft).sum())
            self.outcomes[1] += float(soft.sum())
            if self.weights["context_graph"]:  # the same features teach the context graph, when it counts
                for row, number in enumerate(numbers):
                    if number is not None:
                        self.arrival_rows[number] = X[row]
            self.pending = []
        start = max(0, len(self.arrival_rows) - LEAD_WINDOW)  # older pages' link evidence is let go
        self.arrival_rows[self._let_go : start] = [None] * (start - self._let_go)
        self._let_go = start
        if self.weights["context_graph"]:
            self._fit_lead_model()
        if self.weights["hub"]:
            self.hubs = self.graph.hub_scores()
        self.followed = self.graph.followed()
        self._update_sites()
        self.version += 1

    def _update_sites(self) -> None:
        """Trust from the seeds, and the payoff of exploring so far: the share of the sites found beyond the
        seeds' that gave credible relevant pages (up to one per site), 1 before any."""
        self.trust.update()
        found = [o for site, o in self.sites.items() if o.fetched and site not in self.trust.seed_sites]
        self.exploration = (sum(min(1.0, max(o.earned, 0.0)) for o in found) + 1) / (len(found) + 1)

    def _fit_lead_model(self) -> None:
        """Refit v(link) on the paths of the latest LEAD_WINDOW pages: each followed link's page, labeled by
        what it led to (older pages' rows are let go by _learn: memory stays bounded however long the crawl)."""
        leads = self.graph.lead_values(LEAD_DISCOUNT)
        pages = [
            n for n in range(self._let_go, len(self.arrival_rows)) if self.arrival_rows[n] is not None and leads[n] >= 0
        ]
        soft = leads[pages]
        if min(soft.sum(), (1 - soft).sum()) < self.warmup:
            return
        X2, y, weight = soft_examples(sparse.vstack([self.arrival_rows[n] for n in pages]), soft)
        self.lead_model = SGDClassifier(loss="log_loss", alpha=1e-4, random_state=0).fit(X2, y, sample_weight=weight)

    # --- link features ----------------------------------------------------------------
    def _parents(self, infos: list[LinkEvidence]) -> list[int]:
        """Page numbers of the links' parents, looked up once per parent (a page's links share one)."""
        numbers: dict[str | None, int] = {}
        return [
            numbers[url] if url in numbers else numbers.setdefault(url, self.graph.page(url))
            for url in (info.get("parent_url") for info in infos)
        ]

    def _link_values(
        self, infos: list[LinkEvidence], parents: list[int], sites: list[str]
    ) -> tuple[np.ndarray, np.ndarray]:
        """p(link), the mean of the lexical similarity and the link classifier's (the lexical alone until it
        has learned enough), and v(link), the context graph's (0 until it has)."""
        learned = min(self.outcomes) >= self.warmup
        words, sims = self.link_words(infos)
        X = None
        if learned or self.lead_model:  # the site rates only where a model reads them
            X = self._link_matrix(infos, parents, [self._site_rate(site) for site in sites], words, sims)
        p = np.clip(2 * sims[3], 0, 1)
        if learned:
            p = (p + self.link_model.predict_proba(X)[:, 1]) / 2
        v = self.lead_model.predict_proba(X)[:, 1] if self.lead_model else np.zeros(len(infos))
        return p, v

    @staticmethod
    def _sites(infos: list[LinkEvidence]) -> list[str]:
        """The site of each link's URL, parsed once per scoring."""
        return [site_of(host_of(info["url"])) for info in infos]

    def _site_rate(self, site: str) -> tuple[float, float]:
        """Share of the site's fetched pages that were relevant and new (Laplace-smoothed), and how much of that is
        the prior's: a half is an unread site's rate, above most sites' the crawl knows, and without the second a
        linear model cannot tell an unknown site from a good one."""
        outcomes = self._site(site)
        return (outcomes.new_relevant + 1) / (outcomes.fetched + 2), 2 / (outcomes.fetched + 2)

    def _link_matrix(
        self,
        infos: list[LinkEvidence],
        parents: list[int],
        rates: list[tuple[float, float]],
        words: sparse.csr_matrix,
        sims: np.ndarray,
    ) -> sparse.csr_matrix:
        """Hashed words of anchor (a:), context (c:) and URL (u:) (focused.strategies.linkwords), distance since
        a relevant ancestor (d:), parent relevance, the target site's rate of relevant new pages (`rates`: as known
        when the link is scored, so a link learned from has its rate from before its own page was read), and the
        similarities of anchor, context and URL words to the profile: evidence that carries over to words the
        link model has not seen yet."""
        distances = [min(self.graph.distance[parent], LAYERS - 1) if parent >= 0 else LAYERS - 1 for parent in parents]
        numbers = np.array([[float(i.get("parent_relevance") or 0.0), *rate] for i, rate in zip(infos, rates)])
        return sparse.hstack(
            [
                self.link_words.with_distances(words, distances),
                sparse.csr_matrix(numbers),
                sparse.csr_matrix(sims[:3].T),
            ],
            format="csr",  # row blocks stacked directly: no detour through COO and back
        )
