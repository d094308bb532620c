"""All model work on one thread beside the reactor, in batches.

Page classification, link scoring, online learning and frontier re-scoring all run on a
single worker thread, one batch at a time: the reactor never waits for a model, and the
models are never touched by two threads at once. Pages that arrive while a batch runs
form the next batch, so batches grow exactly when the models are the bottleneck.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

import numpy as np

from focused.frontier.evidence import LinkEvidence
from focused.frontier.mirrors import COPIED
from focused.pages.credibility import CREDIBLE, Reading, credible, new_content
from focused.pages.extract import Link
from focused.relevance.audit import Auditor
from focused.strategies.base import ParentPage, Scored, Strategy

logger = logging.getLogger(__name__)
Classify = Callable[[Sequence[tuple[str, str]]], np.ndarray]


@dataclass
class PageJob:
    url: str
    depth: int
    title: str
    text: str
    links: list[Link]
    info: LinkEvidence = field(default_factory=LinkEvidence)  # the evidence of the link that led here
    duplicate_of: str | None = None  # the earlier page this one is a near-duplicate of (focused.pages.neardup)
    stuffed: bool = False  # keyword stuffing (focused.pages.spam): judged irrelevant whatever the classifier says
    plausibility: float = 1.0  # content within the range of the user's examples (focused.pages.credibility)
    reading: Reading = field(default_factory=Reading)  # what the crawl had read of the text before
    redirects: tuple[str, ...] = ()  # the URLs that redirected to this one (meta["redirect_urls"])
    judged: bool = True  # long enough for the content envelope to judge (focused.pages.credibility.judges)


@dataclass
class PageResult:
    relevance: float  # the credible probability that the page is relevant
    relevant: bool
    scored: list[Scored]
    classifier: float  # the classifier's own probability, before credibility
    credibility: float  # as a source of links: plausibility times new content (focused.pages.credibility)
    disowned: int = 0  # earlier copies judged relevant that the page is the original of
    copy_of: tuple[str, str] | None = None  # (copy, original) when the page and an earlier one are copies
    claimed: int = 0  # earlier pages that gave back text of this page's to it (`_claims`)

    @property
    def proves_site(self) -> bool:
        """Relevant and credible as a source: what ends its site's probation (focused.frontier.probation)."""
        return self.relevant and self.credibility >= CREDIBLE


class ModelWorker:
    def __init__(
        self,
        classify: Classify,
        strategy: Strategy,
        threshold: float,
        crawler: Any,
        prior: float = 0.0,
        auditor: Auditor | None = None,
    ):
        self.classify = classify
        self.auditor = auditor
        self.crawler = crawler  # its stats exist once the crawl starts
        self.strategy = strategy
        self.threshold = threshold
        self.prior = prior  # the training examples' share of positives: the first guess of the harvest
        self.believed = [0.0, 0.0]  # pages judged relevant, pages judged: each counted by its plausibility
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="focused-models")
        self.auditing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="focused-audit")
        self.waiting: list[tuple[PageJob, asyncio.Future]] = []
        self.busy = False

    async def page(self, job: PageJob) -> PageResult:
        """Relevance of the page and the scores of its links, computed on the worker thread."""
        future = asyncio.get_running_loop().create_future()
        self.waiting.append((job, future))
        self._next_batch()
        return await future

    async def audit(self, job: PageJob, result: PageResult) -> bool | None:
        """The auditor's verdict on a page of its sample (None: not in it), on a thread of its own: the audit is no
        stage of the crawl, and must not hold up the pages that are (a near-duplicate or a stuffed page is no new
        relevant page, whatever its words)."""
        if self.auditor is None or not self.auditor.wants(job.url):
            return None
        if job.duplicate_of or job.stuffed:
            return False
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.auditing, self.auditor.verdict, job.text, result.classifier, result.relevant
        )

    def dead_end(self, url: str, info: LinkEvidence) -> None:
        """Tell the strategy, on the worker thread, that a link gave no page. Nobody awaits this, so a
        failure is logged and counted here rather than lost."""
        self.call(self.strategy.dead_end, url, info).add_done_callback(lambda done: self._unlearned(url, done))

    def _unlearned(self, url: str, done: asyncio.Future) -> None:
        error = None if done.cancelled() else done.exception()
        if error is not None:
            logger.warning("Could not learn from the dead end %s: %r", url, error)
            self.crawler.stats.inc_value(f"focused/skipped/unlearned_dead_end/{type(error).__name__}")

    def call(self, function: Callable[..., Any], *args: Any) -> asyncio.Future:
        """Run any other model work (such as re-scoring) on the same thread."""
        return asyncio.get_event_loop().run_in_executor(self.executor, function, *args)

    def close(self) -> None:
        for executor in (self.executor, self.auditing):
            executor.shutdown(wait=True, cancel_futures=True)

    def _next_batch(self) -> None:
        if self.busy or not self.waiting:
            return
        batch, self.waiting = self.waiting, []
        self.busy = True
        done = self.call(self._run, [job for job, _ in batch])
        done.add_done_callback(lambda outcome: self._finish(batch, outcome))

    def _run(self, jobs: list[PageJob]) -> tuple[list[PageResult | Exception], float, float]:
        started = perf_counter()
        relevances = self.classify([(job.title, job.text) for job in jobs])
        classified = perf_counter()
        results = [self._score_or_error(job, float(relevance)) for job, relevance in zip(jobs, relevances)]
        return results, classified - started, perf_counter() - classified

    def _score_or_error(self, job: PageJob, relevance: float) -> PageResult | Exception:
        """One page's failure is that page's alone: the rest of the batch goes on."""
        try:
            return self._score(job, relevance)
        except Exception as exc:  # handed back to the page's own parse() as its exception
            return exc

    def _score(self, job: PageJob, probability: float) -> PageResult:
        """The page's credible relevance; what its links inherit and the strategy learns from is the part of it
        that is new (a near-duplicate's: nothing). Text the page shares with earlier pages it outranks is its own
        (`_claims`): it counts as new here, and goes back from each of them. A near-duplicate of a page on a site the
        strategy cannot rank against its own is no evidence that its site copies (the other may, and the sites
        vouching for each are yet to be read): it keeps its credibility."""
        reading = job.reading
        earlier = reading.source or job.duplicate_of
        ranks = {url: self.strategy.original(job.url, url) for url, _, _ in reading.sources}  # each ranked once
        if earlier is not None and earlier not in ranks:  # a near-duplicate sharing none of the sampled 5-grams
            ranks[earlier] = self.strategy.original(job.url, earlier)
        standing = ranks.get(earlier) if earlier is not None else None
        claims = self._claims(job, earlier, ranks)
        disowned = sum(self.strategy.disown(url, share) for url, share in claims.items())
        novelty = min(1.0, reading.novelty + sum(mine for url, mine, _ in reading.sources if url in claims))
        duplicate = job.duplicate_of is not None and not standing
        relevance = 0.0 if job.stuffed else credible(probability, job.plausibility, self._harvest())
        relevant = relevance >= self.threshold
        self.believed[0] += job.plausibility * relevant
        self.believed[1] += job.plausibility
        if job.stuffed or (duplicate and standing is False):
            credibility = 0.0
        else:
            credibility = job.plausibility * (1.0 if duplicate else new_content(novelty))
        parent = ParentPage(
            url=job.url,
            depth=job.depth,
            relevance=0.0 if duplicate else relevance * new_content(novelty),
            relevant=relevant and not duplicate,
            duplicate=duplicate,
            redirects=job.redirects,
            credibility=credibility,
            novelty=novelty,
            judged=job.judged,
            signals={} if duplicate else job.info.get("signals", {}),
            info=job.info,
        )
        scored = self.strategy.score(parent, job.links)
        copies = self._copies(job, earlier, standing)
        return PageResult(relevance, relevant, scored, probability, credibility, disowned, copies, len(claims))

    def _claims(self, job: PageJob, earlier: str | None, ranks: dict[str, bool | None]) -> dict[str, float]:
        """The earlier pages this page outranks (`ranks`: Strategy.original of each), each with the share of its
        text that was this page's: all of it where the two are copies (`_is_copy`), else what they share. A page
        spun from the sentences of pages not read yet gives them back one by one as they are read; a page a seed's
        manual quotes a line of keeps the rest (when any shared line took all of it, 80 relevant pages of `unicode`
        were disowned in one crawl: docs/benchmarks.md, session 78)."""
        claims = {url: theirs for url, _, theirs in job.reading.sources if ranks[url]}
        if earlier is not None and ranks[earlier] and self._is_copy(job):
            claims[earlier] = 1.0
        return claims

    @staticmethod
    def _is_copy(job: PageJob) -> bool:
        """Whether the page and the earlier one it repeats are copies of one text, whichever is the original: a
        near-duplicate, or most of the page first read there (COPIED, as focused.frontier.mirrors pairs them)."""
        return job.duplicate_of is not None or job.reading.copied >= COPIED

    @classmethod
    def _copies(cls, job: PageJob, earlier: str | None, standing: bool | None) -> tuple[str, str] | None:
        """(copy, original) when the page is a copy of an earlier one or its original, as the strategy ranks them
        (for focused.frontier.mirrors). Between pages it cannot rank (a strategy without trust, two seeds),
        which one was read first says nothing of which is the copy: no pair."""
        if earlier is None or standing is None or not cls._is_copy(job):
            return None
        return (earlier, job.url) if standing else (job.url, earlier)

    def _harvest(self) -> float:
        """The share of the crawl's believable pages judged relevant so far, the prior counting as one page:
        what an implausible page's probability shrinks to. A page the crawl cannot judge is as likely relevant
        as a page it fetched, not as a training example (half of which are positive by construction); and
        pages it cannot judge do not count, or a farm would raise its own belief."""
        relevant, pages = self.believed
        return (relevant + self.prior) / (pages + 1)

    def _finish(self, batch: list[tuple[PageJob, asyncio.Future]], outcome: asyncio.Future) -> None:
        self.busy = False
        error = outcome.exception()
        results: list[Any] = [None] * len(batch)
        if error is None:
            results, classifying, scoring = outcome.result()
            stats = self.crawler.stats
            stats.inc_value("focused/model/batches")
            stats.inc_value("focused/model/pages", len(batch))
            stats.inc_value("focused/seconds/classify", classifying)
            stats.inc_value("focused/seconds/score_links", scoring)
        for (_, future), result in zip(batch, results):
            failure = error or (result if isinstance(result, Exception) else None)
            if not future.done():
                future.set_exception(failure) if failure else future.set_result(result)
        self._next_batch()
