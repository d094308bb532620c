"""Without a proxy, names go through the caching resolver; unresolvable hosts fail fast."""

from __future__ import annotations

from pathlib import Path


def test_dns_is_cached_and_dead_names_are_not_retried(web, run_crawl, tmp_path: Path):
    profile = tmp_path / "direct.toml"
    profile.write_text(
        'name = "sql"\ndescription = "Relational databases"\nkeywords = ["sql"]\n'
        f'seeds = ["http://localhost:{web.port}/"]\n'
    )
    settings = {"CLOSESPIDER_PAGECOUNT": 50, "FOCUSED_ALLOWED_NETWORKS": "127.0.0.0/8"}
    result = run_crawl(None, profile=profile, settings=settings)
    assert result.urls[0] == f"http://localhost:{web.port}/"
    names = 1 + 13  # localhost, and the *.example hosts the portal links to (robots.txt, then the page)
    assert result.stat("dnscache/miss") == names
    assert result.stat("dnscache/negative_hit") >= 10  # each dead name was looked up once
    assert result.stat("focused/host_failure/not_retried") >= 10
    assert result.stat("retry/count") == 0
