"""Cho, Garcia-Molina & Page's orderings and the importance measures behind them."""

from __future__ import annotations

import numpy as np
import pytest

from focused.pages.extract import Link
from focused.strategies import ParentPage
from focused.strategies.cho import Backlink, HotQueue, PageRank
from focused.strategies.importance import LinkGraph
from tests.test_strategies import PROFILE, SETTINGS

INTERVAL = SETTINGS.getint("FOCUSED_RESCORE_INTERVAL")


def links(*urls: str, anchor: str = "more") -> list[Link]:
    return [Link(url, anchor, "") for url in urls]


def test_backlinks_count_distinct_linking_pages():
    graph = LinkGraph()
    graph.add_links("a", ["b", "b", "c", "a"])  # a repeated link and a self-link count once / not at all
    graph.add_links("c", ["b"])
    assert (graph.backlinks("b"), graph.backlinks("c"), graph.backlinks("a"), graph.backlinks("zz")) == (2, 1, 0, 0)


def test_pagerank_matches_the_closed_form_of_a_small_graph():
    # a -> b, b -> a, c -> a; c has no in-links: rank(c) = (1-d)/3, rank(a) = (1-d)/3 + d (rank(b) + rank(c)),
    # rank(b) = (1-d)/3 + d rank(a); solved by hand for d = 0.85.
    graph = LinkGraph()
    graph.add_links("a", ["b"])
    graph.add_links("b", ["a"])
    graph.add_links("c", ["a"])
    rank = graph.pagerank()
    d, base = 0.85, 0.15 / 3
    c = base
    a = (base + d * base + d * c) / (1 - d * d)  # a = base + d (b + c), b = base + d a
    b = base + d * a
    assert rank[graph.nodes["a"]] == pytest.approx(a, abs=1e-6)
    assert rank[graph.nodes["b"]] == pytest.approx(b, abs=1e-6)
    assert rank[graph.nodes["c"]] == pytest.approx(c, abs=1e-6)
    assert rank.sum() == pytest.approx(1.0)


def test_pagerank_spreads_dangling_rank_evenly():
    graph = LinkGraph()
    graph.add_links("a", ["b"])  # b links nowhere
    rank = graph.pagerank()
    assert rank.sum() == pytest.approx(1.0) and rank[graph.nodes["b"]] > rank[graph.nodes["a"]]


def test_backlink_strategy_prefers_urls_more_pages_link_to_and_asks_for_rescoring():
    strategy = Backlink(PROFILE, SETTINGS)
    for i in range(INTERVAL):
        strategy.score(ParentPage(f"http://a/{i}", 1, 0.0, False), links("http://a/popular", f"http://a/only{i}"))
    popular, once = strategy.rescore([{"url": "http://a/popular"}, {"url": "http://a/only0"}])
    assert (popular.score, once.score) == (INTERVAL, 1)
    assert strategy.version == 1


def test_pagerank_strategy_ranks_after_each_batch():
    strategy = PageRank(PROFILE, SETTINGS)
    first = strategy.score(ParentPage("http://a/0", 0, 0.0, False), links("http://a/hub"))
    assert first[0].score == 0  # nothing ranked before the first batch
    for i in range(1, INTERVAL):
        strategy.score(ParentPage(f"http://a/{i}", 1, 0.0, False), links("http://a/hub", f"http://a/leaf{i}"))
    hub, leaf = strategy.rescore([{"url": "http://a/hub"}, {"url": "http://a/leaf1"}])
    assert hub.score > leaf.score > 0 and strategy.version == 1


def test_hot_queue_takes_keyword_links_and_links_near_relevant_pages_first():
    strategy = HotQueue(PROFILE, SETTINGS)
    plain = ParentPage("http://a/x", 1, 0.0, False)
    keyword, url_keyword, other = strategy.score(
        plain,
        [
            Link("http://a/1", "SQL tuning", ""),
            Link("http://a/transaction/2", "more", ""),
            Link("http://a/3", "more", ""),
        ],
    )
    assert keyword.signals["hot"] == url_keyword.signals["hot"] == 1 and other.signals["hot"] == 0
    relevant = ParentPage("http://a/r", 1, 0.9, True)
    child = strategy.score(relevant, links("http://a/c"))[0]
    one_off = ParentPage("http://a/c", 2, 0.0, False, info={"parent_url": "http://a/r"})
    grandchild = strategy.score(one_off, links("http://a/g"))[0]
    two_off = ParentPage("http://a/g", 3, 0.0, False, info={"parent_url": "http://a/c"})
    far = strategy.score(two_off, links("http://a/f"))[0]
    assert (child.signals["hot"], grandchild.signals["hot"], far.signals["hot"]) == (1, 1, 0)
    assert all(0 <= s.signals["backlinks"] < 1 for s in (child, grandchild, far))
    assert np.isclose(sum(far.signals.values()), far.score)
