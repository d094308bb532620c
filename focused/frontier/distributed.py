"""One crawl across many processes, on one machine or many, through a Redis server.

FOCUSED_REDIS_URL switches it on. Every process runs `scrapy crawl focused` with the same
profile and settings; the frontier, the seen set and the stream of items live in Redis under
FOCUSED_REDIS_KEY (default "focused:<profile name>"):

    KEY:q:HOST        sorted set  one host's queue: pickled records, scored by minus their score
    KEY:hosts         sorted set  hosts with queued records, scored by their best record
    KEY:claims        sorted set  records handed out, "host\\nscore\\nrecord", scored by a deadline
    KEY:dead          set         hosts given up on (FOCUSED_HOST_MAX_FAILURES): nothing is queued for them
    KEY:seen          set         request fingerprints (focused.frontier.urls.CanonicalFingerprinter)
    KEY:seq           integer     record numbers, reserved in blocks
    KEY:items         stream      every item, as JSON

Politeness holds for the crawl as a whole: focused.frontier.sharedhosts keeps one view of each host
(delay, requests in flight, robots.txt) and lets a request start only when the host allows it,
whichever process sends it; this frontier prefers hosts that view says are free. A killed
process's claims expire after FOCUSED_REDIS_CLAIM_TIMEOUT: any process puts an expired claim
back into its host's queue.

Scores from different processes are comparable: each process learns its own models from the
pages it fetches (learning is partitioned by fetch, not shared), scores the links it finds
and re-scores samples of the shared frontier with what it learned. Redis calls are made from
the reactor thread: keep the server near (same machine or LAN).
"""

from __future__ import annotations

import json
import pickle
import time
from os import getpid
from socket import gethostname
from typing import TYPE_CHECKING, Any, cast

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from focused.frontier.queues import Record, Wait
from focused.frontier.urls import host_of

if TYPE_CHECKING:
    from typing import Self

    import redis
    from scrapy import Request
    from scrapy.crawler import Crawler

    from focused.frontier.sharedhosts import SharedHosts

SEQ_BLOCK = 1000
HOSTS_LOOKED_AT = 32  # best hosts tried per pop
REAP_INTERVAL = 1.0  # seconds between looks for expired claims
POLL = 0.05  # seconds before a process that found nothing to fetch looks again
IDLE_GRACE = 2.0  # seconds a shared frontier must look empty before this process calls the crawl done

# Queue a record (unless its host is dead) and keep the host's entry in KEY:hosts at its best record.
PUSH = """
if redis.call('SISMEMBER', KEYS[3], ARGV[3]) == 1 then return 0 end
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
    profile = getattr(crawler.spider, "profile")  # the focused spider's (a service locator: issue 15)
    return crawler.settings.get("FOCUSED_REDIS_KEY") or f"focused:{profile.name}"


def connect(crawler: Crawler) -> redis.Redis:
    url = crawler.settings.get("FOCUSED_REDIS_URL")
    if not url:
        raise NotConfigured
    import redis  # an extra: the spider checked it is installed (focused.addon.require)

    return redis.Redis.from_url(url)


def process_name() -> str:
    """Who a shared crawl's process is, in Redis: host name and process id."""
    return f"{gethostname()}:{getpid()}"


def _pack(record: Record) -> bytes:
    return pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)


class RedisFrontier:
    """The frontier of focused.frontier.queues, shared through Redis (see the module docstring): FrontierStore and
    Shared. It never parks a request (another process may take the host meanwhile); the shared gate
    (focused.frontier.sharedhosts) rests hosts, and Redis keeps the frontier."""

    def __init__(self, client: redis.Redis, key: str, claim_timeout: float, shared: SharedHosts):
        self.r, self.key = client, key
        self.claim_timeout, self.shared = claim_timeout, shared
        self._push, self._pop = client.register_script(PUSH), client.register_script(POP)
        self._reap, self._rescore = client.register_script(REAP), client.register_script(RESCORE)
        self.claimed: dict[int, bytes] = {}  # seq -> claim member, for records this process handed out
        self.seq, self.seq_end = 0, 0
        self.reaped_at = 0.0
        self.busy_at = time.monotonic()

    def __len__(self) -> int:
        """Hosts with queued records plus records in flight, anywhere in the crawl: 0 when it is done.
        An empty look counts as done only IDLE_GRACE seconds after the last busy one (or the start):
        another process may be between marking a URL seen and queueing it."""
        size = self.r.zcard(f"{self.key}:hosts") + self.r.zcard(f"{self.key}:claims")
        now = time.monotonic()
        if size:
            self.busy_at = now
        return size or int(now - self.busy_at < IDLE_GRACE)

    @property
    def hosts(self) -> int:
        return self.r.zcard(f"{self.key}:hosts")

    def next_seq(self, _: int) -> int:
        if self.seq >= self.seq_end:
            self.seq_end = self.r.incrby(f"{self.key}:seq", SEQ_BLOCK)
            self.seq = self.seq_end - SEQ_BLOCK
        self.seq += 1
        return self.seq

    def next_look(self, now: float) -> float | None:
        """Hosts free themselves (delays passing, other processes finishing) with no event in this
        process: while the crawl holds work, look again after POLL seconds."""
        return POLL if len(self) else None

    def push(self, host: str, record: Record) -> None:
        keys = [f"{self.key}:q:{host}", f"{self.key}:hosts", f"{self.key}:dead"]
        self._push(keys=keys, args=[record.key, _pack(record), host])

    def pop(self, now: float, wait: Wait, patience: float = 0.0, window: int = 0) -> tuple[str, Record] | None:
        """The best record of the best host that this process and the shared view both find free."""
        self._reap_expired()
        hosts = self._best_hosts()
        ready = [host for host in hosts if wait(host) == (0.0, False)]
        busy = self.shared.busy(ready) if ready else set()
        for host in ready:
            if host in busy:
                continue
            deadline = time.time() + self.claim_timeout
            keys = [f"{self.key}:q:{host}", f"{self.key}:hosts", f"{self.key}:claims"]
            popped = self._pop(keys=keys, args=[host, deadline])
            if popped:
                member, score = popped
                record = pickle.loads(member)
                self.claimed[record.seq] = b"%s\n%s\n%s" % (host.encode(), score, member)
                return host, record
        return None

    def finished(self, seq: int) -> None:
        member = self.claimed.pop(seq, None)
        if member is not None:
            self.r.zrem(f"{self.key}:claims", member)

    def close(self) -> None:
        """Put the records this process took and did not finish back in the queues."""
        if self.claimed:
            self.r.zadd(f"{self.key}:claims", dict.fromkeys(self.claimed.values(), 0), xx=True)
            self.reaped_at = 0.0
            self._reap_expired()

    def drop_host(self, host: str) -> int:
        """Give up on a host for every process: its queue goes, and nothing more is queued for it."""
        pipe = self.r.pipeline()
        pipe.zcard(f"{self.key}:q:{host}")
        pipe.delete(f"{self.key}:q:{host}")
        pipe.zrem(f"{self.key}:hosts", host)
        pipe.sadd(f"{self.key}:dead", host)
        return pipe.execute()[0]

    def _best_hosts(self) -> list[str]:
        """The hosts whose best records rank highest, up to HOSTS_LOOKED_AT."""
        hosts = cast("list[bytes]", self.r.zrange(f"{self.key}:hosts", 0, HOSTS_LOOKED_AT - 1))
        return [host.decode() for host in hosts]

    def sample(self, limit: int) -> list[Record]:
        """The best records of the best hosts, up to `limit`, for re-scoring."""
        hosts = self._best_hosts()
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
                self._rescore(
                    keys=[f"{self.key}:q:{host}", f"{self.key}:hosts"], args=[_pack(record), new.key, _pack(new), host]
                )

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
