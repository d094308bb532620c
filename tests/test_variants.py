"""Query parameters that only vary a page (focused.strategies.variants), alone and in the learned strategy."""

from __future__ import annotations

import pytest

from focused.pages.extract import Link
from focused.strategies.learned import Learned
from focused.strategies.variants import QueryOutcomes, parameters
from tests.test_learning import PROFILE, page, settings, vouched


def test_a_parameter_that_gave_near_duplicates_fades_its_links_most_on_its_own_host():
    outcomes = QueryOutcomes()
    for i in range(8):
        outcomes.observe(f"http://docs/p{i}.html?theme=dark", new=False)
        outcomes.observe(f"http://docs/search.html?q=word{i}", new=True)
    every_host = 2 / 10  # the name's share over every host, smoothed toward "new"
    assert outcomes.novel("http://docs/new.html?theme=light") == pytest.approx(2 * every_host / 10)
    assert outcomes.novel("http://docs/new.html?theme=light&q=x") == pytest.approx(2 * every_host / 10)
    assert outcomes.novel("http://docs/search.html?q=other") == 1.0  # a parameter that selects content
    assert outcomes.novel("http://other/p.html?theme=dark") == pytest.approx(every_host)  # a name's word elsewhere
    for i in range(8):  # until the other host's own pages tell otherwise
        outcomes.observe(f"http://other/p{i}.html?theme=dark", new=True)
    assert outcomes.novel("http://other/p.html?theme=dark") > 0.8
    assert outcomes.novel("http://docs/new.html") == 1.0 and parameters("http://docs/new.html") == frozenset()


def test_a_parameter_that_halves_its_links_chance_asks_for_a_re_score_once_per_halving():
    outcomes = QueryOutcomes()
    told = [outcomes.observe(f"http://docs/p{i}.html?rev={i}", new=False) for i in range(12)]
    assert told[0] and sum(told) < len(told) / 2 and outcomes.novel("http://docs/x.html?rev=1") < 0.05
    assert not outcomes.observe("http://docs/p.html", new=False)  # no query: nothing to fade


def test_the_learned_strategy_stops_following_options_whose_pages_were_copies():
    strategy = vouched(Learned(PROFILE, settings()), "docs")
    options = [Link("http://docs/sql.html?rev=41", "Previous revision", ""), Link("http://docs/join.html", "", "")]
    fresh = strategy.score(page("http://docs/sql.html", 0.9), options)
    for i in range(6):  # each earlier revision was the same page
        strategy.score(page(f"http://docs/sql.html?rev={40 - i}", 0.0, duplicate=True), [])
    faded = strategy.score(page("http://docs/select.html", 0.9), [Link("http://docs/select.html?rev=9", "", "")])[0]
    assert fresh[0].signals["variant"] == 0 and fresh[1].signals["variant"] == 0
    assert faded.signals["variant"] < -0.7 * (faded.score - faded.signals["variant"])
