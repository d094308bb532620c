"""Without a proxy, names go through the caching resolver; unresolvable hosts fail fast, as do hosts a proxy
will not tunnel to."""

from __future__ import annotations

from pathlib import Path

DIRECT = {"CLOSESPIDER_PAGECOUNT": 50, "FOCUSED_ALLOWED_NETWORKS": "127.0.0.0/8"}


def write_profile(tmp_path: Path, seeds: list[str]) -> Path:
    profile = tmp_path / "direct.toml"
    seed_list = ", ".join(f'"{seed}"' for seed in seeds)
    profile.write_text(
        f'name = "sql"\ndescription = "Relational databases"\nkeywords = ["sql"]\nseeds = [{seed_list}]\n'
    )
    return profile


def test_dns_is_cached_and_a_dead_name_costs_one_lookup(web, run_crawl, tmp_path: Path):
    result = run_crawl(None, profile=write_profile(tmp_path, [f"http://localhost:{web.port}/"]), settings=DIRECT)
    assert result.urls[0] == f"http://localhost:{web.port}/"
    dead = 13  # the *.example hosts the portal links to
    assert result.stat("dnscache/miss") == 1 + dead and result.stat("dnscache/error") == dead
    # their robots.txt could not be fetched, so the host is disallowed: its page is not looked up again
    assert result.stat("focused/robots/unreachable/CannotResolveHostError") == dead
    assert result.stat("robotstxt/forbidden") == dead
    assert result.stat("focused/host_failure/not_retried") == dead and result.stat("retry/count") == 0


def test_a_dead_name_is_answered_from_the_negative_cache(web, run_crawl, tmp_path: Path):
    # two pages of a dead host: the second is looked up after the first failed (and its host's backoff, 2 s)
    seeds = [f"http://localhost:{web.port}/", *(f"http://gone.example/{i}.html" for i in range(2))]
    settings = {**DIRECT, "ROBOTSTXT_OBEY": False}
    result = run_crawl(None, profile=write_profile(tmp_path, seeds), settings=settings)
    assert result.stat("dnscache/negative_hit") >= 1  # gone.example was looked up once, then answered from the cache
    assert result.stat("dnscache/error") == result.stat("dnscache/miss") - 1  # each dead name failed once


def test_a_host_the_proxy_will_not_tunnel_to_costs_one_attempt(web, run_crawl, tmp_path: Path):
    """An https host behind a proxy that refuses its CONNECT is a dead host, not a flaky page: no retry."""
    seeds = ["http://www.portal.example/", *(f"https://secure.example/{i}.html" for i in range(4))]
    result = run_crawl(
        web.proxy, profile=write_profile(tmp_path, seeds), settings={"CLOSESPIDER_PAGECOUNT": 20}, https=True
    )
    tunnel = "scrapy.core.downloader.handlers.http11.TunnelError"
    assert result.stat(f"downloader/exception_type_count/{tunnel}") == 1  # its robots.txt, once
    assert result.stat("focused/host_failure/TunnelError") == 1 and result.stat("retry/count") == 0
    assert result.stat("focused/robots/unreachable/TunnelError") == 1
    assert result.urls and not any(url.startswith("https://") for url in result.urls)
