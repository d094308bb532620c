"""JavaScript rendering in real Chromium, only where it pays: a script-built page is found through the browser."""

from __future__ import annotations

from pathlib import Path

import pytest

from testbed.localweb.hostile import SPA

pytestmark = pytest.mark.browser

CHAPTERS = {f"http://{SPA}/chapter/{n}.html" for n in (1, 2, 3)}


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    path = tmp_path / "spa.toml"
    path.write_text(
        f'name = "spa"\ndescription = "SQL joins"\nkeywords = ["sql"]\nseeds = ["http://{SPA}/"]\n'
        f'[crawl]\nallowed_domains = ["{SPA}"]\n'
    )
    return path


def test_an_app_shell_is_rendered_once_and_its_script_built_links_are_crawled(hostile_web, run_crawl, profile):
    plain = run_crawl(hostile_web.proxy, profile=profile, strategy="bfs", name="plain")
    assert plain.urls == [f"http://{SPA}/"] and plain.items[0]["outlinks"] == 0  # nothing without a browser

    rendered = run_crawl(
        hostile_web.proxy, profile=profile, strategy="bfs", name="rendered", settings={"FOCUSED_RENDER_DETECT": True}
    )
    assert CHAPTERS <= set(rendered.urls), rendered.log[-3000:]
    front = next(item for item in rendered.items if item["url"] == f"http://{SPA}/")
    assert "SQL query plans explained" in front["text"] and front["outlinks"] == 3
    assert rendered.stat("focused/render/app_shells") == 1 and rendered.stat("focused/render/pages") == 1
    assert len(rendered.urls) == len(set(rendered.urls))  # the shell itself is not an item twice
    scripts = [e for e in hostile_web.entries() if e["path"] == "/app.js"]
    assert len(scripts) == 1 and "focused/" in scripts[0]["ua"]  # only the browser ran it, as the crawler


def test_render_hosts_and_the_budget(hostile_web, run_crawl, profile, tmp_path: Path):
    listed = run_crawl(
        hostile_web.proxy,
        profile=profile,
        strategy="bfs",
        name="listed",
        settings={"FOCUSED_RENDER_HOSTS": SPA, "FOCUSED_RENDER_PER_HOST": 2},
    )
    assert CHAPTERS <= set(listed.urls)
    assert listed.stat("focused/render/pages") == 2 and listed.stat("focused/render/over_budget") >= 2
