"""A crawl does not reach into private networks unless told to: names and IP literals alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from focused.addresses import AddressPolicy


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
    assert policy.refuses_literal("[::1]") and not policy.refuses_literal("localhost")


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
    assert refused.stat("focused/refused/private_address") >= 1
    assert "Refusing " in refused.log

    allowed = run_crawl(None, profile=profile, settings={"CLOSESPIDER_PAGECOUNT": 5,
                                                         "FOCUSED_ALLOWED_NETWORKS": "127.0.0.0/8"}, name="allowed")
    assert allowed.urls[0] == f"http://{host}:{web.port}/"
    assert allowed.stat("focused/refused/private_address") == 0
