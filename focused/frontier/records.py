"""Conversion between Scrapy Requests and the frontier's compact records."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.utils.request import request_from_dict

from focused.frontier.evidence import META_KEY, LinkEvidence, evidence
from focused.frontier.queues import Record
from focused.refresh.revisits import META as REVISIT

if TYPE_CHECKING:
    from scrapy import Spider
    from twisted.python.failure import Failure

LINK_META = frozenset({META_KEY, "depth"})


def is_link(request: Request) -> bool:
    """A plain GET of a discovered link, fully described by a compact record.

    The Referer header that RefererMiddleware adds is allowed when it is the parent page's
    URL: the record keeps that URL and the header is set again when the request is rebuilt.
    """
    headers = request.headers
    if headers and (len(headers) > 1 or (headers.get(b"Referer") or b"").decode() != _parent(request)):
        return False
    return (
        request.callback is None
        and request.errback is None
        and request.method == "GET"
        and not request.body
        and not request.cookies
        and LINK_META.issuperset(request.meta)
    )


def is_revisit(record: Record) -> bool:
    """A record of a page of the collection that fell due (focused.refresh), not of a discovered link: the
    strategy does not re-score it, and it is no new URL for its host's budget."""
    return record.request is not None and REVISIT in record.request.get("meta", {})


def is_seed(record: Record) -> bool:
    """A start URL: the user chose it, so the strategy does not re-score it. Scored again like a link, with
    no anchor and no parent to go on, it sank below the links it led to (session 76: seeds on a site kept
    to one request at a time waited 900 pages and more, some were never fetched)."""
    return record.parent_url is None and not is_revisit(record)


def _parent(request: Request) -> str:
    return evidence(request).get("parent_url") or ""


class RecordCodec:
    """Turns requests into records and back.

    Signal names are one shared tuple; their values are packed as float32 (about 50
    bytes instead of a dict's 300): plenty of precision to explain an ordering.
    """

    def __init__(self) -> None:
        self._names: dict[tuple[str, ...], tuple[str, ...]] = {}

    def to_record(self, request: Request, seq: int, spider: Spider) -> Record:
        info = evidence(request)
        score = float(info.get("score", 0.0))
        depth = int(request.meta.get("depth", 0))
        return Record(
            -score,
            seq,
            request.url,
            depth,
            info.get("anchor", ""),
            info.get("context", ""),
            info.get("parent_url"),
            info.get("parent_relevance"),
            self.pack(info.get("signals") or {}),
            None if is_link(request) else request.to_dict(spider=spider),
        )

    def pack(self, signals: dict[str, float]) -> tuple:
        if not signals:
            return ()
        names = tuple(signals)
        return self._names.setdefault(names, names), array("f", signals.values()).tobytes()

    @staticmethod
    def unpack(packed: tuple) -> dict[str, float]:
        names, values = packed or ((), b"")
        return dict(zip(names, (round(v, 6) for v in array("f", values))))

    def evidence(self, record: Record) -> LinkEvidence:
        """What a queued link was scored on; its `seq` names the record (JOBDIR journals when it finishes)."""
        return LinkEvidence(
            seq=record.seq, score=record.score, **self._as_found(record), signals=self.unpack(record.signals)
        )

    def link_info(self, record: Record) -> LinkEvidence:
        """What a strategy scores a queued link on again: not the score and signals the new ones replace (unpacked
        for every queued link of every re-scoring, they were a seventh of the model thread's time)."""
        return LinkEvidence(url=record.url, **self._as_found(record))

    @staticmethod
    def _as_found(record: Record) -> LinkEvidence:
        """The link as its page showed it: its anchor, the words around it, the page and that page's relevance."""
        return LinkEvidence(
            anchor=record.anchor,
            context=record.context,
            parent_url=record.parent_url,
            parent_relevance=record.parent_relevance,
        )

    def to_request(self, record: Record, spider: Spider, errback: Callable[[Failure], Any] | None) -> Request:
        """The request to fetch, carrying the link's evidence; a failed fetch goes to `errback`."""
        info = self.evidence(record)
        if record.request is not None:
            request = request_from_dict(record.request, spider=spider)
            request.meta[META_KEY] = info
            return request
        headers = {"Referer": record.parent_url} if record.parent_url else None
        return Request(
            record.url,
            headers=headers,
            meta={META_KEY: info, "depth": record.depth},
            errback=errback,
        )
