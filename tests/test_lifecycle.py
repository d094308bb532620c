"""Every request handed out ends, in both modes: a page the spider skips and a request a middleware drops
before download included. A crawl of a finite web then ends by itself, with no claim and no host slot left."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from testbed.localweb.hostile import HOSTILE, PRIVATE_LINKS_PAGE

KEY = "focused:lifecycle"
SETTINGS = {"DOWNLOAD_TIMEOUT": 2, "RETRY_TIMES": 0, "FOCUSED_MAX_DELAY": 1, "FOCUSED_REDIS_CLAIM_TIMEOUT": 3}


@pytest.mark.parametrize("mode", ["jobdir", "redis"])
def test_a_crawl_of_a_finite_web_ends_with_every_request_finished(
    hostile_web, run_crawl, tmp_path: Path, request: pytest.FixtureRequest, mode: str
):
    profile = tmp_path / "lifecycle.toml"
    seeds = [f"http://{HOSTILE}/", f"http://{HOSTILE}{PRIVATE_LINKS_PAGE}"]  # the latter's links: the guard drops them
    profile.write_text(
        f'name = "lifecycle"\ndescription = "SQL databases"\nkeywords = ["sql"]\nseeds = {seeds}\n'.replace("'", '"')
    )
    shared = (
        {"FOCUSED_REDIS_URL": request.getfixturevalue("redis_url"), "FOCUSED_REDIS_KEY": KEY}
        if mode == "redis"
        else {"JOBDIR": tmp_path / "job"}
    )
    result = run_crawl(
        hostile_web.proxy, profile=profile, strategy="bfs", settings={**SETTINGS, **shared}, timeout=120
    )  # a request never finished keeps a shared crawl from ending
    assert result.returncode == 0 and "Spider closed (finished)" in result.log
    assert result.stat("focused/skipped/binary") == 1 and result.stat("focused/refused/private_address") > 0
    assert "'focused/frontier/unfinished': 0," in result.log
    fetched = [e["path"] for e in hostile_web.entries() if e["host"] == HOSTILE]
    assert fetched.count("/binary.html") == 1  # a skipped page's claim never comes back
    if mode == "redis":
        client = redis.Redis.from_url(shared["FOCUSED_REDIS_URL"])
        assert client.zcard(f"{KEY}:claims") == 0
        assert not [key for key in client.scan_iter(f"{KEY}:inflight:*") if client.zcard(key)]
