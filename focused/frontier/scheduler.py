"""FocusedScheduler: Scrapy's SCHEDULER, best first by float score, polite per host.

Composes the dupefilter (DUPEFILTER_CLASS, fingerprints from REQUEST_FINGERPRINTER_CLASS),
the frontier (compact per-host queues) and the host politeness table. Requests are
turned into compact records on the way in and rebuilt on the way out. With JOBDIR, every
admitted record and finished request is journaled as it happens (focused.frontier.jobstate), so a
killed crawl resumes without losing its frontier. With FOCUSED_REDIS_URL, the frontier and
the seen set are shared by every process of the crawl (focused.frontier.distributed).

It also keeps the collection (focused.refresh.collection): every visit the spider reports goes to its
history, logged to JOBDIR (or to Redis with FOCUSED_REDIS_URL). For a refresh crawl (`-a mode=refresh`)
the pages that fall due go into the frontier as conditional GETs beside the discovered links, everything
goes out at FOCUSED_REFRESH_RATE at most, and the crawl stays open when nothing is due yet.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from time import monotonic, perf_counter
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from scrapy import Request, signals
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.job import job_dir
from scrapy.utils.misc import build_from_crawler, load_object

from focused import signals as focused_signals
from focused.costs import spent, timed
from focused.frontier.distributed import RedisDupeFilter, RedisFrontier, connect, crawl_key
from focused.frontier.evidence import seq_of
from focused.frontier.jobstate import JobState
from focused.frontier.politeness import HostPoliteness
from focused.frontier.probation import VERDICT, Probation
from focused.frontier.queues import Frontier, FrontierStore, Persistent, Record, Resting, Shared
from focused.frontier.records import RecordCodec, is_revisit, is_seed
from focused.frontier.sharedhosts import SharedHosts
from focused.output.feeds import local_json_lines_feeds, written_urls
from focused.refresh.collection import Collection, Refresh
from focused.refresh.history import History, Visit, jobdir_log
from focused.refresh.revisits import META as REVISIT
from focused.refresh.shared import SharedLog
from focused.scrapyinternals import DownloaderSlots, engine_wakeup

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.internet.interfaces import IDelayedCall
    from twisted.python.failure import Failure

    from focused.relevance.worker import ModelWorker
    from focused.strategies.base import Strategy

logger = logging.getLogger(__name__)
# A request is parked in the downloader only for a host that may be fetched within this many
# seconds; longer rests are left to the engine's 5-second heartbeat, so that a backed-off
# host never holds a download slot (or a closing crawl) for long.
MAX_PARK = 2.0
# A record whose current score fell below this share of its queued score goes back in at the current one.
STALE = 0.8


@runtime_checkable
class ScoringSpider(Protocol):
    """What the scheduler uses of a focused spider: the model worker that scores links, whose strategy also
    re-scores the frontier when its `version` changes, and the errback of every request. Any other spider's
    requests are scheduled as scored, best first and politely, and never re-scored."""

    worker: ModelWorker

    def failed(self, failure: Failure) -> None: ...


def _host(request: Request) -> str:
    """The politeness unit of a request, from Scrapy's per-request URL parse cache."""
    return urlparse_cached(request).hostname or ""


class FocusedScheduler:
    def __init__(
        self,
        crawler: Crawler,
        frontier: FrontierStore,
        dupefilter: Any,
        jobdir: str | None,
        history: History,
        max_pages_per_host: int,
        patience: float,
        window: int,
        rescore_limit: int,
        max_unjudged: int,
    ):
        self.crawler = crawler
        self.stats = crawler.stats
        self.df = dupefilter
        self.jobstate = JobState(Path(jobdir)) if jobdir else None
        self.collection = Collection(history)  # a refresh crawl's: Refresh (open)
        self.max_pages_per_host = max_pages_per_host
        self.patience = patience
        self.window = window
        self.rescore_limit = rescore_limit
        self.max_unjudged = max_unjudged
        self.frontier = frontier
        # what this frontier can do beyond FrontierStore (focused.frontier.queues): each None when it cannot
        self.resting = frontier if isinstance(frontier, Resting) else None
        self.persistent = frontier if isinstance(frontier, Persistent) else None
        self.shared = frontier if isinstance(frontier, Shared) else None
        self.codec = RecordCodec()
        self.admitted: dict[str, int] = {}
        self.seq = 0
        self.outstanding: set[int] = set()  # records handed out and not finished yet
        self.unjudged: set[int] = set()  # of those, the ones downloaded (FOCUSED_MAX_UNJUDGED)
        self.probation: Probation | None = None  # a scoring spider's: one request at a time until a relevant page
        self.parked_until = 0.0
        self.wakeup: IDelayedCall | None = None  # the pending call that has the engine ask again
        self.scored_version = 0  # the strategy's model version the frontier's scores come from
        self.rescoring = False
        self.worker: ModelWorker | None = None  # a focused spider's (ScoringSpider): it re-scores the frontier
        self.errback: Callable[[Failure], Any] | None = None
        settings = crawler.settings
        self.user_agent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        frontier: FrontierStore
        if settings.get("FOCUSED_REDIS_URL"):
            client, key = connect(crawler), crawl_key(crawler)
            frontier = RedisFrontier(
                client, key, settings.getfloat("FOCUSED_REDIS_CLAIM_TIMEOUT"), SharedHosts.from_crawler(crawler)
            )
            dupefilter, jobdir = RedisDupeFilter(client, key, crawler.request_fingerprinter), None
            history = History(SharedLog(client, key))
        else:
            frontier, jobdir = Frontier(), job_dir(settings)
            dupefilter = build_from_crawler(load_object(settings["DUPEFILTER_CLASS"]), crawler)
            history = History(jobdir_log(Path(jobdir)) if jobdir else None)
        return cls(
            crawler,
            frontier,
            dupefilter,
            jobdir,
            history,
            settings.getint("FOCUSED_MAX_PAGES_PER_HOST"),
            settings.getfloat("FOCUSED_PATIENCE"),
            settings.getint("FOCUSED_PATIENCE_WINDOW"),
            settings.getint("FOCUSED_RESCORE_LIMIT"),
            settings.getint("FOCUSED_MAX_UNJUDGED"),
        )

    # --- the scheduler contract ---------------------------------------------
    def open(self, spider: Spider) -> Any:
        self.spider = spider
        if isinstance(spider, ScoringSpider):
            self.worker, self.errback = spider.worker, spider.failed
            # its pages are judged (an item or a skip): other spiders' may never be
            self.probation = Probation(spider.worker.strategy.probation)
        settings = self.crawler.settings
        if getattr(spider, "mode", "crawl") == "refresh":
            self.collection = Refresh.from_crawler(self.crawler, self.collection.history)
        self.hosts = HostPoliteness(
            slots=DownloaderSlots.of(self.crawler.engine.downloader),
            concurrency=settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN"),
            delay=settings.getfloat("DOWNLOAD_DELAY"),
            latency_factor=settings.getfloat("FOCUSED_LATENCY_FACTOR"),
            max_delay=settings.getfloat("FOCUSED_MAX_DELAY"),
            max_failures=settings.getint("FOCUSED_HOST_MAX_FAILURES"),
            slot_delays=not settings.get("FOCUSED_REDIS_URL"),
        )
        self._connect()
        self._load()
        return self.df.open()

    def close(self, reason: str) -> Any:
        if self.wakeup is not None and self.wakeup.active():
            self.wakeup.cancel()
        self.stats.set_value("focused/frontier/unfinished", len(self.outstanding))  # 0 when a crawl ran out
        self._save()
        self.collection.save()
        if self.shared:
            self.shared.close()
        return self.df.close(reason)

    def has_pending_requests(self) -> bool:
        return len(self.frontier) > 0

    def enqueue_request(self, request: Request) -> bool:
        with timed(self.stats, "enqueue"):
            admitted = self._admit(request)
        replaced = seq_of(request)  # a redirect or retry of a handed-out request
        if replaced is not None:
            self._finished(replaced)  # after its successor is journaled, whether admitted or not
            if request.meta.get("redirect_urls") and REVISIT in request.meta:
                self.collection.ended(request.meta["redirect_urls"][0])  # a revisited page moved: its new URL is new
        return admitted

    def _admit(self, request: Request) -> bool:
        with timed(self.stats, "dupefilter"):
            seen = not request.dont_filter and self.df.request_seen(request)
        if seen:
            self.df.log(request, self.spider)
            return False
        host = _host(request)
        if host in self.hosts.dead:
            self.stats.inc_value("focused/dropped/host_dead")
            return False
        revisit = REVISIT in request.meta  # a page of the collection: not a new URL for the host's budget
        if not revisit and self.max_pages_per_host and self.admitted.get(host, 0) >= self.max_pages_per_host:
            self.stats.inc_value("focused/trap/host_budget")
            return False
        self.admitted[host] = self.admitted.get(host, 0) + (not revisit)
        self.seq = self.frontier.next_seq(self.seq)
        record = self.codec.to_record(request, self.seq, self.spider)
        self.frontier.push(host, record)
        self.stats.inc_value("focused/frontier/enqueued")
        self.collection.admitted(record)
        if self.jobstate:
            self.jobstate.pushed(host, record)
        return True

    def next_request(self) -> Request | None:
        with timed(self.stats, "dequeue"):
            return self._next_request()

    def _next_request(self) -> Request | None:
        self._maybe_rescore()
        if self.max_unjudged and len(self.unjudged) >= self.max_unjudged:
            self.stats.inc_value("focused/frontier/held_back")
            return None
        for request in self.collection.due(self.errback):
            self._admit(request)
        while True:
            now = monotonic()
            if (wait := self.collection.take(now)) > 0:
                self._look_again(now, wait)
                return None
            got = self.frontier.pop(now, self._wait, self.patience, self.window) or self._park(now)
            if got is None:
                self.collection.refund()
                self._look_again(now)
                return None
            host, record = got
            if not self.hosts.allowed(host, record.url, self.user_agent):
                self.stats.inc_value("focused/robots/forbidden")
                self._drop(host, record)
                continue
            if (original := self._original(record)) is not None:
                self.stats.inc_value("focused/mirrored_links")
                self._drop(host, record)
                self._admit(self.codec.to_request(record, self.spider, self.errback).replace(url=original))
                continue
            if (current := self._current(record)) is not None:
                self.stats.inc_value("focused/frontier/requeued_current")
                self.frontier.push(host, current)  # not journaled: resumed at its queued score, it is checked again
                if self.shared:
                    self.shared.finished(record.seq)  # the pop's claim: the record is queued again
                continue
            request = self.codec.to_request(record, self.spider, self.errback)
            self.hosts.handed_out(host, id(request))
            if self.probation is not None:
                self.probation.handed_out(host, record.seq, now)
            self.outstanding.add(record.seq)
            self.stats.inc_value("focused/frontier/dequeued")
            self.stats.set_value("focused/frontier/size", len(self.frontier))
            self.stats.set_value("focused/frontier/hosts", self.frontier.hosts)
            return request

    def _drop(self, host: str, record: Record) -> None:
        """A record popped that will not be fetched: its host's slot, its journal entry and its pace go back."""
        self._release(host, 0.0, record.seq)
        self._finished(record.seq)
        self.collection.refund()
        if is_revisit(record):
            self.collection.ended(record.url)

    def _original(self, record: Record) -> str | None:
        """The original's URL of a link queued before its host was found to copy another's pages
        (focused.frontier.mirrors; the focused spider's), else None."""
        mirrors = getattr(self.spider, "mirrors", None)
        if mirrors is None or is_revisit(record):
            return None
        original = mirrors.original_of(record.url)
        return None if original == record.url else original

    def _current(self, record: Record) -> Record | None:
        """The record at its current score (Strategy.current), when that fell below STALE of the score it was
        queued at: its link's factors changed since it was scored, and a re-scoring reaches only a sample of the
        frontier. Else None: it is handed out as it is."""
        if self.worker is None or not record.signals:
            return None
        scored = self.worker.strategy.current({**self.codec.evidence(record), "url": record.url})
        if scored is None or scored.score >= STALE * record.score:
            return None
        return record._replace(key=-scored.score, signals=self.codec.pack(scored.signals))

    def __len__(self) -> int:
        return len(self.frontier)

    # --- re-scoring -------------------------------------------------------------
    def _maybe_rescore(self) -> None:
        """When the strategy's models changed, re-score a batch of the frontier's links on the model thread."""
        if self.worker is None:
            return
        version = self.worker.strategy.version
        if self.rescoring or version == self.scored_version or not len(self.frontier):
            return
        self.rescoring = True
        batch = [
            record for record in self.frontier.sample(self.rescore_limit) if not (is_revisit(record) or is_seed(record))
        ]
        done = self.worker.call(self._rescore, self.worker.strategy, batch)
        done.add_done_callback(lambda outcome: self._rescored(outcome, version, batch))

    def _rescore(self, strategy: Strategy, batch: list[Record]) -> tuple[dict[int, tuple[float, tuple]], float]:
        """The batch's new priorities and signals, and the seconds they took (counted on the reactor's thread)."""
        started = perf_counter()
        scored = strategy.rescore([self.codec.link_info(record) for record in batch])
        priorities = {record.seq: (-s.score, self.codec.pack(s.signals)) for record, s in zip(batch, scored)}
        return priorities, perf_counter() - started

    def _rescored(self, outcome: Any, version: int, batch: list[Record]) -> None:
        self.rescoring = False
        if outcome.exception() is not None:
            logger.error("Re-scoring the frontier failed: %r", outcome.exception())
            return
        priorities, seconds = outcome.result()
        self.frontier.rescore(priorities, batch)
        self.scored_version = version
        self.stats.inc_value("focused/frontier/rescored", len(batch))
        spent(self.stats, "rescore", seconds)

    # --- politeness ------------------------------------------------------------
    def _wait(self, host: str) -> tuple[float, bool]:
        """The host's politeness wait, and busy while its site is on probation with a request out
        (focused.frontier.probation)."""
        seconds, busy = self.hosts.wait(host)
        return seconds, busy or (self.probation is not None and self.probation.busy(host, monotonic()))

    def _park(self, now: float) -> tuple[str, Any] | None:
        """Nothing to hand out now: let the downloader hold one request of the best resting
        host, so the crawl wakes up when its delay ends instead of at the next heartbeat."""
        if self.resting is None or self.parked_until > now:
            return None
        host = self.resting.best_resting(self._wait)
        if host is None:
            return None
        if host in self.hosts.failures or (seconds := self.hosts.wait(host)[0]) > MAX_PARK:
            return None  # a failing host's back-off may grow while its request waits: never park one
        self.parked_until = now + seconds
        self.stats.inc_value("focused/frontier/parked")
        return host, self.resting.take(host)

    def _look_again(self, now: float, seconds: float | None = None) -> None:
        """Have the engine ask again when the frontier may next have something to hand out, or after
        `seconds` (the engine itself asks only after a response or at its 5 s heartbeat). A timer of our own:
        the engine's next call runs once, so scheduling it late would hold back the engine's own asks."""
        from twisted.internet import reactor

        if seconds is None:
            looks = (self.frontier.next_look(now), self.collection.next_look())
            seconds = min((look for look in looks if look is not None), default=None)
        wakeup = engine_wakeup(self.crawler.engine)
        if seconds is None or wakeup is None:
            return
        if self.wakeup is not None and self.wakeup.active():
            if self.wakeup.getTime() <= reactor.seconds() + seconds:
                return
            self.wakeup.cancel()
        self.wakeup = reactor.callLater(seconds, wakeup)

    def _connect(self) -> None:
        connect = self.crawler.signals.connect
        connect(self._robots_parsed, signal=signals.robots_parsed)
        connect(self._reached, signal=signals.request_reached_downloader)
        connect(self._left, signal=signals.request_left_downloader)
        connect(self._downloaded, signal=signals.response_downloaded)
        connect(self._failed, signal=focused_signals.host_failed)
        connect(self._succeeded, signal=focused_signals.host_succeeded)
        for ended in (
            signals.item_scraped,
            signals.item_dropped,
            signals.item_error,
            signals.spider_error,
            focused_signals.page_skipped,
        ):
            connect(self._answered, signal=ended)
        connect(self._request_failed, signal=focused_signals.request_failed)
        connect(self._visited, signal=focused_signals.page_visited)
        connect(self._idle, signal=signals.spider_idle)

    def _visited(self, visit: Visit) -> None:
        self.collection.visited(visit)

    def _idle(self) -> None:
        self.collection.idle()

    def _robots_parsed(self, robotparser: Any, request: Request) -> None:
        self.hosts.robots_parsed(_host(request), robotparser, self.user_agent)

    def _reached(self, request: Request) -> None:
        self.hosts.reached_downloader(_host(request), id(request))

    def _left(self, request: Request) -> None:
        host = _host(request)
        self.hosts.finished(host)
        self._release(host, self.hosts.delay(host), seq_of(request))

    def _downloaded(self, response: Response, request: Request) -> None:
        if (seq := seq_of(request)) in self.outstanding:
            self.unjudged.add(seq)
        latency = request.meta.get("download_latency")
        if latency is not None:
            self.hosts.observe_latency(_host(request), latency)

    def _failed(self, host: str, reason: str) -> None:
        if self.hosts.failed(host):
            dropped = self.frontier.drop_host(host)
            logger.warning(
                "Giving up on host %s after repeated failures (%s); dropped %d queued URLs", host, reason, dropped
            )
            self.stats.inc_value("focused/host/dead")
            self.stats.inc_value("focused/dropped/host_dead", dropped)

    def _succeeded(self, host: str) -> None:
        self.hosts.succeeded(host)

    # --- the end of a request: every way a handed-out request can end finishes it here ----------
    # (a redirect or a retry, in enqueue_request once its successor is journaled; robots.txt, in next_request)
    def _answered(self, response: Response, **_: Any) -> None:
        """Its item was written, dropped or failed in the pipeline, its callback failed, or the spider skipped it."""
        self._finished(seq_of(response), response.meta.get(VERDICT, False))

    def _request_failed(self, request: Request) -> None:
        """No response: a download error, an HTTP error status, or a middleware dropped it before download."""
        seq = seq_of(request)
        if self.hosts.dropped(_host(request), id(request)):
            self._release(_host(request), 0.0, seq)
        self._finished(seq)
        if REVISIT in request.meta:
            self.collection.ended(request.meta.get("redirect_urls", [request.url])[0])

    def _finished(self, seq: int | None, proves: bool = False) -> None:
        """A handed-out request is done with: the journal and a shared frontier's claims forget it."""
        if seq is None:
            return
        self.outstanding.discard(seq)
        if self.probation is not None and (host := self.probation.finished(seq, proves)) is not None:
            self._release(host, 0.0, None)  # its site's look is done with: the host may take its next request now
            self._look_again(monotonic(), 0.0)
        if seq in self.unjudged:
            self.unjudged.discard(seq)
            if len(self.unjudged) == self.max_unjudged - 1:  # below the limit again: the engine was refused
                self._look_again(monotonic(), 0.0)
        if self.jobstate:
            self.jobstate.finished(seq)
        if self.shared:
            self.shared.finished(seq)

    def _release(self, host: str, delay: float, seq: int | None) -> None:
        """A request of `host` ended: a frontier that rests its hosts itself looks at the host again."""
        if self.resting:
            self.resting.release(host, delay, seq)

    # --- JOBDIR persistence ---------------------------------------------------
    def _save(self) -> None:
        if self.jobstate is None or self.persistent is None:
            return
        records = list(self.persistent.records())
        path = self.jobstate.save(self.seq, records, self.admitted, self.hosts.dead)
        logger.info("Saved %d queued URLs to %s", len(records), path)

    def _load(self) -> None:
        self.collection.load()
        state = self.jobstate.load() if self.jobstate else None
        if state is None or self.jobstate is None:
            return
        written = set().union(*(written_urls(path) for path in local_json_lines_feeds(self.crawler.settings)))
        self.seq, self.admitted = state.seq, state.admitted
        self.hosts.dead.update(state.dead)
        for record in state.journaled:  # the dupefilter's own file may have lost its last lines
            self.df.request_seen(self.codec.to_request(record, self.spider, self.errback))
        # a URL already written was fetched (its item is written before its request is done with); a revisit
        # is of a URL written before
        pending = [
            (host, record) for host, record in state.records.values() if record.url not in written or is_revisit(record)
        ]
        for host, record in pending:
            self.frontier.push(host, record)
            self.collection.resumed(record)
        if state.journaled:
            logger.warning(
                "The last run did not close cleanly: its journal recovered %d admitted URLs and %d finished "
                "requests; %d more were already in the output",
                len(state.journaled),
                state.finished,
                len(state.records) - len(pending),
            )
        logger.info("Resumed %d queued URLs from %s", len(self.frontier), self.jobstate.jobdir)
