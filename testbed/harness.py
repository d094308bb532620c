"""The one harness the demo, the tests and the benchmarks share: start a test web or a Redis server on a
free loopback port, and run `scrapy crawl focused` as a user types it."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROXY_VARIABLES = ("http_proxy", "https_proxy", "no_proxy")


def start_web(log: Path, module: str = "testbed.localweb", *options: str) -> tuple[subprocess.Popen, str]:
    """Serve a web (`module` serve: the local web, or testbed.docsweb) on a free port, logging every request
    to `log`; returns the server and its proxy URL."""
    command = [sys.executable, "-m", module, "serve", "--port", "0", "--log", str(log), *options]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline() if server.stdout else ""
    match = re.search(r"127\.0\.0\.1:(\d+)", line)
    if match is None:
        server.kill()
        raise RuntimeError(f"{module} serve did not start: {line!r}")
    return server, f"http://127.0.0.1:{match[1]}"


def start_redis(directory: Path) -> tuple[subprocess.Popen, str]:
    """A Debian redis-server on a free loopback port, keeping nothing on disk; returns it and its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    server = subprocess.Popen([*command, "--dir", str(directory)], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as client:
            if client.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    return server, f"redis://127.0.0.1:{port}/0"


def crawl_command(
    profile: Path | str,
    strategy: str | None = None,
    feed: Path | None = None,
    settings: Mapping[str, object] | None = None,
    append: bool = False,
    mode: str | None = None,
) -> list[str]:
    """`scrapy crawl focused` with a profile, a strategy, a JSON-lines feed (-O, or -o to append to it, as a
    resumed crawl does), -s settings and a mode (refresh)."""
    command = [sys.executable, "-m", "scrapy", "crawl", "focused", "-a", f"profile={profile}"]
    if strategy:
        command += ["-a", f"strategy={strategy}"]
    if mode:
        command += ["-a", f"mode={mode}"]
    if feed:
        command += ["-o" if append else "-O", f"{feed}:jsonl"]
    for key, value in (settings or {}).items():
        command += ["-s", f"{key}={value}"]
    return command


def log_stat(log: str, name: str) -> float:
    """A value from the stats Scrapy dumps at the end of a crawl's log (0 if absent)."""
    match = re.search(rf"'{re.escape(name)}': ([0-9.e+-]+)", log)
    return float(match[1]) if match else 0.0


def crawl_env(proxy: str | None, https: bool = False) -> dict[str, str]:
    """This process's environment with the test web as the only proxy (https through it too with `https`: each
    request a CONNECT tunnel, which the test webs refuse)."""
    env = {key: value for key, value in os.environ.items() if key.lower() not in PROXY_VARIABLES}
    if proxy:
        env["http_proxy"] = proxy
        if https:
            env["https_proxy"] = proxy
    return env
