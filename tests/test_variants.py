"""Query parameters that only vary a page (focused.strategies.variants), alone and in the learned strategy."""

from __future__ import annotations

import pytest

from focused.pages.extract import Link
from focused.strategies.learned import FACTORS, Learned
from focused.strategies.variants import QueryOutcomes, SiblingOutcomes, branches, parameters
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


def test_a_queued_option_is_handed_out_at_its_current_fade_not_the_one_it_was_queued_at():
    strategy = vouched(Learned(PROFILE, settings()), "docs")
    option = Link("http://docs/sql.html?font=12", "Larger text", "")
    queued = strategy.score(page("http://docs/sql.html", 0.9), [option])[0]
    record = {"url": option.url, "signals": dict(queued.signals)}
    assert strategy.current(record).score == pytest.approx(queued.score, rel=1e-6)
    for i in range(6):  # the page's other sizes, read since: each the same page
        strategy.score(page(f"http://docs/sql.html?font={i}", 0.0, duplicate=True), [])
    now = strategy.current(record)
    evidence = queued.score - sum(queued.signals[factor] for factor in FACTORS)
    assert now.score < 0.3 * queued.score  # the same evidence, faded as far as the copies read since say
    assert sum(now.signals.values()) == pytest.approx(now.score)
    assert now.score - sum(now.signals[factor] for factor in FACTORS) == pytest.approx(evidence)
    seed = {"url": "http://docs/", "signals": {"seed": 1.0}}
    assert strategy.current(seed) is None  # a seed is the user's: not faded


def test_a_path_read_again_under_a_sibling_directory_fades_there_and_nowhere_else():
    assert branches("http://H/docs/15/ssl.html") == (("h/", "docs", "15/ssl.html"), ("h/docs/", "15", "ssl.html"))
    assert branches("http://h/docs/15/ssl.html?rev=2") == ()
    outcomes = SiblingOutcomes()
    outcomes.observe("http://h/docs/15/ssl.html", new=True)
    assert outcomes.novel("http://h/docs/16/ssl.html") == 1.0  # nothing known of repeats here yet
    told = [outcomes.observe(f"http://h/docs/{release}/ssl.html", new=False) for release in (16, 14, 13, 12)]
    assert told[0] and not all(told)
    assert outcomes.novel("http://h/docs/11/ssl.html") < 0.15  # another release of a page read
    assert outcomes.novel("http://h/docs/11/tls.html") == 1.0  # a page of it not read under any release yet
    assert outcomes.novel("http://other/docs/11/ssl.html") == 1.0  # another host's copies are its own to show
    for section in ("howto", "faq", "tutorial"):  # every section's index: repeats of a name that gave new pages
        outcomes.observe("http://h/library/index.html", new=True)
        outcomes.observe(f"http://h/{section}/index.html", new=True)
    assert outcomes.novel("http://h/reference/index.html") > 0.5


def test_the_learned_strategy_fades_links_to_other_releases_of_pages_it_read():
    strategy = vouched(Learned(PROFILE, settings()), "docs")
    for i in range(6):  # each page read under its release, then again under another's
        strategy.score(page(f"http://docs/15/p{i}.html", 0.9), [])
        strategy.score(page(f"http://docs/16/p{i}.html", 0.0, duplicate=True), [])
    links = [Link(f"http://docs/{path}.html", "SQL", "") for path in ("15/join", "14/join", "14/p0")]
    kept, unread, repeat = strategy.score(page("http://docs/15/sql.html", 0.9), links)
    assert kept.signals["variant"] == 0 and unread.signals["variant"] == 0
    assert repeat.signals["variant"] < -0.7 * (repeat.score - repeat.signals["variant"])


def test_a_path_below_a_page_read_fades_once_such_paths_gave_the_page_again():
    outcomes = SiblingOutcomes()
    outcomes.observe("http://h/mod/ssl.html", new=True)
    outcomes.observe("http://h/mod/", new=True)
    assert outcomes.novel("http://h/mod/ssl.html/print") == 1.0  # nothing known of such paths here yet
    assert outcomes.novel("http://h/mod/core.html") == 1.0  # a page beside it, and below a directory's index
    for name in ("core", "log", "proxy", "cache"):  # each page's print view, answered with the page (path info)
        outcomes.observe(f"http://h/mod/{name}.html", new=True)
        outcomes.observe(f"http://h/mod/{name}.html/print", new=False)
    assert outcomes.novel("http://h/mod/ssl.html/core.html") < 0.15  # its links, read below it
    assert outcomes.novel("http://h/mod/ssl.html/print") < 0.15
    assert outcomes.novel("http://h/mod/rewrite.html/print") < 0.2  # below a page not read: a sibling repeat
    assert outcomes.novel("http://h/news/rewrite.html/x.html") == 1.0  # below a page not read
    assert outcomes.novel("http://other/mod/ssl.html/print") == 1.0
    for name in ("Main", "Help", "Talk"):  # a wiki's subpages: below pages read, and new
        outcomes.observe(f"http://w/wiki/{name}", new=True)
        outcomes.observe(f"http://w/wiki/{name}/Archive", new=True)
    assert outcomes.novel("http://w/wiki/Main/Drafts") > 0.8
