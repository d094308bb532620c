"""The model thread: batches, results back on the event loop, one bad page fails alone."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

from focused.extract import Link
from focused.strategies.base import Scored, Strategy
from focused.worker import ModelWorker, PageJob


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
        jobs = [PageJob(f"http://h/{name}", 1, name, text, [Link("http://h/x", "", "")])
                for name, text in (("a", "sql"), ("bad", "sql"), ("c", "bread"), ("d", "sql"))]
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
