"""Query parameters that only vary a page (focused.strategies.variants), alone and in the learned strategy."""

from __future__ import annotations

import pytest

from focused.pages.extract import Link
from focused.strategies.learned import Learned
from focused.strategies.variants import QueryOutcomes, parameters
from tests.test_learning import PROFILE, page, settings, vouched


def test_a_parameter_that_gave_near_duplicates_fades_its_links_on_its_host_only():
    outcomes = QueryOutcomes()
    for i in range(8):
        outcomes.observe(f"http://docs/p{i}.html?theme=dark", new=False)
        outcomes.observe(f"http://docs/search.html?q=word{i}", new=True)
    assert outcomes.novel("http://docs/new.html?theme=light") == pytest.approx(2 / 10)
    assert outcomes.novel("http://docs/new.html?theme=light&q=x") == pytest.approx(2 / 10)  # q gave new pages
    assert outcomes.novel("http://docs/search.html?q=other") == 1.0  # a parameter that selects content
    assert outcomes.novel("http://other/p.html?theme=dark") == 1.0  # another host's parameters are its own
    assert outcomes.novel("http://docs/new.html") == 1.0 and parameters("http://docs/new.html") == frozenset()


def test_the_learned_strategy_stops_following_options_whose_pages_were_copies():
    strategy = vouched(Learned(PROFILE, settings()), "docs")
    options = [Link("http://docs/sql.html?rev=41", "Previous revision", ""), Link("http://docs/join.html", "", "")]
    fresh = strategy.score(page("http://docs/sql.html", 0.9), options)
    for i in range(6):  # each earlier revision was the same page
        strategy.score(page(f"http://docs/sql.html?rev={40 - i}", 0.0, duplicate=True), [])
    faded = strategy.score(page("http://docs/select.html", 0.9), [Link("http://docs/select.html?rev=9", "", "")])[0]
    assert fresh[0].signals["variant"] == 0 and fresh[1].signals["variant"] == 0
    assert faded.signals["variant"] < -0.7 * (faded.score - faded.signals["variant"])
