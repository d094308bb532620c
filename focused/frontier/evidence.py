"""The evidence about a link, from the page it was found on to its fetch, its record and its item.

One shape, `LinkEvidence`: the spider builds it for every link it scores, the frontier keeps it in a
record (focused.frontier.records), the scheduler and the spider read it back from a request or its response,
and a strategy scores it again. In a request it lives in `meta["focused"]` as a plain dict, so a
request that carries it serializes as any other (JOBDIR, Redis).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

META_KEY = "focused"


class LinkEvidence(TypedDict, total=False):
    url: str  # where a strategy scores the link (a request has its own URL)
    seq: int  # the frontier record a handed-out request came from: what the scheduler finishes
    score: float
    anchor: str
    context: str  # the words around the link
    parent_url: str | None
    parent_relevance: float | None  # 0 for a near-duplicate parent: its links are not promoted
    signals: dict[str, float]  # each signal's contribution to the score


def evidence(message: Request | Response) -> LinkEvidence:
    """The evidence a request (or the response to it) carries; empty for a request focused did not score."""
    return cast(LinkEvidence, message.meta.get(META_KEY, {}))


def seq_of(message: Request | Response) -> int | None:
    """The frontier record a request was handed out from, if it was."""
    return evidence(message).get("seq")
