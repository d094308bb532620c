"""Extraction in worker processes, so that a crawl uses more than one core.

Parsing a page, finding its main text (trafilatura) and analyzing that text (focused.pages.analysis) is most of
a page's CPU time (docs/benchmarks.md) and holds the GIL: in the crawl's own process it takes the core that the
reactor and the model thread need. FOCUSED_WORKERS processes (default: the cores this process may use, less one,
at least one; 0: extract in the crawl's process) extract pages from their bodies while the reactor goes on. The
workers are pebble's: one that dies (a page crashed the parser, the OOM killer) or works on one page longer than
FOCUSED_WORKER_TIMEOUT (it is killed) costs that page only, and the pool starts another. They are forked from a
forkserver that imported the extraction code once, not from the crawl's process and its threads, and they end
with the crawl, or when it dies (their pipes close).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from time import perf_counter
from typing import TYPE_CHECKING, NamedTuple

from pebble import ProcessPool
from scrapy.http import HtmlResponse

from focused.pages.analysis import Analysis, analyze
from focused.pages.extract import Page, extract

if TYPE_CHECKING:
    from typing import Self

    from scrapy.settings import BaseSettings


def default_workers() -> int:
    """The cores this process may use, less one for the reactor and the model thread; at least one."""
    return max(1, len(os.sched_getaffinity(0)) - 1)


class Extracted(NamedTuple):
    page: Page
    analysis: Analysis
    extracting: float  # seconds
    analyzing: float


def extract_body(url: str, body: bytes, encoding: str, context_words: int, topic_words: frozenset[str]) -> Extracted:
    """A page and its analysis from what a response sends through a pipe."""
    return _extracted(HtmlResponse(url, body=body, encoding=encoding), context_words, topic_words)


def _extracted(response: HtmlResponse, context_words: int, topic_words: frozenset[str]) -> Extracted:
    started = perf_counter()
    page = extract(response, context_words)
    extracted = perf_counter()
    analysis = analyze(page, topic_words)
    return Extracted(page, analysis, extracted - started, perf_counter() - extracted)


class Extraction:
    def __init__(self, workers: int, timeout: float, context_words: int, topic_words: frozenset[str]):
        self.timeout, self.context_words, self.topic_words = timeout, context_words, topic_words
        self.pool: ProcessPool | None = None
        if workers > 0:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            self.pool = ProcessPool(max_workers=workers, context=context)

    @classmethod
    def from_settings(cls, settings: BaseSettings, topic_words: frozenset[str]) -> Self:
        """`topic_words`: the profile's (focused.pages.credibility.topic_words), for the content statistics."""
        workers = settings.get("FOCUSED_WORKERS")
        return cls(
            default_workers() if workers is None else int(workers),
            settings.getfloat("FOCUSED_WORKER_TIMEOUT"),
            settings.getint("FOCUSED_CONTEXT_WORDS"),
            topic_words,
        )

    async def __call__(self, response: HtmlResponse) -> Extracted:
        """The page and its analysis. A worker that died or ran out of time raises pebble.ProcessExpired or
        TimeoutError."""
        if self.pool is None:
            return _extracted(response, self.context_words, self.topic_words)
        args = (response.url, response.body, response.encoding, self.context_words, self.topic_words)
        return await asyncio.wrap_future(self.pool.schedule(extract_body, args, timeout=self.timeout))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.stop()
            self.pool.join()
