"""One crawl across many processes, on one machine or many, through a Redis server.

FOCUSED_REDIS_URL switches it on. Every process runs `scrapy crawl focused` with the same
profile and settings; the frontier, the seen set and the stream of items live in Redis under
FOCUSED_REDIS_KEY (default "focused:<profile name>"):

    KEY:q:HOST        sorted set  one host's queue: pickled records, scored by minus their score
    KEY:hosts         sorted set  hosts with queued records, scored by their best record
    KEY:claims        sorted set  records handed out, "host\\nscore\\nrecord", scored by a deadline
    KEY:lease:HOST:I  string      the host's I-th concurrency slot (CONCURRENT_REQUESTS_PER_DOMAIN)
    KEY:seen          set         request fingerprints (focused.urls.CanonicalFingerprinter)
    KEY:seq           integer     record numbers, reserved in blocks
    KEY:items         stream      every item, as JSON

Politeness holds for the crawl as a whole: a process fetches from a host only while it holds
one of the host's slots; it keeps the slot while the request is in flight and, after the
answer, lets it expire after the host's delay (so the next request of any process waits it
out). A killed process's slots expire after FOCUSED_REDIS_CLAIM_TIMEOUT, and so do its
claims: any process puts an expired claim back into its host's queue.

Scores from different processes are comparable: each process learns its own models from the
pages it fetches (learning is partitioned by fetch, not shared), scores the links it finds
and re-scores samples of the shared frontier with what it learned. robots.txt is fetched
and parsed once per process. Redis calls are made from the reactor thread: keep the server
near (same machine or LAN).
"""

from __future__ import annotations

import json
import pickle
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import redis
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from focused.frontier import Record, Wait
from focused.urls import host_of

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

SEQ_BLOCK = 1000
HOSTS_LOOKED_AT = 32  # best hosts tried per pop
REAP_INTERVAL = 1.0  # seconds between looks for expired claims
LEASE_POLL = 0.05  # seconds before a process that found nothing to fetch looks again

# Queue a record and keep the host's entry in KEY:hosts at its best record.
PUSH = """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
local best = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
redis.call('ZADD', KEYS[2], best[2], ARGV[3])
return 1
"""
# Take a host's best record into the claims, due back at ARGV[2] unless finished.
POP = """
local popped = redis.call('ZPOPMIN', KEYS[1])
if #popped == 0 then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return false
end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1] .. '\\n' .. popped[2] .. '\\n' .. popped[1])
local best = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #best == 0 then redis.call('ZREM', KEYS[2], ARGV[1]) else redis.call('ZADD', KEYS[2], best[2], ARGV[1]) end
return popped
"""
# Put claims whose deadline passed back into their hosts' queues.
REAP = """
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 500)
for _, claim in ipairs(expired) do
  local first = string.find(claim, '\\n', 1, true)
  local second = string.find(claim, '\\n', first + 1, true)
  local host, score, record = string.sub(claim, 1, first - 1), string.sub(claim, first + 1, second - 1),
    string.sub(claim, second + 1)
  local queue = ARGV[2] .. ':q:' .. host
  redis.call('ZADD', queue, score, record)
  local best = redis.call('ZRANGE', queue, 0, 0, 'WITHSCORES')
  redis.call('ZADD', ARGV[2] .. ':hosts', best[2], host)
  redis.call('ZREM', KEYS[1], claim)
end
return #expired
"""
# Replace a queued record by its re-scored version, unless some process took it meanwhile.
RESCORE = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
local best = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
redis.call('ZADD', KEYS[2], best[2], ARGV[4])
return 1
"""


def crawl_key(crawler: Crawler) -> str:
    spider = crawler.spider
    return crawler.settings.get("FOCUSED_REDIS_KEY") or f"focused:{spider.profile.name}"


def connect(crawler: Crawler) -> redis.Redis:
    url = crawler.settings.get("FOCUSED_REDIS_URL")
    if not url:
        raise NotConfigured
    return redis.Redis.from_url(url)


def _pack(record: Record) -> bytes:
    return pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)


class RedisFrontier:
    """The frontier of focused.frontier, shared through Redis (see the module docstring)."""

    # Host slots free themselves (expiry after a host's delay, other processes finishing) with no
    # event in this process: when no host can be fetched now, the scheduler looks again this soon.
    poll_interval = LEASE_POLL

    def __init__(self, client: redis.Redis, key: str, concurrency: int, claim_timeout: float, owner: str):
        self.r, self.key = client, key
        self.concurrency, self.claim_timeout, self.owner = concurrency, claim_timeout, owner
        self._push, self._pop = client.register_script(PUSH), client.register_script(POP)
        self._reap, self._rescore = client.register_script(REAP), client.register_script(RESCORE)
        self.leases: dict[int, str] = {}  # seq -> the host slot this process took to fetch the record
        self.claimed: dict[int, bytes] = {}  # seq -> claim member, for records this process handed out
        self.seq, self.seq_end = 0, 0
        self.reaped_at = 0.0

    def __len__(self) -> int:
        """Hosts with queued records plus records in flight, anywhere in the crawl: 0 when it is done."""
        return self.r.zcard(f"{self.key}:hosts") + self.r.zcard(f"{self.key}:claims")

    @property
    def hosts(self) -> int:
        return self.r.zcard(f"{self.key}:hosts")

    def next_seq(self, _: int) -> int:
        if self.seq >= self.seq_end:
            self.seq_end = self.r.incrby(f"{self.key}:seq", SEQ_BLOCK)
            self.seq = self.seq_end - SEQ_BLOCK
        self.seq += 1
        return self.seq

    def push(self, host: str, record: Record) -> None:
        self._push(keys=[f"{self.key}:q:{host}", f"{self.key}:hosts"], args=[record.key, _pack(record), host])

    def pop(self, now: float, wait: Wait, patience: float = 0.0, window: int = 0) -> tuple[str, Record] | None:
        """The best record of the best host this process may fetch now and can get a slot of."""
        self._reap_expired()
        for raw in self.r.zrange(f"{self.key}:hosts", 0, HOSTS_LOOKED_AT - 1):
            host = raw.decode()
            seconds, busy = wait(host)
            lease = None if busy or seconds > 0 else self._lease(host)
            if lease is None:
                continue
            deadline = time.time() + self.claim_timeout
            keys = [f"{self.key}:q:{host}", f"{self.key}:hosts", f"{self.key}:claims"]
            popped = self._pop(keys=keys, args=[host, deadline])
            if not popped:
                self.r.delete(lease)
                continue
            member, score = popped
            record = pickle.loads(member)
            self.claimed[record.seq] = b"%s\n%s\n%s" % (host.encode(), score, member)
            self.leases[record.seq] = lease
            return host, record
        return None

    def release(self, host: str, delay: float = 0.0, seq: int | None = None) -> None:
        """The request of record `seq` finished: its host slot stays taken for the host's delay, then frees itself."""
        lease = self.leases.pop(seq, None) if seq is not None else None
        if lease is None:
            return
        if delay > 0:
            self.r.set(lease, self.owner, xx=True, px=max(1, int(delay * 1000)))
        else:
            self.r.delete(lease)

    def finished(self, seq: int) -> None:
        member = self.claimed.pop(seq, None)
        if member is not None:
            self.r.zrem(f"{self.key}:claims", member)

    def close(self) -> None:
        """Put the records this process took and did not finish back in the queues, and free its host slots."""
        if self.claimed:
            self.r.zadd(f"{self.key}:claims", dict.fromkeys(self.claimed.values(), 0), xx=True)
            self.reaped_at = 0.0
            self._reap_expired()
        if self.leases:
            self.r.delete(*self.leases.values())

    def best_resting(self, wait: Wait) -> str | None:
        return None  # never park a request: another process may take the host meanwhile

    def take(self, host: str) -> Record:
        raise NotImplementedError("a shared frontier hands out records only through pop()")

    def drop_host(self, host: str) -> int:
        dropped = self.r.zcard(f"{self.key}:q:{host}")
        self.r.delete(f"{self.key}:q:{host}")
        self.r.zrem(f"{self.key}:hosts", host)
        return dropped

    def sample(self, limit: int) -> list[Record]:
        """The best records of the best hosts, up to `limit`, for re-scoring."""
        hosts = [h.decode() for h in self.r.zrange(f"{self.key}:hosts", 0, HOSTS_LOOKED_AT - 1)]
        share = max(1, limit // max(1, len(hosts)))
        pipe = self.r.pipeline()
        for host in hosts:
            pipe.zrange(f"{self.key}:q:{host}", 0, share - 1)
        return [pickle.loads(member) for members in pipe.execute() for member in members]

    def rescore(self, updates: dict[int, tuple[float, tuple]], records: list[Record] | None = None) -> None:
        for record in records or []:
            update = updates.get(record.seq)
            if update is not None:
                host = host_of(record.url)
                new = record._replace(key=update[0], signals=update[1])
                self._rescore(keys=[f"{self.key}:q:{host}", f"{self.key}:hosts"],
                              args=[_pack(record), new.key, _pack(new), host])

    def records(self) -> Iterator[tuple[str, Record]]:
        return iter(())  # the shared frontier persists in Redis, not in JOBDIR

    def _lease(self, host: str) -> str | None:
        """One of the host's free slots, taken until the claim deadline (a killed process's expire)."""
        ttl = int(self.claim_timeout * 1000)
        for slot in range(self.concurrency):
            key = f"{self.key}:lease:{host}:{slot}"
            if self.r.set(key, self.owner, nx=True, px=ttl):
                return key
        return None

    def _reap_expired(self) -> None:
        now = time.time()
        if now - self.reaped_at >= REAP_INTERVAL:
            self.reaped_at = now
            self._reap(keys=[f"{self.key}:claims"], args=[now, self.key])


class RedisDupeFilter:
    """DUPEFILTER_CLASS for a shared crawl: one seen set in Redis, fingerprints from REQUEST_FINGERPRINTER_CLASS."""

    def __init__(self, client: redis.Redis, key: str, fingerprinter: Any):
        self.r, self.key, self.fingerprinter = client, f"{key}:seen", fingerprinter

    def request_seen(self, request: Request) -> bool:
        return self.r.sadd(self.key, self.fingerprinter.fingerprint(request).hex()) == 0

    def open(self) -> None:
        return None

    def close(self, reason: str) -> None:
        return None

    def log(self, request: Request, spider: Any) -> None:
        return None


class RedisItemStream:
    """ITEM_PIPELINES entry: every item of a shared crawl goes to KEY:items (XADD), one stream for all processes."""

    def __init__(self, client: redis.Redis, key: str):
        self.r, self.key = client, f"{key}:items"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(connect(crawler), crawl_key(crawler))

    def process_item(self, item: Any) -> Any:
        self.r.xadd(self.key, {"item": json.dumps(ItemAdapter(item).asdict(), ensure_ascii=False)})
        return item
