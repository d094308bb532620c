"""Frontier benchmark: push/pop rates and memory per queued URL, next to Scrapy's own queue; and pops
with many hosts resting on their delays.

    python -m benchmarks.frontier [--sizes 10000 100000 1000000] [--hosts 10000 100000]

Ours: Requests from the spider become compact records in per-host heaps
(focused.frontier.queues); pops go through the politeness-aware path and rebuild a Request.
Baseline: Scrapy's ScrapyPriorityQueue over FIFO memory queues, which keeps every
Request object (and takes integer priorities). Memory is what the queue retains per
URL, strings included, traced with tracemalloc in a separate pass.

Many hosts: every host has its own delay (0.5 to 5 s, as Crawl-delays are), a simulated clock
advances 20 us per pop, a host handed out rests for its delay and brings one new link; pops/s
counts every pop, those that hand nothing out (all hosts resting, or patience holding back for a
better host due soon) included, with and without FOCUSED_PATIENCE's default of 1 s.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

from scrapy import Request, Spider
from scrapy.pqueues import ScrapyPriorityQueue
from scrapy.squeues import FifoMemoryQueue
from scrapy.utils.test import get_crawler

from focused.frontier.queues import Frontier, Record
from focused.frontier.records import RecordCodec

HOSTS = 2000
WORDS = "sql database query index schema table join recipe flour goal league planet orbit travel hotel".split()
SPIDER = Spider("bench")


def requests(n: int, seed: int = 1, per_page: int = 40) -> Iterator[tuple[str, Request]]:
    """Requests as the spider yields them, `per_page` links per parent page: URL, anchor,
    context, the parent (one shared string per page) and signals in meta."""
    rng = random.Random(seed)
    for i in range(n):
        if i % per_page == 0:
            parent, parent_relevance = f"http://www.site{rng.randrange(HOSTS)}.example/page{i}.html", rng.random()
        host = f"www.site{rng.randrange(HOSTS)}.example"
        meta = {
            "score": rng.random(),
            "anchor": " ".join(rng.choices(WORDS, k=3)),
            "context": " ".join(rng.choices(WORDS, k=12)),
            "parent_url": parent,
            "parent_relevance": parent_relevance,
            "signals": {
                "inherited": rng.random(),
                "anchor": rng.random(),
                "context": rng.random(),
                "url": rng.random(),
            },
        }
        url = f"http://{host}/section{rng.randrange(50)}/article-{i}-{'-'.join(rng.choices(WORDS, k=3))}.html"
        yield host, Request(url, meta={"focused": meta, "depth": 3})


class Ours:
    name = "focused Frontier (records)"

    def __init__(self) -> None:
        self.frontier, self.codec, self.seq = Frontier(), RecordCodec(), 0

    def push(self, host: str, request: Request) -> None:
        self.seq += 1
        self.frontier.push(host, self.codec.to_record(request, self.seq, SPIDER))

    def pop(self) -> Any:
        got = self.frontier.pop(0.0, lambda host: (0.0, False), patience=1.0, window=4)
        return got and self.codec.to_request(got[1], SPIDER, None)


class Baseline:
    name = "Scrapy ScrapyPriorityQueue (Requests)"

    def __init__(self) -> None:
        self.queue = ScrapyPriorityQueue(get_crawler(Spider), FifoMemoryQueue, "")

    def push(self, host: str, request: Request) -> None:
        request.priority = int(request.meta["focused"]["score"] * 1000)
        self.queue.push(request)

    def pop(self) -> Any:
        return self.queue.pop()


def rates(kind: Callable[[], Any], n: int) -> tuple[float, float]:
    batch = list(requests(n))
    queue = kind()
    gc.collect()
    started = time.perf_counter()
    for host, request in batch:
        queue.push(host, request)
    push = n / (time.perf_counter() - started)
    del batch
    started = time.perf_counter()
    popped = 0
    while queue.pop() is not None:
        popped += 1
    assert popped == n
    return push, n / (time.perf_counter() - started)


def bytes_per_url(kind: Callable[[], Any], n: int) -> float:
    gc.collect()
    tracemalloc.start()
    queue = kind()
    for host, request in requests(n):
        queue.push(host, request)
    gc.collect()
    retained = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del queue
    return retained / n


def resting_hosts(hosts: int, pops: int, patience: float, window: int = 2) -> tuple[float, int]:
    """Pops/s and records handed out, `hosts` hosts with 3 records each, most of them resting."""
    rng = random.Random(1)
    frontier, seq, clock = Frontier(), 0, 0.0
    delay = {f"h{h}": rng.uniform(0.5, 5.0) for h in range(hosts)}
    for host in delay:
        for _ in range(3):
            seq += 1
            frontier.push(host, Record(-rng.random(), seq, f"http://{host}/{seq}", 1))
    fetched: dict[str, float] = {}

    def wait(host: str) -> tuple[float, bool]:
        return max(0.0, fetched.get(host, -1e9) + delay[host] - clock), False

    handed, started = 0, time.perf_counter()
    for _ in range(pops):
        clock += 2e-5
        got = frontier.pop(clock, wait, patience, window)
        if got is not None:
            host, record = got
            fetched[host], handed, seq = clock, handed + 1, seq + 1
            frontier.release(host, delay[host], record.seq)
            frontier.push(host, Record(-rng.random(), seq, f"http://{host}/{seq}", 1))
    return pops / (time.perf_counter() - started), handed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--hosts", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    print(f"{'URLs':>9}  {'queue':<38} {'push/s':>9} {'pop/s':>9} {'bytes/URL':>10}")
    for n in args.sizes:
        for kind in (Ours, Baseline):
            push, pop = rates(kind, n)
            memory = bytes_per_url(kind, n)
            print(f"{n:9d}  {kind.name:<38} {push:9.0f} {pop:9.0f} {memory:10.0f}", flush=True)
    print(f"\n{'hosts':>9}  {'patience':>8} {'pop/s':>9} {'handed out':>11}  (100,000 pops, most hosts resting)")
    for hosts in args.hosts:
        for patience in (0.0, 1.0):
            rate, handed = resting_hosts(hosts, 100_000, patience)
            print(f"{hosts:9d}  {patience:8.1f} {rate:9.0f} {handed:11d}", flush=True)


if __name__ == "__main__":
    main()
