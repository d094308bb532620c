"""Conversion between Scrapy Requests and the frontier's compact records."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.utils.request import request_from_dict

from focused.frontier import Record

if TYPE_CHECKING:
    from scrapy import Spider

LINK_META = frozenset({"focused", "depth"})


def is_link(request: Request) -> bool:
    """A plain GET of a discovered link, fully described by a compact record."""
    return (
        request.callback is None
        and request.errback is None
        and request.method == "GET"
        and not request.body
        and not request.headers
        and not request.cookies
        and LINK_META.issuperset(request.meta)
    )


class RecordCodec:
    """Turns requests into records and back.

    Signal names are one shared tuple; their values are packed as float32 (about 50
    bytes instead of a dict's 300): plenty of precision to explain an ordering.
    """

    def __init__(self) -> None:
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}

    def to_record(self, request: Request, seq: int, spider: Spider) -> Record:
        info: dict[str, Any] = request.meta.get("focused", {})
        score = float(info.get("score", 0.0))
        depth = int(request.meta.get("depth", 0))
        if not is_link(request):
            return Record(-score, seq, request.url, depth, request=request.to_dict(spider=spider))
        signals = info.get("signals") or {}
        names = tuple(signals)
        return Record(
            -score,
            seq,
            request.url,
            depth,
            info.get("anchor", ""),
            info.get("context", ""),
            info.get("parent_url"),
            info.get("parent_relevance"),
            (self._names.setdefault(names, names), array("f", signals.values()).tobytes()) if signals else (),
        )

    def to_request(self, record: Record, spider: Spider) -> Request:
        if record.request is not None:
            request = request_from_dict(record.request, spider=spider)
            request.meta.setdefault("focused", {})["score"] = record.score
            return request
        names, packed = record.signals or ((), b"")
        values = [round(v, 6) for v in array("f", packed)]
        info = {
            "score": record.score,
            "anchor": record.anchor,
            "context": record.context,
            "parent_url": record.parent_url,
            "parent_relevance": record.parent_relevance,
            "signals": dict(zip(names, values)),
        }
        return Request(record.url, meta={"focused": info, "depth": record.depth})
