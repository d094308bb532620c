"""Trust from the seeds on the host graph, as pure logic."""

from __future__ import annotations

import pytest

from focused.strategies.trust import UNREAD, SiteTrust


def crawl(trust: SiteTrust, pages: list[tuple[str, list[str]]]) -> SiteTrust:
    for host, link_hosts in pages:
        trust.observe(host, link_hosts)
    trust.update()
    return trust


def test_trust_passes_on_by_the_share_of_links_and_a_cycle_cannot_inflate_it():
    pages = (
        [("docs", ["docs", "docs"])] * 40 + [("docs", ["docs", "friend"])] * 20 + [("docs", ["docs"] * 9 + ["farm"])]
    )
    pages += [("friend", ["friend"])] * 10 + [("farm", ["farm", "farm2"]), ("farm2", ["farm", "farm2"])] * 30
    trust = crawl(SiteTrust({"docs"}, floor=0.05), pages).trust
    assert trust["docs"] == 1.0
    read = 61 + UNREAD  # the pages read, and a few more counted as linking nowhere: docs links to its own
    assert trust["friend"] == pytest.approx(0.85 * 20 * 0.5 / read)  # half the links of a third of the seed's pages
    # a tenth of one page's: sixty pages in a cycle add nothing
    assert trust["farm"] == pytest.approx(0.85 * 0.1 / read)
    assert trust["farm2"] == pytest.approx(trust["farm"] * 0.85 * 0.5 * 30 / (30 + UNREAD))


def test_a_region_spread_over_many_hosts_splits_what_little_enters_it():
    pages = [("docs", ["docs"] * 20)] * 99 + [("docs", ["docs"] * 19 + ["blog0.ring"])]
    pages += [(f"blog{i}.ring", [f"blog{i}.ring", f"blog{i + 1}.ring", f"blog{i + 2}.ring"]) for i in range(50)]
    trust = crawl(SiteTrust({"docs"}, floor=0.05), pages)
    ring = max(trust.trust[f"blog{i}.ring"] for i in range(50))
    assert ring == pytest.approx(0.85 / 20 / (100 + UNREAD))  # its one link
    assert trust.factor("blog0.ring") < 0.01 and trust.factor("blog30.ring") < 1e-6 and trust.factor("docs") == 1.0
    assert trust.factor("never-linked") == 0.0


def test_what_pages_earned_counts_past_low_trust_only_where_a_fully_trusted_site_vouched():
    """The local web's archive: one page in six of a travel site (itself linked from the seed) links it. A blog
    network: one page of the seed's site links its entry blog, which links the others. The archive's and the entry
    blog's earnings count by the square root of their factor; the inner blogs', vouched for by a site short of
    the floor, by the factor itself."""
    pages = [("portal", ["portal"] * 9 + ["travel"])] + [("travel", ["travel"] * 4 + ["archive"])] * 2
    pages += [("travel", ["travel"] * 5)] * 10
    pages += [("portal", ["portal"] * 49 + ["entry"])] + [("entry", ["inner", "entry"])] * 5
    trust = crawl(SiteTrust({"portal"}, floor=0.01), pages)
    assert trust.factor("travel") == 1.0 and 0 < trust.factor("archive") < 1
    assert trust.earned_factor("archive") == pytest.approx(trust.factor("archive") ** 0.5)
    assert trust.earned_factor("entry") == pytest.approx(trust.factor("entry") ** 0.5)
    assert 0 < trust.factor("inner") < trust.factor("entry") < 1
    assert trust.earned_factor("inner") == trust.factor("inner")
    assert trust.earned_factor("portal") == 1.0 and trust.earned_factor("never-linked") == 0.0


def test_what_the_first_page_of_a_site_links_to_is_trusted_as_a_guess():
    """An index page links to everything, its footer's sponsors too: one page read is not yet the site's word. A
    portal, whose page links only to other sites, is all there is of it."""
    trust = crawl(SiteTrust({"docs", "portal"}, floor=0.01), [("docs", ["docs"] * 19 + ["sponsor"])])
    assert trust.of("sponsor") == pytest.approx(0.85 / 20 / (1 + UNREAD)) and trust.factor("sponsor") < 1
    trust = crawl(trust, [("docs", ["docs"] * 19 + ["sponsor"])] * 20)  # every page links it: the site's word
    assert trust.factor("sponsor") == 1.0
    trust = crawl(trust, [("portal", [f"site{i}" for i in range(20)])])
    assert trust.of("site0") == pytest.approx(0.85 / 20)


def test_nothing_is_distrusted_before_the_first_update():
    trust = SiteTrust({"docs"}, floor=0.05)
    trust.observe("docs", ["farm"])
    assert trust.factor("farm") == 1.0


def test_between_sites_trusted_alike_the_original_is_the_one_more_trusted_sites_link_to():
    """A mirror linked beside its original from the seed's page: the same trust; the original is linked from
    other sites too, the mirror (and a farm's many low-trust hosts) is not; a seed is never the copy."""
    pages = [("portal", ["portal", "sqlzone", "mirror", "news", "dbtalk"])] * 2
    pages += [("news", ["news", "sqlzone"]), ("dbtalk", ["dbtalk", "sqlzone"]), ("sqlzone", ["sqlzone", "mirror"])]
    pages += [("farm", ["farm"] * 99 + ["farm0"])] + [(f"farm{i}", [f"farm{i}", "mirror"]) for i in range(3)]
    trust = crawl(SiteTrust({"portal"}, floor=0.05), [("portal", ["portal"] * 100 + ["farm"])] + pages)
    assert trust.of("sqlzone") == trust.of("mirror")
    assert trust.outranks("sqlzone", "mirror") and not trust.outranks("mirror", "sqlzone")
    assert not trust.outranks("news", "dbtalk") and not trust.outranks("dbtalk", "news")  # nothing tells them apart
    assert trust.outranks("portal", "news") and not trust.outranks("sqlzone", "portal")


def test_a_site_first_linked_between_updates_has_what_its_endorser_passes_on():
    """Trust is recomputed a batch at a time; a site first linked in between is trusted at once as the next update
    would trust it (its one endorser's share), not left at nothing: links into it would wait out the batch below
    every link of a farm the crawl had faded (the local web's archive, read 55 pages after its first link)."""
    pages = [("portal", ["portal"] * 9 + ["travel"])] + [("travel", ["travel"] * 4 + ["archive"])] * 2
    between = crawl(SiteTrust({"portal"}, floor=0.01), pages)
    between.observe("archive", ["archive"] * 3 + ["found"])
    after = crawl(SiteTrust({"portal"}, floor=0.01), [*pages, ("archive", ["archive"] * 3 + ["found"])])
    assert 0 < between.factor("found") == pytest.approx(after.factor("found"))
    assert between.earned_factor("found") == pytest.approx(after.earned_factor("found"))
    untrusted = crawl(SiteTrust({"portal"}, floor=0.01), pages)
    untrusted.observe("elsewhere", ["nowhere"])  # a site no chain from a seed has reached passes on nothing
    assert untrusted.factor("nowhere") == 0.0
