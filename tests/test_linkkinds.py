"""Which kinds of link bear out the relevance of the page they are on (focused.strategies.linkkinds), alone and in
the strategy."""

from __future__ import annotations

import pytest

from focused.pages.extract import Link
from focused.strategies.base import ParentPage
from focused.strategies.learned import Learned
from focused.strategies.linkkinds import KindOutcomes, kinds
from tests.test_learning import PROFILE, settings, vouched


def test_a_kind_of_link_is_its_anchor_words_over_every_host_and_on_its_pages_host():
    assert kinds("http://Docs.example/a/b.html", "  Printable\n version ") == (
        "printable version",
        "docs.example printable version",
    )
    assert kinds("http://docs.example/c.html", "printable version") == kinds(
        "http://docs.example/a/b", "Printable Version"
    )
    assert kinds("http://other.example/", "Show source")[0] == kinds("http://docs.example/", "Show source")[0]
    assert kinds("http://other.example/", "Show source")[1] != kinds("http://docs.example/", "Show source")[1]
    assert kinds(None, "Home") == ("home", " home")


def test_a_kind_whose_pages_gave_nothing_new_fades_and_one_whose_pages_bore_their_parents_out_does_not():
    outcomes = KindOutcomes()
    assert outcomes.share("http://docs/x.html", "Printable version") == 1.0  # nothing known yet
    told = [outcomes.observe(f"http://docs/p{i}.html", "Printable version", handed=0.9, gave=0.0) for i in range(8)]
    for i in range(8):
        outcomes.observe(f"http://docs/p{i}.html", "Next", handed=0.9, gave=0.8)
        outcomes.observe(f"http://docs/p{i}.html", f"Section {i}", handed=0.9, gave=0.6)
    assert outcomes.share("http://docs/new.html", "printable version") < 0.1
    assert outcomes.share("http://docs/new.html", "Next") == 1.0  # better than links in general: not faded
    assert outcomes.share("http://docs/new.html", "Backups") == 1.0  # never seen: the crawl's own ratio
    elsewhere = outcomes.share("http://elsewhere/new.html", "Printable version")
    assert 0.1 < elsewhere < 0.5  # another host's own, but a template seen on one site is suspect on the next
    assert told[0] is True and not all(told)  # a re-score once per halving
    assert sum(told) <= 4


def test_a_kind_is_owed_no_more_than_its_pages_handed_down():
    outcomes = KindOutcomes()
    outcomes.observe("http://docs/p.html", "Index", handed=0.1, gave=0.9)
    outcomes.observe("http://docs/q.html", "Intro", handed=0.9, gave=0.0)
    assert outcomes.delivered["index"] == pytest.approx(0.1)
    assert outcomes.total == pytest.approx([1.0, 0.1])


def read(url: str, parent_url: str, anchor: str, relevance: float) -> ParentPage:
    info = {"parent_url": parent_url, "anchor": anchor, "context": "", "parent_relevance": 0.9}
    return ParentPage(url, 1, relevance, relevance >= 0.5, duplicate=relevance == 0, info=info)


def test_the_learned_strategy_fades_a_relevant_pages_source_link_once_such_links_gave_copies():
    strategy = vouched(Learned(PROFILE, settings()), "docs")
    links = [Link("http://docs/src/q.rst", "Show source", ""), Link("http://docs/r.html", "Next", "")]
    source, _ = strategy.score(ParentPage("http://docs/q.html", 1, 0.9, True), links)
    assert source.signals["kind"] == 0
    for i in range(6):  # each page's source was the page again, each page's next a new relevant one
        strategy.score(read(f"http://docs/src/p{i}.rst", f"http://docs/p{i}.html", "Show source", 0), [])
        strategy.score(read(f"http://docs/p{i + 1}.html", f"http://docs/p{i}.html", "Next", 0.9), [])
    faded, following = strategy.score(ParentPage("http://docs/s.html", 1, 0.9, True), links)
    assert following.signals["kind"] == 0
    assert faded.signals["kind"] < -0.8 * (faded.score - faded.signals["kind"])
    now = strategy.current(
        {
            "url": links[0].url,
            "parent_url": "http://docs/q.html",
            "anchor": "Show source",
            "signals": dict(source.signals),
        }
    )
    assert now.score < 0.2 * source.score  # queued before, it is handed out at its kind's fade as it is now
