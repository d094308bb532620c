"""The model thread: batches, results back on the event loop, one bad page fails alone."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

from focused.pages.credibility import Reading
from focused.pages.extract import Link
from focused.relevance.worker import ModelWorker, PageJob
from focused.strategies.base import Scored, Strategy


class Stats(Counter):
    def inc_value(self, key: str, count: float = 1) -> None:
        self[key] += count


class Recording(Strategy):
    """Scores every link 1.0, remembers the thread it ran on, fails on a page named 'bad'."""

    def __init__(self) -> None:
        self.threads: set[str] = set()

    def score(self, parent, links):
        self.threads.add(threading.current_thread().name)
        if parent.url.endswith("/bad"):
            raise ValueError("cannot score this page")
        return [Scored(1.0, {"x": 1.0}) for _ in links]

    def dead_end(self, url, info):
        if url.endswith("/bad"):
            raise KeyError(url)


def test_pages_are_scored_in_batches_off_the_loop_and_fail_alone():
    strategy, stats = Recording(), Stats()
    batches: list[int] = []

    def classify(pages):
        batches.append(len(pages))
        return np.array([0.9 if "sql" in text else 0.1 for _, text in pages])

    worker = ModelWorker(classify, strategy, 0.5, SimpleNamespace(stats=stats))

    async def crawl():
        jobs = [
            PageJob(f"http://h/{name}", 1, name, text, [Link("http://h/x", "", "")])
            for name, text in (("a", "sql"), ("bad", "sql"), ("c", "bread"), ("d", "sql"))
        ]
        return await asyncio.gather(*(worker.page(job) for job in jobs), return_exceptions=True)

    a, bad, c, d = asyncio.run(crawl())
    worker.close()
    assert isinstance(bad, ValueError)
    assert a.relevant and not c.relevant and d.scored[0].score == 1.0
    assert sum(batches) == 4 and len(batches) < 4  # pages waiting while a batch runs go together
    assert strategy.threads == {"focused-models_0"}
    assert stats["focused/model/pages"] == 4


def test_a_failing_classifier_fails_its_batch_with_the_error():
    def classify(pages):
        raise RuntimeError("model missing")

    worker = ModelWorker(classify, Recording(), 0.5, SimpleNamespace(stats=Stats()))
    with pytest.raises(RuntimeError, match="model missing"):
        asyncio.run(worker.page(PageJob("http://h/a", 0, "", "", [])))
    worker.close()


def test_a_dead_end_that_cannot_be_learned_is_logged_and_counted(caplog):
    stats = Stats()
    worker = ModelWorker(lambda pages: np.zeros(len(pages)), Recording(), 0.5, SimpleNamespace(stats=stats))

    async def report():
        worker.dead_end("http://h/404", {})
        worker.dead_end("http://h/bad", {})
        await worker.call(lambda: None)  # the worker thread runs in order: both are done
        await asyncio.sleep(0)  # and their callbacks have run on the loop

    asyncio.run(report())
    worker.close()
    assert stats == {"focused/skipped/unlearned_dead_end/KeyError": 1}
    assert "Could not learn from the dead end http://h/bad" in caplog.text


class Trusting(Recording):
    """Pages of host 'docs' are originals of earlier pages elsewhere; remembers the copies it disowned."""

    def __init__(self) -> None:
        super().__init__()
        self.disowned: list[str] = []
        self.parents: list = []

    def score(self, parent, links):
        self.parents.append(parent)
        return super().score(parent, links)

    def original(self, url, earlier):
        """docs/ is trusted above every other host; the page read first on one host is the original; between
        two other hosts, it cannot tell."""
        hosts = [u.split("/")[2] for u in (url, earlier)]
        if hosts[0] == hosts[1] or hosts[1] == "docs":
            return False
        return True if hosts[0] == "docs" else None

    def disown(self, url, share=1.0):
        self.disowned.append((url, share))
        return share == 1.0


def run(worker: ModelWorker, *jobs: PageJob) -> list:
    async def crawl():
        return [await worker.page(job) for job in jobs]  # one at a time: each sees what the last taught

    try:
        return asyncio.run(crawl())
    finally:
        worker.close()


def test_an_implausible_page_shrinks_to_the_crawls_own_harvest_not_the_training_share():
    worker = ModelWorker(lambda pages: np.full(len(pages), 0.9), Recording(), 0.5, SimpleNamespace(stats=Stats()), 0.5)
    kinds = [(0.9, 1.0), (0.1, 1.0), (0.1, 1.0), (0.9, 0.0), (0.9, 0.0), (0.9, 0.0)]  # (probability, plausibility)
    worker.classify = lambda pages: np.array([kinds[int(text)][0] for _, text in pages])
    jobs = [
        PageJob(f"http://h/{i}", 1, "", str(i), [], plausibility=plausible) for i, (_, plausible) in enumerate(kinds)
    ]
    results = run(worker, *jobs)
    assert [r.relevant for r in results] == [True, False, False, False, False, False]
    assert results[3].relevance == pytest.approx((1 + 0.5) / 4)  # 1 of 3 so far, the prior as one page
    assert results[-1].relevance == results[3].relevance  # pages it cannot judge do not raise its belief


def test_the_original_of_an_earlier_copy_takes_its_credit():
    strategy = Trusting()
    worker = ModelWorker(lambda pages: np.full(len(pages), 0.9), strategy, 0.5, SimpleNamespace(stats=Stats()))
    copied = Reading(0.0, (("http://mirror/a", 1.0, 1.0),))
    copy, original, again, elsewhere = run(
        worker,
        PageJob("http://mirror/a", 1, "", "", []),
        PageJob("http://docs/a", 1, "", "", [], duplicate_of="http://mirror/a", reading=copied),
        PageJob("http://mirror/b", 1, "", "", [], duplicate_of="http://mirror/a", reading=copied),
        PageJob("http://copies/a", 1, "", "", [], duplicate_of="http://mirror/a", reading=copied),
    )
    assert strategy.disowned == [("http://mirror/a", 1.0)] and original.disowned and not again.disowned
    assert copy.copy_of is None and original.copy_of == ("http://mirror/a", "http://docs/a")  # for the mirrors
    assert again.copy_of == ("http://mirror/b", "http://mirror/a")  # one host: the page read first
    assert elsewhere.copy_of is None  # two hosts the strategy cannot rank: which is the copy, it cannot tell
    _, original, again, elsewhere = strategy.parents  # what the strategy learns from: the original is new
    assert original.relevant and original.relevance == pytest.approx(0.9) and original.credibility == 1.0
    assert again.duplicate and again.relevance == 0 and again.credibility == 0
    assert elsewhere.duplicate and elsewhere.relevance == 0 and elsewhere.credibility == 1.0  # no sign it copies


def test_a_page_that_quotes_a_few_lines_of_an_earlier_one_takes_back_only_those_lines():
    """A seed's manual quoting a sentence of a page read earlier on a site trusted less makes no copy: the earlier
    page gives back the share of its text that was quoted, and keeps the rest of its credit (all of it went, until
    session 79). A page spun from several is claimed by each original it holds text of; most of a page first read on
    one other, near-duplicate or not, makes a copy."""
    strategy = Trusting()
    worker = ModelWorker(lambda pages: np.full(len(pages), 0.9), strategy, 0.5, SimpleNamespace(stats=Stats()))
    spun = Reading(0.7, (("http://farm/b", 0.2, 0.3), ("http://docs/c", 0.05, 0.05), ("http://farm/a", 0.05, 0.1)))
    quoting, copying, original = run(
        worker,
        PageJob("http://docs/quotes", 1, "", "", [], reading=Reading(0.99, (("http://python/stdtypes", 0.01, 0.02),))),
        PageJob("http://docs/original", 1, "", "", [], reading=Reading(0.1, (("http://mirror/copy", 0.9, 0.95),))),
        PageJob("http://docs/spun-from", 1, "", "", [], reading=spun),
    )
    assert strategy.disowned[:2] == [("http://python/stdtypes", 0.02), ("http://mirror/copy", 1.0)]
    assert strategy.disowned[2:] == [("http://farm/b", 0.3), ("http://farm/a", 0.1)]  # docs/ page: its own site's
    assert not quoting.disowned and copying.disowned == 1 and not original.disowned
    assert [quoting.claimed, copying.claimed, original.claimed] == [1, 1, 2]  # focused/claimed_text
    assert quoting.copy_of is None and copying.copy_of == ("http://mirror/copy", "http://docs/original")
    assert [parent.novelty for parent in strategy.parents] == pytest.approx([1.0, 1.0, 0.95])  # what it outranks
    assert strategy.parents[2].credibility == pytest.approx(0.9)


def test_a_believed_page_proves_its_site_only_if_credible_as_a_source():
    """focused.frontier.probation: spun from pages already read, or outside the examples' range, a page the
    classifier believes keeps its site on probation; new and plausible, it ends it."""
    worker = ModelWorker(lambda pages: np.full(len(pages), 0.9), Recording(), 0.5, SimpleNamespace(stats=Stats()))
    new, spun, implausible, stuffed = run(
        worker,
        PageJob("http://docs/a", 1, "", "", []),
        PageJob("http://farm/a", 1, "", "", [], reading=Reading(0.6)),
        PageJob("http://farm/b", 1, "", "", [], plausibility=0.4),
        PageJob("http://docs/b", 1, "", "", [], stuffed=True),
    )
    assert new.proves_site and new.credibility == 1.0
    assert spun.relevant and not spun.proves_site and spun.credibility == pytest.approx(0.2)
    assert implausible.relevant and not implausible.proves_site and implausible.credibility == pytest.approx(0.4)
    assert not stuffed.relevant and not stuffed.proves_site
