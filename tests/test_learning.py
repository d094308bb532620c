"""The context graph's observed values, hub scores and the learned score combination, as pure logic."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scrapy.settings import Settings

from focused import settings as project_settings
from focused.pages.extract import Link
from focused.profile import Profile
from focused.relevance.similarity import url_words
from focused.strategies import ParentPage
from focused.strategies.crawlgraph import CrawlGraph
from focused.strategies.learned import UNJUDGED_CREDIT, Learned
from focused.strategies.trust import UNREAD

PROFILE = Profile("sql", "Relational databases: SQL queries.", ("sql", "query"), ("http://a/",))


def settings(**overrides) -> Settings:
    values = Settings()
    values.setmodule(project_settings)
    values.update(overrides)
    return values


def with_context_graph(**overrides) -> Settings:
    """The settings with the context graph weighed in (it is off by default)."""
    return settings(FOCUSED_WEIGHTS={**project_settings.FOCUSED_WEIGHTS, "context_graph": 0.25}, **overrides)


def chain_graph() -> CrawlGraph:
    """seed -> hub -> {r1, r2 (relevant), x}; seed -> lone; r1 -> deep (relevant)."""
    graph = CrawlGraph()
    graph.add("http://s/", None, 0.0, False, ["http://s/hub", "http://s/lone"])
    graph.add("http://s/hub", "http://s/", 0.1, False, ["http://s/r1", "http://s/r2", "http://s/x"])
    graph.add("http://s/lone", "http://s/", 0.0, False, [])
    graph.add("http://s/r1", "http://s/hub", 0.9, True, ["http://s/deep"])
    graph.add("http://s/r2", "http://s/hub", 0.8, True, [])
    graph.add("http://s/x", "http://s/hub", 0.1, False, [])
    graph.add("http://s/deep", "http://s/r1", 0.9, True, [])
    return graph


def test_what_a_page_led_to_comes_from_the_paths_the_crawl_followed():
    graph = chain_graph()  # seed, hub, lone, r1, r2, x, deep
    assert graph.lead_values(0.5) == pytest.approx([0.3, 0.6, -1, 0.9, -1, -1, -1])  # -1: none of its links followed
    assert graph.distance == [4, 5, 5, 0, 0, 6, 0]  # links since the last relevant ancestor (4: none yet)


def test_hubs_are_pages_that_link_to_relevant_pages():
    hubs = chain_graph().hub_scores()
    assert hubs.argmax() == 1  # the page linking to two relevant pages
    assert hubs[1] == pytest.approx(1.0)
    assert hubs[2] == 0 and hubs[4] == 0  # links to nothing relevant, or to nothing


def page(url: str, relevance: float, parent_url: str | None = None, duplicate: bool = False) -> ParentPage:
    info = (
        {"parent_url": parent_url, "anchor": "sql query", "context": "", "parent_relevance": 0.5} if parent_url else {}
    )
    return ParentPage(url, 1, relevance, relevance >= 0.5, duplicate=duplicate, info=info)


def vouched(strategy: Learned, *sites: str) -> Learned:
    """The seed's page links to each site: they are trusted (trust is known from the first page on)."""
    strategy.score(page("http://a/", 0.0), [Link(f"http://{site}/", "", "") for site in sites])
    return strategy


# the signals a learned score is the sum of, as focused/strategies/learned.py documents them
SIGNALS = {"link", "parent", "context_graph", "hub", "explore", "dead_end", "variant", "kind", "overspent"}


def test_the_score_is_the_documented_weighted_sum_of_its_signals():
    strategy = vouched(Learned(PROFILE, settings()), "s")
    scored = strategy.score(
        page("http://s/", 0.9), [Link("http://s/sql-query", "SQL query plans", "how a query runs")]
    )[0]
    w = strategy.weights
    assert set(scored.signals) == SIGNALS
    assert scored.signals["dead_end"] == 0  # nothing fetched under the link's path has failed
    assert scored.signals["overspent"] == 0  # a host within its allowance
    assert scored.signals["kind"] == 0  # nothing followed yet of links like it
    assert scored.signals["parent"] == pytest.approx(w["parent"] * 0.9)
    assert scored.signals["context_graph"] == 0  # nothing learned yet of where links lead
    assert 0 < scored.signals["link"] <= w["link"]
    assert scored.score == pytest.approx(sum(scored.signals.values()))


def test_a_pages_links_inherit_less_of_its_relevance_as_its_followed_links_prove_empty():
    strategy = vouched(Learned(PROFILE, settings(FOCUSED_RESCORE_INTERVAL=50)), "s")
    for parent, relevance in (("stubs", 0.0), ("guide", 0.9)):
        strategy.score(page(f"http://s/{parent}", 0.9), [])
        for i in range(20):  # what its links led to: 20 pages of nothing new, or 20 relevant pages
            strategy.score(page(f"http://s/{parent}/{i}", relevance, parent_url=f"http://s/{parent}"), [])
    while len(strategy.graph) < 50:  # till a batch is learned from
        strategy.score(page(f"http://s/other{len(strategy.graph)}", 0.0), [])
    w, prior = strategy.weights["parent"], 10  # PARENT_PRIOR: links' worth of belief in the page's own verdict
    stubs, guide = (
        strategy.rescore([{"url": f"{u}/next", "parent_url": u, "anchor": "", "context": "", "parent_relevance": 0.9}])
        for u in ("http://s/stubs", "http://s/guide")
    )
    assert stubs[0].signals["parent"] == pytest.approx(w * 0.9 * prior / (prior + 20))  # drawn toward 0
    assert guide[0].signals["parent"] == pytest.approx(w * 0.9)  # its links held what it promised


def test_a_host_that_gives_no_credible_relevant_pages_fades_once_past_its_allowance():
    strategy = vouched(Learned(PROFILE, settings(FOCUSED_HOST_PROBE=4, FOCUSED_HOST_YIELD=2)), "farm", "docs")
    link = [Link("http://farm/sql-query", "SQL query plans", "how a query runs")]
    for i in range(8):  # eight pages the classifier half-believes, none credible enough to count
        strategy.score(page(f"http://farm/{i}", 0.45), [])
    for i in range(2):  # a host that gave two relevant pages in eight earns 4 + 2 x 2 = 8 fetches
        strategy.score(page(f"http://docs/{i}", 0.9), [])
    for i in range(6):
        strategy.score(page(f"http://docs/other{i}", 0.1), [])
    farm = strategy.score(page("http://farm/8", 0.45), link)[0]
    docs = strategy.score(page("http://docs/8", 0.45), [Link("http://docs/sql-query", "SQL query plans", "")])[0]
    e = strategy.exploration  # one of the two sites found beyond the seed's paid off: (1 + 1) / (2 + 1)
    assert e == pytest.approx(2 / 3)
    assert farm.signals["overspent"] < 0 and farm.score == pytest.approx(sum(farm.signals.values()))
    left = 4 * e / 10  # of the allowance, at the 10th fetch: probe 4e
    assert farm.score == pytest.approx((farm.score - farm.signals["overspent"]) * left**2)
    assert docs.signals["overspent"] == pytest.approx(
        -(docs.score - docs.signals["overspent"]) * (1 - ((4 * e + 4) / 10) ** 2)
    )


@pytest.mark.parametrize("judged, credit", [(True, 1.0), (False, UNJUDGED_CREDIT)])
def test_a_host_the_seeds_hardly_vouch_for_gets_a_smaller_allowance(judged: bool, credit: float):
    """Its relevant pages earn less, and less yet when too short for the content envelope to judge."""
    strategy = Learned(PROFILE, settings(FOCUSED_RESCORE_INTERVAL=50, FOCUSED_TRUST_FLOOR=0.2))
    strategy.score(page("http://a/", 0.1), [Link("http://farm/0", "SQL query guide", ""), Link("http://a/1", "", "")])
    for i in range(1, 30):  # the seed's host: one footer link to the farm in 30 pages
        strategy.score(page(f"http://a/{i}", 0.9 if i % 3 else 0.1), [Link(f"http://a/{i + 1}", "", "")])
    for i in range(21):  # farm pages the classifier believes, linking to each other
        farm_page = replace(page(f"http://farm/{i}", 0.9), judged=judged)
        farm = strategy.score(farm_page, [Link(f"http://farm/{i + 1}", "SQL query", "")])[0]
    assert strategy.version >= 1
    assert strategy.trust.factor("a") == 1.0 and strategy.trust.factor("farm") < 0.5
    factor = strategy.trust.factor("farm")  # the seed's own site vouches for it: its pages' earnings count by √factor
    allowance = 10 * factor + 5 * 21 * credit * factor**0.5  # 21 relevant pages, each fully credible here
    assert farm.score == pytest.approx((farm.score - farm.signals["overspent"]) * min(1, allowance / 22) ** 2)


def test_a_near_duplicate_promotes_nothing():
    strategy = Learned(PROFILE, settings())
    scored = strategy.score(page("http://m/", 0.0, duplicate=True), [Link("http://m/sql", "SQL", "")])[0]
    assert scored.signals["parent"] == 0


def test_the_context_graph_learns_which_links_lead_to_relevant_pages_through_irrelevant_ones():
    """Index pages under /guide/ are not relevant themselves, but their links are; those under /news/ lead nowhere."""
    strategy = Learned(PROFILE, with_context_graph(FOCUSED_RESCORE_INTERVAL=30, FOCUSED_LINK_WARMUP=3))
    strategy.score(page("http://s/", 0.0), [])
    for i in range(20):
        index = f"http://s/{'guide' if i % 2 == 0 else 'news'}/{i}"
        strategy.score(page(index, 0.05, parent_url="http://s/"), [])
        strategy.score(page(f"{index}/a", 0.9 if i % 2 == 0 else 0.05, parent_url=index), [])
    assert strategy.lead_model is not None
    infos = [
        {"url": f"http://s/{kind}/new", "anchor": "", "context": "", "parent_url": "http://s/", "parent_relevance": 0.0}
        for kind in ("guide", "news")
    ]
    guide, news = strategy.rescore(infos)
    assert guide.signals["context_graph"] > 2 * news.signals["context_graph"] > 0


def read_a_chain(strategy: Learned, pages: int) -> None:
    """Pages alternately relevant and not, each linked from the one two before it."""
    for i in range(pages):
        parent = "http://s/" if i < 2 else f"http://s/{i - 2}"
        strategy.score(page(f"http://s/{i}", 0.9 if i % 2 else 0.0, parent_url=parent), [])


def test_the_context_graph_keeps_the_link_evidence_of_its_window_only(monkeypatch):
    monkeypatch.setattr("focused.strategies.learned.LEAD_WINDOW", 25)
    strategy = Learned(PROFILE, with_context_graph(FOCUSED_RESCORE_INTERVAL=10, FOCUSED_LINK_WARMUP=3))
    strategy.score(page("http://s/", 0.0), [])
    read_a_chain(strategy, 60)
    assert len(strategy.arrival_rows) == 61  # 61 pages, learned up to the 60th: the last one waits for its batch
    assert all(row is None for row in strategy.arrival_rows[:35])
    assert all(row is not None for row in strategy.arrival_rows[36:60]) and strategy.lead_model is not None
    off = Learned(PROFILE, settings(FOCUSED_RESCORE_INTERVAL=10, FOCUSED_LINK_WARMUP=3))  # its weight 0, the default
    read_a_chain(off, 30)
    assert all(row is None for row in off.arrival_rows) and off.lead_model is None  # nothing kept for it


def taught_good_and_bad_paths() -> Learned:
    """A strategy whose link model has learned that links under /good/ lead to relevant pages, under /bad/ not."""
    strategy = Learned(PROFILE, settings(FOCUSED_RESCORE_INTERVAL=20, FOCUSED_LINK_WARMUP=5))
    strategy.score(page("http://s/", 0.0), [])
    for i in range(40):
        good = i % 2 == 0
        url = f"http://s/{'good' if good else 'bad'}/{i}"
        strategy.score(page(url, 0.9 if good else 0.1, parent_url="http://s/"), [])
    return strategy


def test_the_link_classifier_learns_from_outcomes_and_rescoring_uses_it():
    strategy = taught_good_and_bad_paths()
    assert strategy.version >= 1 and min(strategy.outcomes) >= 5
    infos = [
        {
            "url": f"http://s/{kind}/new",
            "anchor": "sql query",
            "context": "",
            "parent_url": "http://s/",
            "parent_relevance": 0.0,
        }
        for kind in ("good", "bad")
    ]
    good, bad = strategy.rescore(infos)
    assert good.signals["link"] > bad.signals["link"]


def test_a_link_is_learned_from_as_it_was_scored_not_with_its_own_pages_verdict_in_its_sites_rate():
    """Forty sites, one page read of each, relevant or not at random: what a site's rate was before its page was read
    says nothing of the page. Counted in the rate the link is learned from, each page's verdict taught the link models
    that a rate of 2/3 means relevant (a page's site read once, relevant) and 1/3 not, and the prior of a site not
    read yet, 1/2, then outranked the sites the crawl knew (v about 0.5 on a parked domain's links: session 72)."""
    strategy = Learned(PROFILE, settings(FOCUSED_RESCORE_INTERVAL=40, FOCUSED_LINK_WARMUP=5))
    strategy.score(page("http://a/", 0.0), [])
    for i in range(40):
        strategy.score(page(f"http://site{i}.example/", 0.9 if i % 3 == 0 else 0.1, parent_url="http://a/"), [])
    strategy.score(page("http://good.example/", 0.9, parent_url="http://a/"), [])  # read after the models learned
    strategy.score(page("http://bad.example/", 0.1, parent_url="http://a/"), [])
    link = {"anchor": "sql query", "context": "", "parent_url": "http://a/", "parent_relevance": 0.0}
    good, bad = strategy.rescore([{**link, "url": "http://good.example/x"}, {**link, "url": "http://bad.example/x"}])
    assert abs(good.signals["link"] - bad.signals["link"]) < 0.05  # 0.16 with the verdict in the rate (0.39 and 0.23)


def test_the_link_models_can_tell_an_unread_site_from_one_read_at_the_same_rate():
    """A half is an unread site's rate and a rich site's too: the prior's share of the rate tells them apart."""
    strategy = vouched(Learned(PROFILE, settings()), "rich.example")
    for i in range(8):
        strategy.score(page(f"http://rich.example/{i}", 0.5), [])
    (rate, prior), (unread_rate, unread_prior) = strategy._site_rate("rich.example"), strategy._site_rate("new.example")
    assert rate == pytest.approx(unread_rate) == pytest.approx(0.5)
    assert prior == pytest.approx(0.2) and unread_prior == 1.0


def test_the_profiles_words_stay_half_the_link_evidence_once_the_link_classifier_has_learned():
    """Taught only by the links the crawl chose, the link model can bury an anchor that names the topic: the
    lexical similarity stays half of p, and the outcomes move the other half."""
    strategy = taught_good_and_bad_paths()
    info = {"url": "http://s/bad/new", "context": "", "parent_url": "http://s/", "parent_relevance": 0.0}
    plain, topical = strategy.rescore([{**info, "anchor": "next page"}, {**info, "anchor": "sql query"}])
    lexical = min(1.0, 2 * float(strategy.similarity([f"sql query  {url_words(info['url'])}"])[0]))
    assert topical.signals["link"] >= strategy.weights["link"] * lexical / 2 > plain.signals["link"]
    assert topical.signals["link"] < strategy.weights["link"] * lexical  # what the outcomes taught still counts


def test_exploration_goes_to_sites_the_crawl_has_barely_sampled():
    strategy = vouched(Learned(PROFILE, settings()), "www.known.example", "new.example")
    for i in range(3):
        strategy.score(page(f"http://www.known.example/{i}", 0.0), [])
    links = [
        Link(url, "sql query", "")
        for url in ("http://new.example/", "http://www.known.example/x", "http://blog7.known.example/")
    ]
    new, known, subdomain = strategy.score(page("http://www.known.example/3", 0.0), links)
    assert strategy.exploration == pytest.approx(1 / 2)  # one site found beyond the seed's, and it held nothing
    assert new.signals["explore"] == pytest.approx(0.2 / 2) and known.signals["explore"] == pytest.approx(0.2 / 2 / 16)
    # a new host of a sampled site is not new
    assert subdomain.signals["explore"] == pytest.approx(known.signals["explore"])


def test_a_new_sites_bonus_is_spent_by_its_pages_read_not_by_broken_links_or_a_links_words():
    """The one working link into a site may say nothing of the topic; a site is worth a look until a page of it is
    read, however many old links into it failed (alive(link) fades those)."""
    strategy = vouched(Learned(PROFILE, settings()), "new.example", "docs.example")
    bare, topical = strategy.score(
        page("http://a/1", 0.0),
        [Link("http://new.example/p/1", "", ""), Link("http://docs.example/", "sql query", "")],
    )
    assert bare.signals["explore"] == topical.signals["explore"] > 0
    for i in range(3):
        strategy.dead_end(f"http://new.example/old/{i}", {"parent_url": "http://a/1", "anchor": "", "context": ""})
    (after_broken,) = strategy.rescore([{"url": "http://new.example/p/1", "anchor": "", "parent_url": "http://a/1"}])
    assert after_broken.signals["explore"] == bare.signals["explore"]
    strategy.score(page("http://new.example/p/2", 0.0), [])
    (after_read,) = strategy.rescore([{"url": "http://new.example/p/1", "anchor": "", "parent_url": "http://a/1"}])
    assert after_read.signals["explore"] <= bare.signals["explore"] / 2


def test_exploration_is_worth_what_it_has_paid_so_far():
    """The bonus and the probe of a site not yet sampled are an expectation: the share of the sites found beyond the
    seeds' that gave a credible relevant page (1 before any)."""
    strategy = vouched(Learned(PROFILE, settings()), *(f"s{i}.example" for i in range(4)))
    assert strategy.exploration == 1.0
    for i in range(3):  # three barren sites
        strategy.score(page(f"http://s{i}.example/", 0.0), [])
    assert strategy.exploration == pytest.approx(1 / 4)
    fresh, seeds = strategy.score(
        page("http://s3.example/", 0.9),
        [Link("http://new.example/", "sql query", ""), Link("http://a/more", "sql query", "")],
    )  # one paid off
    assert strategy.exploration == pytest.approx(2 / 5)
    assert fresh.signals["explore"] == pytest.approx(0.2 * 2 / 5)
    assert seeds.signals["explore"] == pytest.approx(0.2 / 2)  # a seed's site is the user's word: its page read


def test_links_into_a_directory_of_404s_fade():
    strategy = vouched(Learned(PROFILE, settings()), "docs")
    for i in range(6):
        strategy.score(page(f"http://docs/en/{i}", 0.9), [])
        strategy.dead_end(f"http://docs/fr/{i}", {"parent_url": "http://docs/en/0", "anchor": "", "context": ""})
    links = [Link(f"http://docs/{lang}/sql-query", "SQL query plans", "") for lang in ("en", "fr")]
    live, dead = strategy.score(page("http://docs/en/6", 0.9), links)
    assert live.signals["dead_end"] > -0.1 * live.score and dead.signals["dead_end"] < -0.5 * (
        dead.score - dead.signals["dead_end"]
    )
    assert live.score > 3 * dead.score and dead.score == pytest.approx(sum(dead.signals.values()))


def test_links_that_gave_no_page_are_learned_as_wasted_fetches():
    strategy = Learned(PROFILE, settings(FOCUSED_RESCORE_INTERVAL=20, FOCUSED_LINK_WARMUP=5))
    strategy.score(page("http://s/", 0.0), [])
    for i in range(40):  # every other link with "source" in its URL answered 404; the others were relevant pages
        if i % 2:
            strategy.dead_end(
                f"http://s/source/{i}",
                {"parent_url": "http://s/", "anchor": "sql query", "context": "", "parent_relevance": 0.9},
            )
        else:
            strategy.score(page(f"http://s/docs/{i}", 0.9, parent_url="http://s/"), [])
    assert strategy.outcomes[0] >= 15 and strategy.sites["s"].fetched == 41  # a 404 costs the host a fetch
    infos = [
        {
            "url": f"http://s/{kind}/new",
            "anchor": "sql query",
            "context": "",
            "parent_url": "http://s/",
            "parent_relevance": 0.9,
        }
        for kind in ("docs", "source")
    ]
    docs, source = strategy.rescore(infos)
    assert docs.signals["link"] > source.signals["link"] + 0.1


def test_a_hub_lifts_its_links_by_their_own_evidence():
    strategy = Learned(PROFILE, settings(FOCUSED_RESCORE_INTERVAL=4))
    strategy.score(page("http://s/", 0.0), [])
    strategy.score(
        page("http://s/hub", 0.1, parent_url="http://s/"), [Link(f"http://s/{n}", "", "") for n in ("r1", "r2", "x")]
    )
    for url in ("http://s/r1", "http://s/r2"):  # the fourth page: learning runs, hub scores included
        strategy.score(page(url, 0.9, parent_url="http://s/hub"), [])
    assert strategy.hubs[1] == pytest.approx(1.0)
    infos = [
        {
            "url": f"http://s/{path}",
            "anchor": anchor,
            "context": "",
            "parent_url": "http://s/hub",
            "parent_relevance": 0.1,
        }
        for path, anchor in (("sql-joins", "SQL query joins"), ("about", "About us"))
    ]
    topical, navigation = strategy.rescore(infos)
    w = strategy.weights
    assert topical.signals["hub"] == pytest.approx(w["hub"] * topical.signals["link"] / w["link"])
    assert topical.signals["hub"] > navigation.signals["hub"] * 2


def test_a_redirect_spends_the_exploration_bonus_of_the_host_that_redirected():
    """Doorway pages redirect into a farm: the doorway host never serves a page of its own, but it has been tried."""
    strategy = vouched(Learned(PROFILE, settings()), "known", "door", "farm")
    strategy.score(page("http://known/0", 0.0), [])
    for i in range(1, 4):
        landed = ParentPage(f"http://farm/{i}", 1, 0.0, False, redirects=(f"http://door/{i}",))
        strategy.score(landed, [])
    (door,) = strategy.score(page("http://known/1", 0.0), [Link("http://door/9", "sql query", "")])
    assert door.signals["explore"] == pytest.approx(0.2 / 8 / 4)  # known, door and farm found, none paid off
    assert strategy.sites["farm"].fetched == 3 and strategy.sites["door"].fetched == 3


def test_exploration_and_the_probe_go_as_far_as_trusted_pages_vouch_for_a_site():
    """A site only a low-trust site links to gets a share of the exploration bonus; trust is known from the
    first page on, so a crawl's first batch is not scored blindly."""
    strategy = Learned(PROFILE, settings(FOCUSED_TRUST_FLOOR=0.2))
    strategy.score(
        page("http://a/", 0.0), [Link("http://blog/", "", "")] + [Link(f"http://a/{i}", "", "") for i in range(9)]
    )
    (blog,) = strategy.score(page("http://blog/", 0.9), [Link("http://ring/", "", "")])
    factor = strategy.trust.factor("ring")
    assert 0 < factor < 1 and strategy.trust.factor("blog") == pytest.approx(min(1, 0.85 * 0.1 / (1 + UNREAD) / 0.2))
    (ring,) = strategy.score(page("http://blog/1", 0.9), [Link("http://ring/", "sql query", "")])
    assert ring.signals["explore"] == pytest.approx(0.2 * factor)


def test_a_site_of_implausible_pages_has_its_probe_shrink():
    """A parked domain's keyword listings: each page it shows, believed little, shrinks what it may show next."""
    strategy = vouched(Learned(PROFILE, settings(FOCUSED_HOST_PROBE=10)), "parked", "docs")
    link = [Link("http://parked/related/9", "sql query", "related searches")]
    for i in range(4):
        (listing,) = strategy.score(ParentPage(f"http://parked/{i}", 1, 0.4, False, credibility=0.05), link)
    assert strategy.sites["parked"].allowance(10, 5, 1.0, 1.0) == pytest.approx(10 * (1 + 4 * 0.05) / 5)
    probe = 10 / 2  # times the payoff of exploring so far: one site found, nothing in it
    assert listing.score == pytest.approx((listing.score - listing.signals["overspent"]) * (probe * 1.2 / 5 / 5) ** 2)
    (docs,) = strategy.score(page("http://docs/0", 0.0), [Link("http://docs/1", "", "")])
    assert docs.signals["overspent"] == 0  # a site of believed pages keeps its whole probe


def test_a_copy_met_before_its_original_gives_its_credit_back():
    """The seed's page links to docs as one of two links and to a mirror as one of many: the mirror's copy,
    read first, is disowned when the original turns up on the more trusted site; never the other way."""
    strategy = Learned(PROFILE, settings())
    strategy.score(
        page("http://a/", 0.0), [Link("http://docs/", "", "")] + [Link(f"http://a/{i}", "", "") for i in range(8)]
    )
    strategy.score(
        page("http://a/0", 0.0), [Link("http://mirror/", "", "")] + [Link(f"http://a/{i}", "", "") for i in range(30)]
    )
    strategy.score(page("http://mirror/sql", 0.9, "http://a/0"), [])
    strategy.score(page("http://mirror/other", 0.9, "http://a/0"), [])
    assert strategy.sites["mirror"].earned == 2
    assert strategy.original("http://docs/sql", "http://mirror/sql") is True
    assert strategy.original("http://mirror/x", "http://docs/x") is False
    assert strategy.disown("http://mirror/sql") and not strategy.disown("http://mirror/sql")  # once
    assert strategy.sites["mirror"].earned == 1 and strategy.sites["mirror"].believed == 1
    assert strategy.graph.relevance[strategy.graph.page("http://mirror/sql")] == 0
    short = replace(page("http://mirror/stub", 0.9, "http://a/0"), judged=False)
    strategy.score(short, [])  # too short for the content envelope: half the credit (UNJUDGED_CREDIT)
    assert strategy.sites["mirror"].earned == 1.5
    assert strategy.disown("http://mirror/stub")
    assert strategy.sites["mirror"].earned == 1  # what it earned goes back, not what a judged page would have


def test_a_page_spun_from_others_gives_back_a_share_of_its_credit_to_each_original_read_later():
    """A farm's page of sentences from pages not read yet, read at novelty 0.9: each original that turns up on a
    more trusted site takes back its share (new content 2 x novelty - 1), until nothing new of the page is left."""
    strategy = Learned(PROFILE, settings())
    strategy.score(
        page("http://a/", 0.0), [Link("http://farm/", "", "")] + [Link(f"http://a/{i}", "", "") for i in range(30)]
    )
    strategy.score(ParentPage("http://farm/spun", 1, 0.8 * 0.8, True, credibility=0.8, novelty=0.9), [])
    farm = strategy.sites["farm"]
    assert not strategy.disown("http://farm/spun", 0.1)  # a tenth of its text was the original's: 0.8 -> 0.6 new
    number = strategy.graph.page("http://farm/spun")
    assert strategy.credibility[number] == pytest.approx(0.6) and farm.believed == pytest.approx(0.6)
    assert strategy.graph.relevance[number] == pytest.approx(0.8 * 0.6) and farm.earned == pytest.approx(0.6)
    assert strategy.disown("http://farm/spun", 0.3)  # half of it or more another's: a copy, its verdict taken back
    assert strategy.credibility[number] == 0 and farm.earned == pytest.approx(0) and not strategy.graph.relevant[number]
    assert not strategy.disown("http://farm/spun", 0.1)  # once


def test_the_frontier_is_rescored_when_a_sites_allowance_left_halves():
    """Besides every page of the first batch (here: all of them), once more when a site's pages have used up
    half of what it has left: its queued links are not fetched at the scores its first pages gave them."""
    strategy = vouched(Learned(PROFILE, settings(FOCUSED_HOST_PROBE=4, FOCUSED_RESCORE_INTERVAL=1000)), "farm")
    steps = []
    for i in range(16):
        version = strategy.version
        strategy.score(page(f"http://farm/{i}", 0.0), [])
        steps.append(strategy.version - version)
    # the probe is 4 x 1/2 (the one site found beyond the seed's has held nothing): 2/4 left, then 2/8, 2/16
    assert [i + 1 for i, step in enumerate(steps) if step >= 2] == [3, 7, 15]  # the host's own halvings coincide


def test_a_directory_that_earns_nothing_fades_within_a_site_that_does():
    """A site's allowance holds for each host and directory of it too: a repository browser on the manual's own
    site, none of its pages relevant, stops drawing on what the manual's pages earned, while the manual does not."""
    strategy = vouched(Learned(PROFILE, settings(FOCUSED_HOST_PROBE=4)), "docs")
    for i in range(10):
        strategy.score(page(f"http://docs/manual/{i}", 0.9), [])
        strategy.score(page(f"http://docs/log/{i}", 0.0), [])
    links = [
        Link(f"http://docs/{directory}/sql-query", "SQL query plans", "") for directory in ("manual", "log", "new")
    ]
    manual, log, new = strategy.score(page("http://docs/manual/10", 0.9), links)
    assert manual.signals["overspent"] == 0 == new.signals["overspent"]
    # /log/: a probe of 4 read 10 times over, nothing earned: (4 / 11)^2 of its score left
    assert log.score == pytest.approx((log.score - log.signals["overspent"]) * (4 / 11) ** 2)


def test_broken_links_into_a_site_spend_neither_its_allowance_nor_its_belief():
    strategy = vouched(Learned(PROFILE, settings(FOCUSED_HOST_PROBE=4)), "docs")
    strategy.score(page("http://docs/", 0.0), [])
    for i in range(8):  # other sites' old links into a path the site no longer has
        strategy.dead_end(f"http://docs/old/{i}", {"parent_url": "http://a/"})
    docs = strategy.sites["docs"]
    assert docs.fetched == 9 and docs.read == 1 and docs.allowance(4, 5, 1.0, 1.0) == pytest.approx(4)
    links = [Link(f"http://docs/{directory}/sql-query", "SQL query plans", "") for directory in ("manual", "old")]
    live, dead = strategy.score(page("http://a/more", 0.9), links)
    assert live.signals["overspent"] == 0 == dead.signals["overspent"]  # one page read of a probe of 4
    assert dead.score < 0.3 * live.score  # the dead directory fades by alive(link), not the whole site
