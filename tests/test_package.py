"""focused as users install it: in a project made by `scrapy startproject`, one setting enables it.

Runs the installed package (the Makefile installs it, editable): the project's folder is not this one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, crawl

USER_AGENT = "cookbook (+https://cookbook.example/bot)"
PLAIN_SPIDER = """
import scrapy

class Plain(scrapy.Spider):
    name = "plain"
    start_urls = ["http://www.portal.example/"]

    def parse(self, response):
        yield {"url": response.url}
"""


def scrapy(project: Path, *args: str, proxy: str = "") -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "http_proxy": proxy} if proxy else {"PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args], cwd=project, env=env, capture_output=True, text=True, timeout=300
    )


def user_project(tmp_path: Path) -> Path:
    """A new Scrapy project with a spider of its own, focused enabled, a user agent of its own."""
    subprocess.run(
        [sys.executable, "-m", "scrapy", "startproject", "cookbook"], cwd=tmp_path, check=True, capture_output=True
    )
    project = tmp_path / "cookbook"
    with (project / "cookbook" / "settings.py").open("a") as settings:
        settings.write(f'\nADDONS = {{"focused.addon.Addon": 0}}\nUSER_AGENT = "{USER_AGENT}"\n')
    (project / "cookbook" / "spiders" / "plain.py").write_text(PLAIN_SPIDER)
    shutil.copytree(REPO / "profiles", project / "profiles")
    shutil.copytree(REPO / "training_data", project / "training_data")
    return project


def test_a_scrapy_project_enables_focused_with_one_setting(web, tmp_path):
    project = user_project(tmp_path)
    trained = scrapy(project, "train", "profiles/sql.toml", "--model", "tfidf")
    assert trained.returncode == 0, trained.stderr[-2000:]
    assert json.loads((project / "classifiers" / "sql.json").read_text())["model"] == "tfidf"

    run = crawl(
        tmp_path,
        web.proxy,
        profile="profiles/sql.toml",
        strategy="focused",
        cwd=project,
        settings={"CLOSESPIDER_PAGECOUNT": 60},
    )
    assert run.returncode == 0, run.log[-2000:]
    assert len(run.items) >= 40 and run.items[0]["strategy"] == "focused"
    assert "focused.frontier.scheduler.FocusedScheduler" in run.log  # the spider brought focused's settings
    fetched = [entry for entry in web.entries() if entry["path"] != "/robots.txt"]
    assert fetched and {entry["ua"] for entry in web.entries()} == {USER_AGENT}  # and the project's still win

    labels = tmp_path / "labels.txt"
    labels.write_text(
        subprocess.run(
            [sys.executable, "-m", "testbed.localweb", "labels"], capture_output=True, text=True, check=True
        ).stdout
    )
    evaluated = scrapy(project, "evaluate", str(tmp_path / "crawl.jsonl"), "--labels", str(labels))
    assert evaluated.returncode == 0, evaluated.stderr[-2000:]
    # The labels' verdict, not the crawl's quality: one crawl of 60 pages has found as few as 9 relevant ones, so
    # tests/test_crawl_focused.py judges the ordering on the mean of three crawls of 500.
    fetched_relevant = set(run.urls) & set(labels.read_text().split())
    assert json.loads(evaluated.stdout)["relevant_fetched"] == len(fetched_relevant) > 0

    broken = scrapy(project, "crawl", "focused", "-a", "profile=profiles/missing.toml")
    assert broken.returncode == 2 and broken.stderr.strip().endswith("profiles/missing.toml: (file): no such file")

    plain = scrapy(project, "crawl", "plain", "-s", "CLOSESPIDER_PAGECOUNT=3", proxy=web.proxy)
    assert plain.returncode == 0, plain.stderr[-2000:]
    assert "FocusedScheduler" not in plain.stderr  # the project's other spiders keep Scrapy's scheduler
