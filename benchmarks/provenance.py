"""Which code a benchmark run measured: the commit, uncommitted changes, and a digest of the sources per crawl.

A benchmark of several topics runs for many minutes, each crawl a process that imports the package anew from the
working tree. A change to the tree in the meantime (a branch checked out for the next experiment) makes the later
crawls of the run measure other code than the earlier ones, and nothing in their numbers shows it (it happened in
session 79: two tuning topics' crawls ran another branch's code). So the run records the commit and a digest of the
sources before each crawl, warns when the digest changes, and writes both beside its results.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

PACKAGES = ("focused", "testbed")  # what a crawl of the benchmark web imports from the working tree


def source_digest(root: Path) -> str:
    """A digest of every Python source of PACKAGES under `root`: what a crawl started now would run."""
    digest = hashlib.sha256()
    for path in sorted(p for package in PACKAGES for p in (root / package).rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def commit(root: Path) -> tuple[str, bool]:
    """The checked-out commit and whether the packages' sources differ from it ("", False outside a git tree)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        status = subprocess.run(
            ["git", "status", "--porcelain", "--", *PACKAGES], cwd=root, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return "", False
    return head.stdout.strip(), bool(status.stdout.strip())


class Provenance:
    """Kept by a benchmark run: `note` before each step that runs the package (training, a crawl), `save` at the end."""

    def __init__(self, root: Path, settings: dict[str, object]):
        self.root = root
        self.settings = settings
        self.commit, self.dirty = commit(root)
        self.first = source_digest(root)
        self.steps: list[dict[str, str]] = []

    def note(self, step: str) -> None:
        """Note the code `step` is about to run; warn if it is not the code the run started with."""
        digest = source_digest(self.root)
        self.steps.append({"step": step, "sources": digest})
        if digest != self.first:
            print(f"WARNING: the sources changed since this run started; {step} runs other code", file=sys.stderr)

    @property
    def mixed(self) -> bool:
        return any(step["sources"] != self.first for step in self.steps)

    def save(self, path: Path) -> None:
        record = {"commit": self.commit, "dirty": self.dirty, "mixed": self.mixed, "settings": self.settings}
        path.write_text(json.dumps({**record, "steps": self.steps}, indent=2) + "\n")
