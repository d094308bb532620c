"""A crawl does not reach into private networks unless told to: names and IP literals alike,
through a proxy or not."""

from __future__ import annotations

from pathlib import Path

import pytest

from focused.fetching.addresses import AddressPolicy
from focused.frontier.urls import canonical_url, host_of
from testbed.localweb.hostile import (
    GOOD_PAGES,
    HOSTILE,
    HOSTS,
    LOOPBACK_LITERALS,
    PRIVATE_LINKS_PAGE,
    PRIVATE_LITERALS,
    PRIVATE_NAMES,
    UNREADABLE_ROBOTS,
)


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "0.0.0.0", "::1", "fe80::1", "fd00::5"],
)
def test_private_loopback_and_link_local_addresses_are_refused(address: str):
    assert AddressPolicy().refuses(address)


def test_public_addresses_pass_and_an_allowlist_opens_a_network():
    policy = AddressPolicy(["127.0.0.0/8"])
    assert not AddressPolicy().refuses("93.184.216.34") and not AddressPolicy().refuses("2606:4700::1111")
    assert not policy.refuses("127.0.0.1") and policy.refuses("10.0.0.1")
    assert policy.refusal("[::1]") == "private_address" and policy.refusal("localhost") is None


@pytest.mark.parametrize(
    "host",
    [
        "2130706433",
        "0x7f.1",
        "0x7F000001",
        "0177.0.0.1",
        "127.1",
        "::ffff:127.0.0.1",
        "[::ffff:7f00:1]",
        "0xa9fea9fe",
        "3232235521",
        "10.1",
        "012.0.0.1",
        "0xcafe",
        "64:ff9b::c0a8:1",
        "::a00:1",
        "2002:a00:1::",
        "127.0.0.1.",
    ],
)
def test_every_spelling_of_a_private_address_is_judged_as_the_address_it_means(host: str):
    assert AddressPolicy().refusal(host) == "private_address"
    opened = AddressPolicy(["127.0.0.0/8"]).refusal(host)
    assert (opened is None) == (
        host
        not in ("0xa9fea9fe", "3232235521", "10.1", "012.0.0.1", "0xcafe", "64:ff9b::c0a8:1", "::a00:1", "2002:a00:1::")
    )


@pytest.mark.parametrize(
    "host",
    [
        "localhost",
        "LocalHost.",
        "api.localhost",
        "printer.local",
        "db.internal",
        "router.home.arpa",
        "nas.lan",
        "intranet",
        "beef",
    ],
)
def test_names_that_can_only_mean_a_local_network_are_refused_unless_opened(host: str):
    assert AddressPolicy().refusal(host) == "private_name"
    assert AddressPolicy(allowed_names=[host.lower().rstrip("."), "*.corp.internal"]).refusal(host) is None
    assert (AddressPolicy(["127.0.0.0/8"]).refusal(host) is None) == ("localhost" in host.lower())


@pytest.mark.parametrize(
    "host",
    [
        "example.com",
        "docs.python.org",
        "cafe.example",
        "123.example",
        "93.184.216.34",
        "2606:4700::1111",
        "local.example.com",
        "internal.example",
    ],
)
def test_public_names_and_addresses_pass(host: str):
    assert AddressPolicy().refusal(host) is None


def test_allowed_names_are_trusted_by_the_resolver_and_the_proxy_only_there():
    policy = AddressPolicy(trusted_names=["proxy.corp.internal"], allowed_names=["*.corp.internal"])
    assert policy.trusts("wiki.corp.internal") and policy.trusts("proxy.corp.internal")
    assert AddressPolicy(trusted_names=["localhost"]).refusal("localhost") == "private_name"  # the proxy's own name


def test_a_bad_allowlist_names_the_setting():
    with pytest.raises(ValueError, match="FOCUSED_ALLOWED_NETWORKS"):
        AddressPolicy(["10.0.0.0/33"])


def seeded_profile(tmp_path: Path, seed: str) -> Path:
    profile = tmp_path / "direct.toml"
    profile.write_text(f'name = "sql"\ndescription = "Relational databases"\nkeywords = ["sql"]\nseeds = ["{seed}"]\n')
    return profile


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_a_crawl_refuses_loopback_by_default_and_fetches_it_when_allowed(web, run_crawl, tmp_path: Path, host: str):
    profile = seeded_profile(tmp_path, f"http://{host}:{web.port}/")
    refused = run_crawl(None, profile=profile, settings={"CLOSESPIDER_PAGECOUNT": 5}, name="refused")
    assert refused.returncode == 0 and refused.items == [] and web.entries() == []  # not even robots.txt
    assert refused.stat("focused/refused/private_address") + refused.stat("focused/refused/private_name") >= 1
    assert "Refusing " in refused.log

    allowed = run_crawl(
        None,
        profile=profile,
        settings={"CLOSESPIDER_PAGECOUNT": 5, "FOCUSED_ALLOWED_NETWORKS": "127.0.0.0/8"},
        name="allowed",
    )
    assert allowed.urls[0] == f"http://{host}:{web.port}/"
    assert allowed.stat("focused/refused/private_address") + allowed.stat("focused/refused/private_name") == 0


def private_links_profile(tmp_path: Path, seed: str) -> Path:
    profile = tmp_path / "inward.toml"
    profile.write_text(f'name = "inward"\ndescription = "SQL databases"\nkeywords = ["sql"]\nseeds = ["{seed}"]\n')
    return profile


def refusals(crawl) -> dict[str, float]:
    return {reason: crawl.stat(f"focused/refused/{reason}") for reason in ("private_name", "private_address")}


def distinct(urls: list[str]) -> int:
    """Links the crawl can tell apart: w3lib 2.6 spells a numeric host as its dotted quad (127.1 is 127.0.0.1),
    so two spellings of one address are one URL, refused once."""
    return len({canonical_url(url) for url in urls})


def test_through_a_proxy_no_private_name_or_address_reaches_it(hostile_web, run_crawl, tmp_path: Path):
    profile = private_links_profile(tmp_path, f"http://{HOSTILE}{PRIVATE_LINKS_PAGE}")
    result = run_crawl(hostile_web.proxy, profile=profile, strategy="bfs", settings={"CLOSESPIDER_PAGECOUNT": 20})
    assert result.returncode == 0 and "Spider closed (finished)" in result.log
    asked = {entry["host"] for entry in hostile_web.entries()}
    assert asked == {HOSTILE}, asked  # the proxy was asked for nothing else, not even a robots.txt
    assert {f"http://{HOSTILE}/good/{i}.html" for i in range(GOOD_PAGES)} <= set(result.urls)  # the crawl went on
    literals = distinct(LOOPBACK_LITERALS + PRIVATE_LITERALS)
    assert refusals(result) == {"private_name": len(PRIVATE_NAMES), "private_address": literals}
    assert result.log.count("Refusing host localhost ") == 1  # once per host, though three URLs
    assert result.stat("focused/failed/private_name") == len(PRIVATE_NAMES)


def test_allowed_networks_open_a_private_spelling_on_purpose_and_only_that(hostile_web, run_crawl, tmp_path: Path):
    profile = private_links_profile(tmp_path, f"http://{HOSTILE}{PRIVATE_LINKS_PAGE}")
    settings = {"CLOSESPIDER_PAGECOUNT": 40, "FOCUSED_ALLOWED_NETWORKS": "127.0.0.0/8", "RETRY_TIMES": 0}
    result = run_crawl(hostile_web.proxy, profile=profile, strategy="bfs", settings=settings)
    # Where 127.0.0.1 is a canonical spelling, the proxy serves it the hostile web, whose links reach its other hosts
    asked = {entry["host"] for entry in hostile_web.entries()} - {*HOSTS, *UNREADABLE_ROBOTS}
    loopback = {host_of(canonical_url(url)) for url in PRIVATE_NAMES[:4] + LOOPBACK_LITERALS}
    assert asked == loopback, asked  # loopback, in every spelling: opened
    others = len(PRIVATE_NAMES) - 4  # the four localhost links are loopback
    assert refusals(result) == {"private_name": others, "private_address": distinct(PRIVATE_LITERALS)}


def test_without_a_proxy_the_same_links_are_refused(hostile_web, run_crawl, tmp_path: Path):
    profile = private_links_profile(tmp_path, f"http://127.0.0.1:{hostile_web.port}{PRIVATE_LINKS_PAGE}")
    settings = {
        "CLOSESPIDER_PAGECOUNT": 40,
        "FOCUSED_ALLOWED_NETWORKS": "127.0.0.1/32",
        "RETRY_TIMES": 0,
        "DOWNLOAD_TIMEOUT": 5,
    }
    result = run_crawl(None, profile=profile, strategy="bfs", settings=settings)
    assert result.returncode == 0 and result.urls[0].endswith(PRIVATE_LINKS_PAGE)
    others = len(PRIVATE_NAMES) - 4
    assert refusals(result) == {"private_name": others, "private_address": distinct(PRIVATE_LITERALS)}
