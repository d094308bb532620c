"""Mirrors: a host serving another's pages under the same paths, found from pairs of copied pages read."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from focused.frontier.mirrors import CONFIRMATIONS, Mirrors, rule
from testbed.harness import log_stat
from tests.conftest import REPO

ORIGINAL = "http://httpd.apache.org/docs/2.4/"
MIRRORED = ("mirror.example", "sqlzone.example")
COPY = "http://docs-archive.example/httpd.apache.org/docs/2.4/"


def test_a_pair_of_copies_gives_the_rule_of_their_paths():
    assert rule(COPY + "logs.html", ORIGINAL + "logs.html") == (
        "docs-archive.example",
        "/httpd.apache.org/",
        "http",
        "httpd.apache.org",
        "/",
    )
    assert rule("http://mirror.example/about.html", "https://www.sqlite.org/about.html") == (
        "mirror.example",
        "/",
        "https",
        "www.sqlite.org",
        "/",
    )
    assert rule("http://a.example/x/", "http://b.example/y/") is None  # nothing but the slash in common
    assert rule("http://a.example/p.html", "http://a.example/q/p.html") is None  # one host: not a mirror
    assert rule("http://a.example/p?page=1", "http://b.example/p?page=2") is None


def test_links_into_a_confirmed_mirror_lead_to_the_original():
    mirrors = Mirrors()
    pages = ["logs.html", "mod/core.html", "install.html", "misc/security_tips.html"]
    confirmed = [mirrors.observe(COPY + page, ORIGINAL + page) for page in pages]
    assert confirmed == [None] * (CONFIRMATIONS - 1) + [rule(COPY + "logs.html", ORIGINAL + "logs.html"), None]
    assert mirrors.original_of(COPY + "mod/mod_rewrite.html?x=1") == ORIGINAL + "mod/mod_rewrite.html?x=1"
    assert mirrors.original_of("http://docs-archive.example/docs.python.org/3/") == (
        "http://docs-archive.example/docs.python.org/3/"  # another site's copies: a rule of their own
    )
    assert mirrors.original_of(ORIGINAL + "logs.html") == ORIGINAL + "logs.html"


def test_if_trust_changes_sides_the_first_direction_confirmed_stands():
    mirrors = Mirrors()
    for n in range(CONFIRMATIONS):
        mirrors.observe(f"http://a.example/{n}.html", f"http://b.example/{n}.html")
        mirrors.observe(f"http://b.example/{n}.html", f"http://a.example/{n}.html")
    assert mirrors.original_of("http://a.example/9.html") == "http://b.example/9.html"
    assert mirrors.original_of("http://b.example/9.html") == "http://b.example/9.html"


def test_a_coincidence_does_not_make_a_mirror():
    mirrors = Mirrors()
    for n in range(CONFIRMATIONS + 2):  # copies whose paths agree only on the file name: a new rule each time
        mirrors.observe(f"http://copies.example/{n}/index.html", f"http://site{n}.example/docs/index.html")
    assert not mirrors.confirmed


def test_a_crawl_finds_a_mirror_from_the_pages_it_reads_and_follows_one_side(web, run_crawl, tmp_path: Path):
    """mirror.example serves sqlzone.example's pages under the same paths; the mirror is a seed, the original a link of one: trusted less."""
    profile = tmp_path / "mirrored.toml"
    text = (REPO / "profiles" / "sql.toml").read_text().replace('"training_data/', f'"{REPO}/training_data/')
    seeds = 'seeds = ["http://mirror.example/", "http://www.portal.example/"]'
    profile.write_text(re.sub(r"seeds = \[[^\]]*\]", seeds, text))
    run = run_crawl(web.proxy, profile=profile, strategy="focused", settings={"CLOSESPIDER_PAGECOUNT": 400})
    assert run.returncode == 0, run.log[-2000:]
    found = re.findall(r"Mirror: (\S+) copies (\S+);", run.log)
    assert len(found) == 1 and {urlsplit(f"http://{found[0][0]}").hostname, urlsplit(found[0][1]).hostname} == set(
        MIRRORED
    )  # one direction: links into the other host stay
    assert log_stat(run.log, "focused/mirrors") == 1 and log_stat(run.log, "focused/mirrored_links") > 0
