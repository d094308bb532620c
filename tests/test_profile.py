"""A broken profile stops the crawl before it starts, naming file, key and problem."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from focused.profile import ProfileError, load_profile
from testbed.harness import crawl_command
from tests.conftest import REPO

GOOD = """
name = "sql"
description = "Relational databases"
keywords = ["sql", "database"]
seeds = ["http://example.org/"]

[examples]
positive = ["http://example.org/a.html"]
negative = ["training_data/sql/negative/"]

[crawl]
max_pages = 100
allowed_domains = []
relevance_threshold = 0.5
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "topic.toml"
    path.write_text(text)
    return path


def test_the_shipped_profile_loads():
    profile = load_profile(REPO / "profiles" / "sql.toml")
    assert profile.name == "sql" and profile.seeds and profile.keywords


def test_a_good_profile_loads(tmp_path):
    profile = load_profile(write(tmp_path, GOOD))
    assert profile.max_pages == 100 and profile.relevance_threshold == 0.5
    assert profile.positive == ("http://example.org/a.html",)


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        (lambda t: t.replace('name = "sql"\n', ""), "name", "missing required key"),
        (
            lambda t: t.replace('keywords = ["sql", "database"]', 'keywords = "sql"'),
            "keywords",
            "must be list, got str",
        ),
        (lambda t: t.replace("max_pages = 100", 'max_pages = "many"'), "crawl.max_pages", "must be int, got str"),
        (lambda t: t.replace("max_pages = 100", "max_pages = 0"), "crawl.max_pages", "must be positive"),
        (lambda t: 'colour = "blue"\n' + t, "colour", "unknown key"),
        (lambda t: t.replace("max_pages = 100", "max_pages = 100\nspeed = 3"), "crawl.speed", "unknown key"),
        (lambda t: t.replace("http://example.org/", "htp:/broken"), "seeds[0]", "not a fetchable http(s) URL"),
        (lambda t: t.replace("http://example.org/", "http://[oops/"), "seeds[0]", "not a fetchable http(s) URL"),
        (lambda t: t.replace('keywords = ["sql", "database"]', "keywords = []"), "keywords", "must not be empty"),
        (
            lambda t: t.replace("relevance_threshold = 0.5", "relevance_threshold = 2"),
            "crawl.relevance_threshold",
            "within 0..1",
        ),
        (lambda t: t.replace('name = "sql"', 'name = "a b"'), "name", "identifier"),
        (
            lambda t: "examples = 3\n" + t[: t.index("[examples]")] + t[t.index("[crawl]") :],
            "examples",
            "must be a table",
        ),
        (lambda t: t + "this is not toml", "(syntax)", "not valid TOML"),
    ],
)
def test_a_broken_profile_names_file_key_and_problem(tmp_path, change, key, problem):
    path = write(tmp_path, change(GOOD))
    with pytest.raises(ProfileError) as error:
        load_profile(path)
    assert str(error.value).startswith(f"{path}: {key}: ")
    assert problem in str(error.value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ProfileError, match=r"nope\.toml: \(file\): no such file"):
        load_profile(tmp_path / "nope.toml")


@pytest.mark.e2e
def test_scrapy_crawl_stops_before_starting_with_one_clear_line(tmp_path):
    path = write(tmp_path, GOOD.replace("http://example.org/", "ftp://example.org/"))
    done = subprocess.run(crawl_command(path), cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"focused: {path}: seeds[0]: not a fetchable http(s) URL (scheme/ftp)" in done.stderr
    assert "Traceback" not in done.stderr and "Spider opened" not in done.stderr
