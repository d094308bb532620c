"""`scrapy crawl focused -a profile=PROFILE.toml [-a strategy=NAME] [-a mode=refresh]`.

The spider wires the stages together and holds no scoring logic:
fetch -> extract -> page relevance -> score links (strategy) -> frontier (scheduler).
Relevance and link scoring run on the model worker's thread, off the reactor. Every fetch of a page
ends in a Visit (new, changed, unchanged, gone) for the collection's history (focused.refresh);
`-a mode=refresh` revisits the pages of the collection (in JOBDIR, or in Redis for a shared crawl) and
writes items only for what changed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import scrapy
from scrapy import signals
from scrapy.exceptions import UsageError
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.job import job_dir
from scrapy.utils.url import url_is_from_any_domain
from twisted.python.failure import Failure

from focused import signals as focused_signals
from focused.addon import FocusedSettings, require
from focused.costs import spent, timed
from focused.fetching.hosthealth import failed_request, failure_reason
from focused.fetching.rendering import META as RENDER
from focused.fetching.rendering import enable_rendering, looks_like_app_shell, rendering_wanted
from focused.frontier.evidence import META_KEY, LinkEvidence, evidence
from focused.frontier.mirrors import Mirrors
from focused.frontier.probation import VERDICT
from focused.jobformat import check_format, mark_format
from focused.output.items import PageItem
from focused.pages.credibility import Envelope, NoveltyIndex, judges, topic_words
from focused.pages.extract import Link, Page, is_html, looks_binary
from focused.pages.neardup import SimHashIndex
from focused.pages.spam import is_stuffed
from focused.pages.workers import Extraction
from focused.profile import Profile, ProfileError, load_profile
from focused.refresh.history import Change, Visit
from focused.refresh.revisits import revisit_of
from focused.refresh.schedule import POLICIES
from focused.refresh.versions import body_digest, content_digest, validators
from focused.relevance.audit import Auditor
from focused.relevance.classifier import ClassifierError, PageClassifier, card_path, load_auditor, load_classifier
from focused.relevance.similarity import KeywordCoverage
from focused.relevance.worker import ModelWorker, PageJob, PageResult
from focused.strategies import load_strategy
from focused.strategies.base import Scored

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)
MODES = ("crawl", "refresh")
GONE = (404, 410)  # a revisit answered so: the page left the web


class Arguments(NamedTuple):
    profile: Profile
    strategy: str
    classifier: PageClassifier | None
    auditor: PageClassifier | None  # the model that judges the harvest (the classifier itself, if it is the one)
    mode: str  # crawl: fill the collection; refresh: keep it fresh


class FocusedSpider(FocusedSettings):
    name = "focused"

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.setup(crawler, kwargs)
        crawler.signals.connect(spider.worker.close, signal=signals.spider_closed)
        crawler.signals.connect(spider.extraction.close, signal=signals.spider_closed)
        return spider

    @staticmethod
    def check_arguments(settings: BaseSettings, arguments: dict[str, Any]) -> Arguments:
        """Profile, strategy name, classifier and auditor the arguments ask for, or UsageError saying what is wrong."""
        path = arguments.get("profile")
        if not path:
            raise UsageError("a topic profile is required: scrapy crawl focused -a profile=profiles/NAME.toml")
        try:
            profile = load_profile(path)
        except ProfileError as exc:
            raise UsageError(str(exc)) from None
        check_format(settings.get("JOBDIR"))
        mode = arguments.get("mode") or "crawl"
        if mode not in MODES:
            raise UsageError(f"unknown mode {mode!r}; choose one of: {', '.join(MODES)}")
        if mode == "refresh":
            check_refresh(settings)
        if settings.get("FOCUSED_REDIS_URL"):
            require("redis", "redis", "FOCUSED_REDIS_URL")
        if rendering_wanted(settings, profile.render_hosts):
            require("scrapy_playwright", "render", "rendering (FOCUSED_RENDER_HOSTS, _DETECT, render_hosts)")
        directory = Path(settings.get("FOCUSED_CLASSIFIERS_DIR"))
        trained = card_path(directory, profile.name).exists()
        strategy = arguments.get("strategy") or ("focused" if trained else None)
        strategies = settings.getdict("FOCUSED_STRATEGIES")
        if strategy is None:
            raise UsageError(
                f"profile {profile.name!r} has no trained classifier yet: train one with "
                f"`scrapy train {path}`, or crawl without one with -a strategy=lexical"
            )
        if strategy not in strategies:
            raise UsageError(f"unknown strategy {strategy!r}; choose one of: {', '.join(sorted(strategies))}")
        if strategy == "focused" and not trained:
            raise UsageError(f"strategy 'focused' needs a trained classifier: run `scrapy train {path}` first")
        try:
            classifier = load_classifier(directory, profile.name) if trained else None
            audited = settings.getfloat("FOCUSED_AUDIT_SHARE") > 0
            auditor = load_auditor(directory, classifier) if classifier is not None and audited else None
            return Arguments(profile, strategy, classifier, auditor, mode)
        except ClassifierError as exc:
            raise UsageError(str(exc)) from None

    def setup(self, crawler: Crawler, arguments: dict[str, Any]) -> None:
        settings = crawler.settings
        self.profile, strategy, classifier, judge, self.mode = self.check_arguments(settings, arguments)
        mark_format(job_dir(settings))
        self.strategy = load_strategy(crawler, strategy, self.profile)
        if self.mode == "crawl":  # a refresh crawl runs until stopped (CLOSESPIDER_TIMEOUT, Ctrl-C)
            settings.set("CLOSESPIDER_PAGECOUNT", self.profile.max_pages, priority="spider")
        self.allowed_domains = list(self.profile.allowed_domains)
        self.render_detect = settings.getbool("FOCUSED_RENDER_DETECT")
        if rendering_wanted(settings, self.profile.render_hosts):
            enable_rendering(settings)
        self.relevance_model = classifier.kind if classifier else "keywords"
        card = classifier.card if classifier else {}
        tolerance = settings.getfloat("FOCUSED_OOD_TOLERANCE")
        self.envelope = Envelope.from_dict(card["envelope"], tolerance) if "envelope" in card and tolerance else None
        auditor = self._auditor(settings, classifier, judge)
        self.estimate_source = "audit" if auditor else "classifier"
        self.calibration_error = self._calibration_error(card, auditor, judge, classifier)
        self.worker = ModelWorker(
            classifier or KeywordBatch(self.profile),
            self.strategy,
            self.profile.relevance_threshold,
            crawler,
            card.get("prior", 0.0),
            auditor,
        )
        self.extraction = Extraction.from_settings(settings, topic_words(self.profile.keywords))
        self.neardup_distance = settings.getint("FOCUSED_NEARDUP_DISTANCE")
        self.min_word_diversity = settings.getfloat("FOCUSED_MIN_WORD_DIVERSITY")
        self.state: dict[str, Any] = {}  # replaced by the saved state when JOBDIR is set
        logger.info("Strategy %s, page relevance from %s", strategy, self.relevance_model)

    @staticmethod
    def _calibration_error(
        card: dict[str, Any], auditor: Auditor | None, judge: PageClassifier | None, classifier: PageClassifier | None
    ) -> float:
        """What widens the estimate's interval: the calibration error of the model whose verdicts the estimate counts,
        as it reads pages there. An auditor of its own reads the main text alone (a card from before that was measured
        has only the reading with the title)."""
        separate = auditor is not None and auditor.classifier is not None
        by = judge if separate else classifier
        metrics = card.get("metrics", {}).get(by.kind if by else None, {})
        alone = metrics.get("audit_calibration_error") if separate else None
        return alone if alone is not None else metrics.get("calibration_error", 0.0)

    def _auditor(
        self,
        settings: BaseSettings,
        classifier: PageClassifier | None,
        judge: PageClassifier | None,
    ) -> Auditor | None:
        """The judge of the harvest on a sample of pages (focused/relevance/audit.py), if the card names one."""
        share = settings.getfloat("FOCUSED_AUDIT_SHARE")
        if classifier is None or share <= 0:
            return None
        if judge is None or (judge.kind == "embedding" and find_spec("sentence_transformers") is None):
            logger.warning(
                'No auditor for %s (it needs the embedding extra: pip install "focused[embedding]", then '
                "train again): the harvest estimate is the classifier's own share of pages judged "
                "relevant, which a crawl ordered by that classifier overstates",
                self.profile.name,
            )
            return None
        if judge is classifier:
            return Auditor(None, share, self.profile.relevance_threshold)
        judge.read([""])  # its model loaded now: loaded on the first sampled page, it stalled the model thread
        return Auditor(judge.read, share, self.profile.relevance_threshold)

    @property
    def neardup(self) -> SimHashIndex:
        """The near-duplicate index lives in spider.state, so a JOBDIR resume keeps it."""
        if "neardup" not in self.state:
            self.state["neardup"] = SimHashIndex(self.neardup_distance)
        return self.state["neardup"]

    @property
    def novelty(self) -> NoveltyIndex:
        """Like the near-duplicate index, kept in spider.state."""
        if "novelty" not in self.state:
            self.state["novelty"] = NoveltyIndex()
        return self.state["novelty"]

    @property
    def mirrors(self) -> Mirrors:
        """Like the near-duplicate index, kept in spider.state."""
        if "mirrors" not in self.state:
            self.state["mirrors"] = Mirrors()
        return self.state["mirrors"]

    async def start(self) -> AsyncIterator[scrapy.Request]:
        self._resume_strategy()
        # The crawl's harvest so far, what an implausible page's relevance shrinks to: kept, or a resumed crawl would
        # judge such pages against its first few (the order after a resume differed from an unbroken crawl's).
        self.worker.believed = self.state.setdefault("believed", self.worker.believed)
        self.crawler.stats.set_value("focused/estimate/calibration_error", self.calibration_error)
        self.crawler.stats.set_value("focused/estimate/source", self.estimate_source)
        for url in self.profile.seeds:
            seed = self.strategy.seed(url)
            evidence = LinkEvidence(score=seed.score, signals=seed.signals)
            yield scrapy.Request(url, meta={META_KEY: evidence}, errback=self.failed)  # a seed's failure ends it too

    async def parse(self, response: Response) -> AsyncIterator[Any]:
        stats = self.crawler.stats
        revisit = revisit_of(response)
        body = body_digest(response.body) if response.status == 200 else ""  # once: compared, then kept
        if revisit is not None and (response.status == 304 or body == revisit["body"]):
            self._unchanged(response, "not_modified" if response.status == 304 else "same_body", body)
            return
        if revisit is not None and response.status in GONE:
            self._visited(response, "gone", body)
            yield self._gone(response, revisit)
            return
        if not is_html(response):
            self._skip(response, "not_html")
            return
        if looks_binary(response.body):
            logger.warning("Skipping %s: binary data served as HTML", response.url)
            self._skip(response, "binary")
            return
        try:
            page, analysis, extracting, analyzing = await self.extraction(response)
        except Exception as exc:  # a hostile page (or one that killed or hung its worker) must not stop the crawl
            logger.warning("Skipping unparsable page %s: %r", response.url, exc)
            self._skip(response, f"unparsable/{type(exc).__name__}")
            return
        spent(stats, "extract", extracting)
        spent(stats, "analyze", analyzing)
        for reason, count in page.dropped.items():
            stats.inc_value(f"focused/dropped/{reason}", count)
        if self.render_detect and not response.meta.get(RENDER) and looks_like_app_shell(response, page):
            stats.inc_value("focused/render/app_shells")
            meta = {META_KEY: evidence(response), "depth": response.meta.get("depth", 0), RENDER: True}
            yield scrapy.Request(response.url, meta=meta, dont_filter=True, errback=self.failed)
            return
        content = content_digest(page)
        if revisit is not None and content == revisit["content"]:
            self._unchanged(response, "same_content", body, content)
            return
        with timed(stats, "neardup"):
            duplicate_of = self.neardup.duplicate_of(page.url, analysis.fingerprint)
        links = self._in_scope(page.links)
        info = evidence(response)
        with timed(stats, "credibility"):
            stuffed = is_stuffed(analysis.diversity, self.min_word_diversity)
            plausibility = self.envelope.plausibility(analysis.features) if self.envelope else 1.0
            reading = self.novelty.read(page.url, analysis.shingles)
        job = PageJob(
            page.url,
            response.meta.get("depth", 0),
            page.title,
            page.text,
            links,
            info,
            duplicate_of,
            stuffed,
            plausibility,
            reading,
            tuple(response.meta.get("redirect_urls", ())),
            judges(analysis.features),
        )
        try:
            result = await self.worker.page(job)
        except Exception as exc:  # a page the models cannot score must not stop the crawl
            logger.warning("Skipping page %s that could not be scored: %r", response.url, exc)
            self._skip(response, f"unscorable/{type(exc).__name__}", dead_end=False)
            return
        response.meta[VERDICT] = result.proves_site
        stats.inc_value("focused/pages")
        stats.inc_value("focused/relevant", int(result.relevant) - result.disowned)  # copies judged before
        stats.inc_value("focused/disowned_copies", result.disowned)
        stats.inc_value("focused/claimed_text", result.claimed)  # earlier pages that gave back some of this one's
        stats.inc_value("focused/near_duplicates", int(duplicate_of is not None))
        stats.inc_value("focused/keyword_stuffed", int(stuffed))
        stats.inc_value("focused/implausible", int(plausibility < 0.5))
        if result.copy_of and (mirror := self.mirrors.observe(*result.copy_of)):
            logger.info("Mirror: %s%s copies %s://%s%s; its links are requested there", *mirror)
            stats.inc_value("focused/mirrors")
        parent_relevance = 0.0 if duplicate_of else result.relevance
        with timed(stats, "requests"):
            requests = [
                scrapy.Request(
                    self._original(link.url), meta={META_KEY: self._evidence(link, scored, page.url, parent_relevance)}
                )
                for link, scored in zip(links, result.scored)
            ]
        for request in requests:
            yield request
        audited = await self._audit(job, result)
        change: Change = "new" if revisit is None else "changed"
        self._visited(response, change, body, content, result.relevance)
        # The item last: once it is written, its links are in the frontier (and in a JOBDIR's journal).
        yield self._item(response, page, result, duplicate_of, len(links), job, audited)

    def _original(self, url: str) -> str:
        """The link's URL, or its original's if it leads into a known mirror (focused.frontier.mirrors)."""
        original = self.mirrors.original_of(url)
        if original != url:
            self.crawler.stats.inc_value("focused/mirrored_links")
        return original

    @staticmethod
    def _evidence(link: Link, scored: Scored, parent_url: str, parent_relevance: float) -> LinkEvidence:
        return LinkEvidence(
            score=scored.score,
            anchor=link.anchor,
            context=link.context,
            parent_url=parent_url,
            parent_relevance=parent_relevance,
            signals=scored.signals,
        )

    async def _audit(self, job: PageJob, result: PageResult) -> bool | None:
        """The auditor's verdict, counted; a page it cannot judge is logged and counted, and not audited."""
        try:
            audited = await self.worker.audit(job, result)
        except Exception as exc:
            logger.warning("Could not audit %s: %r", job.url, exc)
            self.crawler.stats.inc_value(f"focused/audit/failed/{type(exc).__name__}")
            return None
        if audited is not None:
            self.crawler.stats.inc_value("focused/audit/pages")
            self.crawler.stats.inc_value("focused/audit/relevant", int(audited))
        return audited

    def failed(self, failure: Failure) -> None:
        """The errback of every request: a fetch that gave no page is logged and counted, and the crawl goes on."""
        reason, request = failure_reason(failure.value), failed_request(failure)
        logger.info("No page from %s: %s", request.url, failure.getErrorMessage()[:300])
        self.crawler.stats.inc_value(f"focused/failed/{reason}")
        self.crawler.signals.send_catch_log(focused_signals.request_failed, request=request)
        if isinstance(failure.value, HttpError):
            self._dead_end(request)

    def _skip(self, response: Response, reason: str, dead_end: bool = True) -> None:
        """A response that gives no item: counted, told to the scheduler (its request is done with) and, when
        the server answered with nothing to read, to the strategy as a dead end."""
        self.crawler.stats.inc_value(f"focused/skipped/{reason}")
        if dead_end and response.request is not None:
            self._dead_end(response.request)
        self.crawler.signals.send_catch_log(focused_signals.page_skipped, response=response)

    def _dead_end(self, request: scrapy.Request) -> None:
        """The server answered with nothing to read: a learning strategy should stop spending fetches on links
        like this one (a 404 costs a fetch as a page does)."""
        self.crawler.stats.inc_value("focused/dead_ends")
        self.worker.dead_end(request.url, evidence(request))

    def _visited(
        self, response: Response, change: Change, body: str, content: str = "", relevance: float = 0.0
    ) -> None:
        """Tell the collection's history (focused.refresh) what this fetch found."""
        etag, last_modified = validators(response)
        visit = Visit(response.url, time.time(), change, etag, last_modified, body, content, relevance)
        self.crawler.stats.inc_value(f"focused/refresh/{change}")
        self.crawler.signals.send_catch_log(focused_signals.page_visited, visit=visit)

    def _unchanged(self, response: Response, how: str, body: str, content: str = "") -> None:
        """A revisit found the version the collection holds: no item, and no parsing unless the server made us."""
        self.crawler.stats.inc_value(f"focused/refresh/unchanged/{how}")
        self._visited(response, "unchanged", body, content)
        self.crawler.signals.send_catch_log(focused_signals.page_skipped, response=response)

    def _gone(self, response: Response, revisit: dict[str, Any]) -> PageItem:
        """The one item of a page that left the web."""
        info = evidence(response)
        return PageItem(
            url=response.url,
            fetched_at=_now(),
            depth=response.meta.get("depth", 0),
            parent_url=None,
            anchor="",
            score=info.get("score", 0.0),
            relevance=0.0,
            relevant=False,
            audited=None,
            title="",
            text="",
            content_type=(response.headers.get("Content-Type") or b"").decode("latin-1"),
            status=response.status,
            duplicate_of=None,
            outlinks=0,
            strategy=self.strategy.name,
            change="gone",
            version=revisit["version"],
            previous=_iso(revisit["version_at"]),
        )

    def _resume_strategy(self) -> None:
        """Keep the strategy in spider.state, so a JOBDIR resume goes on with what it learned."""
        saved = self.state.get("strategy")
        if saved is not None and saved.name == self.strategy.name:
            self.strategy = self.worker.strategy = saved
            logger.info(
                "Resumed the %s strategy: %d pages in its crawl graph", saved.name, len(getattr(saved, "graph", ()))
            )
        self.state["strategy"] = self.strategy

    def _in_scope(self, links: list[Link]) -> list[Link]:
        """Links to allowed domains only, so the frontier never holds what OffsiteMiddleware would drop."""
        if not self.allowed_domains:
            return links
        kept = [link for link in links if url_is_from_any_domain(link.url, self.allowed_domains)]
        self.crawler.stats.inc_value("focused/dropped/offsite", len(links) - len(kept))
        return kept

    def _item(
        self,
        response: Response,
        page: Page,
        result: PageResult,
        duplicate_of: str | None,
        outlinks: int,
        job: PageJob,
        audited: bool | None,
    ) -> PageItem:
        info = evidence(response)
        revisit = revisit_of(response)
        return PageItem(
            url=response.url,
            fetched_at=_now(),
            depth=response.meta.get("depth", 0),
            parent_url=info.get("parent_url"),
            anchor=info.get("anchor", ""),
            score=info.get("score", 0.0),
            relevance=round(result.relevance, 4),
            relevant=result.relevant,
            audited=audited,
            title=page.title,
            text=page.text,
            content_type=(response.headers.get("Content-Type") or b"").decode("latin-1"),
            status=response.status,
            duplicate_of=duplicate_of,
            outlinks=outlinks,
            strategy=self.strategy.name,
            evidence={
                "context": info.get("context", ""),
                "parent_relevance": info.get("parent_relevance"),
                "signals": info.get("signals", {}),
                "relevance_model": self.relevance_model,
                "classifier": round(result.classifier, 4),
                "plausibility": round(job.plausibility, 4),
                "novelty": round(job.reading.novelty, 4),
            },
            change="new" if revisit is None else "changed",
            version=1 if revisit is None else revisit["version"] + 1,
            previous=None if revisit is None else _iso(revisit["version_at"]),
        )


def check_refresh(settings: BaseSettings) -> None:
    """A refresh crawl continues a collection kept in JOBDIR (or in Redis), at a positive rate, by a known policy."""
    if not settings.get("JOBDIR") and not settings.get("FOCUSED_REDIS_URL"):
        raise UsageError(
            "-a mode=refresh continues the collection of a crawl's JOBDIR (or of a shared crawl's Redis): "
            "add -s JOBDIR=<that folder>"
        )
    if settings.getfloat("FOCUSED_REFRESH_RATE") <= 0:
        raise UsageError(
            f"FOCUSED_REFRESH_RATE must be above 0 fetches per second, got {settings['FOCUSED_REFRESH_RATE']}"
        )
    if settings.get("FOCUSED_REFRESH_POLICY") not in POLICIES:
        raise UsageError(
            f"unknown FOCUSED_REFRESH_POLICY {settings['FOCUSED_REFRESH_POLICY']!r}; choose one of: {', '.join(POLICIES)}"
        )


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class KeywordBatch:
    """Keyword coverage with the classifier's batch interface, for profiles without one."""

    def __init__(self, profile: Profile):
        self.coverage = KeywordCoverage(profile)

    def __call__(self, pages: Sequence[tuple[str, str]]) -> np.ndarray:
        return np.array([self.coverage(title, text) for title, text in pages])
