"""The chance that a link gives a page, learned per directory from the fetches under it."""

from __future__ import annotations

import pytest

from focused.strategies.deadends import PRIOR, PathOutcomes, directories


def test_a_url_belongs_to_its_host_and_every_directory_of_its_path():
    assert directories("http://Docs.example/docs/fr/mod/echo.html?x=1") == (
        "docs.example",
        "docs.example/docs/",
        "docs.example/docs/fr/",
        "docs.example/docs/fr/mod/",
    )
    assert directories("http://h/") == ("h",)


def test_a_host_never_fetched_is_assumed_to_answer():
    assert PathOutcomes().alive("http://new.example/a/b.html") == 1.0


def test_a_directory_of_404s_dies_and_its_live_siblings_do_not():
    paths = PathOutcomes()
    for i in range(10):
        paths.observe(f"http://h/docs/2.4/page{i}.html", page=True)
    for i in range(6):
        paths.observe(f"http://h/docs/fr/page{i}.html", page=False)
    host = (10 + PRIOR * 1.0) / (16 + PRIOR)
    docs = (10 + PRIOR * host) / (16 + PRIOR)
    fr = (0 + PRIOR * docs) / (6 + PRIOR)
    assert paths.alive("http://h/docs/fr/other.html") == pytest.approx(fr)  # hand-computed: about 0.15
    assert paths.alive("http://h/docs/fr/other.html") < 0.2
    assert paths.alive("http://h/docs/2.4/other.html") > 0.9
    # a directory not fetched yet is as alive as its siblings have been, one vote each, shrunk toward what docs/ was
    assert paths.alive("http://h/docs/ja/other.html") == pytest.approx((1.0 + 0.0 + PRIOR * host) / (2 + PRIOR))


def test_a_dead_region_does_not_condemn_the_rest_of_its_host():
    """Old links into a path a site no longer has: their 404s are one region's word, not one each."""
    paths = PathOutcomes()
    for i in range(16):
        paths.observe(f"http://h/pandas-docs/stable/page{i}.html", page=False)
    assert paths.alive("http://h/pandas-docs/stable/other.html") < 0.15
    assert paths.alive("http://h/docs/user_guide/new.html") == pytest.approx(PRIOR / (1 + PRIOR))
    for i in range(3):
        paths.observe(f"http://h/old{i}/page.html", page=False)
    assert paths.alive("http://h/docs/user_guide/new.html") == pytest.approx(PRIOR / (4 + PRIOR))


def test_one_broken_link_does_not_condemn_a_directory():
    paths = PathOutcomes()
    for i in range(20):
        paths.observe(f"http://h/guide/{i}.html", page=i != 7)
    assert paths.alive("http://h/guide/new.html") > 0.9
