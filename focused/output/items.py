"""The output record of one fetched HTML page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class PageItem:
    url: str
    fetched_at: str  # ISO 8601, UTC
    depth: int
    parent_url: str | None
    anchor: str
    score: float  # the frontier priority when the URL was handed out
    relevance: float  # page relevance estimate, 0..1
    relevant: bool  # relevance >= the profile's relevance_threshold
    audited: bool | None  # the auditor's verdict, for the pages it samples (focused/relevance/audit.py); else None
    title: str
    text: str
    content_type: str
    status: int
    duplicate_of: str | None
    outlinks: int
    strategy: str
    evidence: dict[str, Any] = field(default_factory=dict)  # why the URL was fetched when it was
    change: str = "new"  # new, changed or gone (a refresh crawl writes no item for an unchanged page)
    version: int = 1  # the page's versions the crawl has held, this one included
    previous: str | None = None  # when the version this one replaces was fetched (ISO 8601, UTC)
