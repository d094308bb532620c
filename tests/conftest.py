"""Fixtures: the local web on a free loopback port, and real `scrapy crawl` runs against it."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from testbed import harness

REPO = Path(__file__).resolve().parents[1]
# Lanes (markers registered in pyproject.toml): a test that starts a web, a crawl or a Redis server is `e2e` (as is
# one that runs a scrapy command: marked where it is written);
# `pytest -m "not e2e"` is the fast lane for a change to one module.
E2E_FIXTURES = frozenset({"web", "hostile_web", "module_web", "run_crawl", "mini_web", "redis_url", "small_crawls"})
# No audit unless a test asks for it (test_crawl_focused): loading MiniLM costs every crawl seconds.
# No extraction workers either, unless a test asks (test_hostile, test_crash_resume, test_distributed): starting them
# costs a short crawl a second or two.
FAST = {
    "DOWNLOAD_DELAY": 0,
    "FOCUSED_PROGRESS_INTERVAL": 0,
    "TELNETCONSOLE_ENABLED": False,
    "FOCUSED_AUDIT_SHARE": 0,
    "FOCUSED_WORKERS": 0,
}


@dataclass
class WebServer:
    port: int
    log_path: Path
    process: subprocess.Popen

    @property
    def proxy(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def entries(self) -> list[dict[str, Any]]:
        """The server's access log: one dict per request received."""
        return [json.loads(line) for line in self.log_path.read_text().splitlines() if line]


@dataclass
class Crawl:
    items: list[dict[str, Any]]
    log: str
    returncode: int

    @property
    def urls(self) -> list[str]:
        return [item["url"] for item in self.items]

    def stat(self, name: str) -> float:
        return harness.log_stat(self.log, name)


def start_web(directory: Path, latency: float = 0.0, module: str = "testbed.localweb", *options: str) -> WebServer:
    """A web server subprocess (`module` serve) on a free port, logging to directory/access.jsonl."""
    log_path = directory / "access.jsonl"
    process, proxy = harness.start_web(log_path, module, *options, *(["--latency", str(latency)] if latency else []))
    return WebServer(int(proxy.rsplit(":", 1)[1]), log_path, process)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebServer]:
    server = start_web(tmp_path)
    yield server
    server.process.terminate()
    server.process.wait()


@pytest.fixture
def hostile_web(tmp_path: Path) -> Iterator[WebServer]:
    """The web of broken and hostile answers (testbed.localweb.hostile)."""
    (tmp_path / "hostile").mkdir()
    server = start_web(tmp_path / "hostile", 0.0, "testbed.localweb", "--hostile")
    yield server
    server.process.terminate()
    server.process.wait()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A redis-server of the test's own, on a free port."""
    server, url = harness.start_redis(tmp_path)
    yield url
    server.terminate()
    server.wait()


@pytest.fixture(scope="module")
def module_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., WebServer]]:
    servers: list[WebServer] = []

    def start(latency: float = 0.0) -> WebServer:
        servers.append(start_web(tmp_path_factory.mktemp("web"), latency))
        return servers[-1]

    yield start
    for server in servers:
        server.process.terminate()
        server.process.wait()


def crawl(
    workdir: Path,
    proxy: str | None,
    profile: Path | str = REPO / "profiles" / "sql.toml",
    strategy: str = "lexical",
    settings: dict[str, Any] | None = None,
    name: str = "crawl",
    timeout: float = 300,
    cwd: Path = REPO,
    https: bool = False,
    mode: str | None = None,
) -> Crawl:
    """Run `scrapy crawl focused` as a user would, in its own process, in the Scrapy project at `cwd`; with
    `https`, https URLs go through the proxy too (each through a CONNECT tunnel, which the local web refuses)."""
    output, log = workdir / f"{name}.jsonl", workdir / f"{name}.log"
    command = harness.crawl_command(
        profile, strategy, output, {"LOG_FILE": log, **FAST, **(settings or {})}, append=True, mode=mode
    )
    done = subprocess.run(
        command, cwd=cwd, env=harness.crawl_env(proxy, https), timeout=timeout, capture_output=True, text=True
    )
    items = [json.loads(line) for line in output.read_text().splitlines()] if output.exists() else []
    return Crawl(items, log.read_text() if log.exists() else done.stderr, done.returncode)


@pytest.fixture
def run_crawl(tmp_path: Path) -> Callable[..., Crawl]:
    return lambda proxy, **kwargs: crawl(tmp_path, proxy, **kwargs)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with the lanes of what it starts: `e2e` for a server or crawl, `redis` for a Redis server."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & E2E_FIXTURES:
            item.add_marker(pytest.mark.e2e)
        if "redis_url" in fixtures:
            item.add_marker(pytest.mark.redis)


# --- the processes a crawl starts (its extraction workers: focused.pages.workers) ---------------
def descendants(root: int) -> dict[int, int]:
    """Every process below `root`, with its depth (1: a child)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = {}, [(root, 0)]
    while todo:
        parent, depth = todo.pop()
        for child in children.get(parent, []):
            found[child] = depth + 1
            todo.append((child, depth + 1))
    return found


def _proc_stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def cpu_seconds(pid: int) -> float:
    fields = _proc_stat(pid)  # utime and stime, in clock ticks
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if fields else 0.0


def outliving(pids: set[int], wait: float = 10.0) -> set[int]:
    """Those of `pids` still running after up to `wait` seconds (a zombie has ended: its parent may be gone)."""
    deadline = time.monotonic() + wait
    while (running := {pid for pid in pids if (fields := _proc_stat(pid)) and fields[0] != "Z"}) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.1)
    return running
