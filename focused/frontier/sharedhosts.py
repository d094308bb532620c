"""One view of every host for all the processes of a shared crawl: its delay, what is in flight, its robots.txt.

Within one process Scrapy's downloader keeps a host polite. Processes that share a crawl
through Redis (FOCUSED_REDIS_URL) must behave as one client, so the rule is decided in Redis:

    KEY:host:HOST            hash        last_start, last_end (Redis clock, ms), latency (s, smoothed),
                                         crawl_delay (s), failures (consecutive)
    KEY:inflight:HOST        sorted set  requests in flight, scored by when they expire
    KEY:robots:HOST:PORT     hash        the site's robots.txt answer (status, body, flags), kept a day
    KEY:robots:HOST:PORT:fetching  str   the process fetching it

A request starts only when one atomic script (GATE) finds fewer than
CONCURRENT_REQUESTS_PER_DOMAIN requests in flight and the host's delay passed since the last
start and the last answer, whichever process made them. The delay is focused.frontier.politeness's,
from the facts every process shares (Crawl-delay, the latency they all observed, failures).
A host failing FOCUSED_HOST_MAX_FAILURES times in a row, whichever processes saw it, is given
up on by the crawl (KEY:dead): its requests waiting at the gate are dropped.
A killed process's requests leave the in-flight set after FOCUSED_REDIS_CLAIM_TIMEOUT; the
times it recorded stay, so the others cannot go faster. robots.txt is fetched by one process
and parsed by all; a process that dies while fetching it frees the claim after the timeout.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.asyncio import sleep
from scrapy.utils.httpobj import urlparse_cached

from focused.fetching.hosthealth import FAILURE_STATUS, HOST_ERRORS
from focused.fetching.refusals import Refused
from focused.fetching.robots import is_robots
from focused.frontier.distributed import connect, crawl_key, process_name
from focused.frontier.politeness import LATENCY_SMOOTHING, polite_delay
from focused.frontier.urls import host_of

if TYPE_CHECKING:
    from typing import Self

    import redis
    from scrapy import Request
    from scrapy.crawler import Crawler

POLL = 0.05  # seconds between looks at a host that is busy in another process
ROBOTS_TTL = 24 * 3600  # RFC 9309: a cached robots.txt is good for a day
SHARED = "shared-robots"  # flags a robots.txt answer another process fetched

# KEYS: host hash, in-flight set, dead hosts. ARGV: delay (ms), concurrency, claim timeout (ms), token, host.
# 0: started (the token is in flight); > 0: ms until the delay has passed; -1: at the concurrency limit;
# -2: the crawl gave up on the host.
GATE = """
if redis.call('SISMEMBER', KEYS[3], ARGV[5]) == 1 then return -2 end
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local last = redis.call('HMGET', KEYS[1], 'last_start', 'last_end')
local ready = math.max(tonumber(last[1]) or 0, tonumber(last[2]) or 0) + tonumber(ARGV[1])
if ready > now then return ready - now end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -1 end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[4])
redis.call('HSET', KEYS[1], 'last_start', now)
return 0
"""
# KEYS: host hash, in-flight set, dead hosts. ARGV: token, latency (s, or ''), smoothing, '1' if the fetch
# failed, consecutive failures after which the crawl gives up on the host, host.
RELEASE = """
local t = redis.call('TIME')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[1], 'last_end', t[1] * 1000 + math.floor(t[2] / 1000))
if ARGV[2] ~= '' then
  local old, seen = tonumber(redis.call('HGET', KEYS[1], 'latency')), tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'latency', old and (old + tonumber(ARGV[3]) * (seen - old)) or seen)
end
if ARGV[4] ~= '1' then
  redis.call('HSET', KEYS[1], 'failures', 0)
elseif redis.call('HINCRBY', KEYS[1], 'failures', 1) >= tonumber(ARGV[5]) then
  redis.call('SADD', KEYS[3], ARGV[6])
end
return 1
"""

# KEYS: the site's stored answer, its fetch claim. ARGV: this process, claim timeout (ms).
# 1: fetch it (claimed now, or already by this process: a retry); 0: another process is fetching it;
# 2: its answer is stored. One step, so no process claims a robots.txt stored a moment ago.
CLAIM_ROBOTS = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 2 end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[2]) == ARGV[1] then return 1 end
return 0
"""


class SharedHosts:
    """The hosts' shared state in Redis, and the one decision that needs atomicity: may a request start now."""

    def __init__(
        self,
        client: redis.Redis,
        key: str,
        concurrency: int,
        claim_timeout: float,
        base_delay: float,
        latency_factor: float,
        max_delay: float,
        max_failures: int,
    ):
        self.r, self.key = client, key
        self.concurrency, self.claim_timeout = concurrency, claim_timeout
        self.base_delay, self.latency_factor, self.max_delay = base_delay, latency_factor, max_delay
        self.max_failures = max_failures
        self._gate, self._release = client.register_script(GATE), client.register_script(RELEASE)
        self._claim_robots = client.register_script(CLAIM_ROBOTS)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        return cls(
            connect(crawler),
            crawl_key(crawler),
            settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN"),
            settings.getfloat("FOCUSED_REDIS_CLAIM_TIMEOUT"),
            settings.getfloat("DOWNLOAD_DELAY"),
            settings.getfloat("FOCUSED_LATENCY_FACTOR"),
            settings.getfloat("FOCUSED_MAX_DELAY"),
            settings.getint("FOCUSED_HOST_MAX_FAILURES"),
        )

    def _keys(self, host: str) -> list[str]:
        return [f"{self.key}:host:{host}", f"{self.key}:inflight:{host}", f"{self.key}:dead"]

    def _delay(self, facts: dict[bytes, bytes]) -> float:
        def fact(name: bytes) -> float:
            return float(facts.get(name, 0))

        failures = min(int(fact(b"failures")), self.max_failures)  # the crawl gives up on the host there
        return polite_delay(
            self.base_delay, fact(b"crawl_delay"), fact(b"latency"), failures, self.latency_factor, self.max_delay
        )

    def start(self, host: str, token: str) -> float:
        """0 if the request may start now (it is then in flight); else seconds to wait before asking again."""
        delay = self._delay(cast("dict[bytes, bytes]", self.r.hgetall(self._keys(host)[0])))
        args: list[int | str] = [int(delay * 1000), self.concurrency, int(self.claim_timeout * 1000), token, host]
        waited = self._gate(keys=self._keys(host), args=args)
        if waited == -2:
            raise Refused("host_dead", host)
        return POLL if waited < 0 else waited / 1000

    def finish(self, host: str, token: str, latency: float | None, failed: bool) -> None:
        args = [token, "" if latency is None else latency, LATENCY_SMOOTHING, int(failed), self.max_failures, host]
        self._release(keys=self._keys(host), args=args)

    def busy(self, hosts: Iterable[str]) -> set[str]:
        """Of `hosts`, those another request could not start on now (a hint for choosing: `start` decides)."""
        hosts = list(hosts)
        pipe = self.r.pipeline(transaction=False)
        now_ms = time.time() * 1000
        for host in hosts:
            facts_key, inflight_key, _ = self._keys(host)
            pipe.hgetall(facts_key)
            pipe.zcount(inflight_key, now_ms, "+inf")
        replies = pipe.execute()
        busy = set()
        for host, facts, inflight in zip(hosts, replies[::2], replies[1::2]):
            last = max(float(facts.get(b"last_start", 0)), float(facts.get(b"last_end", 0)))
            if inflight >= self.concurrency or last + self._delay(facts) * 1000 > now_ms:
                busy.add(host)
        return busy

    def set_crawl_delay(self, host: str, seconds: float) -> None:
        self.r.hset(self._keys(host)[0], "crawl_delay", seconds)

    # --- robots.txt, once for the crawl ---------------------------------------
    def robots(self, site: str) -> dict[bytes, bytes] | None:
        """The stored robots.txt answer of a site (host[:port]), if some process fetched it."""
        return cast("dict[bytes, bytes]", self.r.hgetall(f"{self.key}:robots:{site}")) or None

    def claim_robots(self, site: str, owner: str) -> int:
        """1: this process is the one to fetch the site's robots.txt; 0: another is; 2: it is stored."""
        keys = [f"{self.key}:robots:{site}", f"{self.key}:robots:{site}:fetching"]
        return self._claim_robots(keys=keys, args=[owner, int(self.claim_timeout * 1000)])

    def unclaim_robots(self, site: str) -> None:
        self.r.delete(f"{self.key}:robots:{site}:fetching")

    def store_robots(self, site: str, response: Response) -> None:
        key = f"{self.key}:robots:{site}"
        pipe = self.r.pipeline()
        pipe.hset(key, mapping={"status": response.status, "body": response.body, "flags": "\n".join(response.flags)})
        pipe.expire(key, ROBOTS_TTL)
        pipe.delete(f"{key}:fetching")
        pipe.execute()


class SharedPolitenessMiddleware:
    """Downloader middleware, last before the downloader: a request of a shared crawl waits here until
    the shared gate lets it start (robots.txt included), and its answer is recorded for all processes."""

    def __init__(self, hosts: SharedHosts, owner: str):
        self.hosts, self.owner = hosts, owner
        self.tokens: dict[int, str] = {}  # id(request) -> its in-flight token
        self.counter = itertools.count()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.get("FOCUSED_REDIS_URL"):
            raise NotConfigured
        return cls(SharedHosts.from_crawler(crawler), process_name())

    async def process_request(self, request: Request) -> None:
        host, token = host_of(request.url), f"{self.owner}:{next(self.counter)}"
        while (seconds := self.hosts.start(host, token)) > 0:
            await sleep(seconds)
        self.tokens[id(request)] = token

    def process_response(self, request: Request, response: Response) -> Response:
        self._finish(request, failed=response.status in FAILURE_STATUS)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        self._finish(request, failed=isinstance(exception, HOST_ERRORS))

    def _finish(self, request: Request, failed: bool) -> None:
        token = self.tokens.pop(id(request), None)  # None: refused or answered before reaching the gate
        if token is not None:
            self.hosts.finish(host_of(request.url), token, request.meta.get("download_latency"), failed)


class SharedRobotsMiddleware:
    """Downloader middleware: in a shared crawl, a host's robots.txt is fetched by one process and
    its final answer (after retries, an unreachable one as disallow-all) served to the others."""

    def __init__(self, crawler: Crawler, hosts: SharedHosts, owner: str):
        self.crawler, self.hosts, self.owner = crawler, hosts, owner
        crawler.signals.connect(self._parsed, signal=signals.robots_parsed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.get("FOCUSED_REDIS_URL"):
            raise NotConfigured
        return cls(crawler, SharedHosts.from_crawler(crawler), process_name())

    async def process_request(self, request: Request) -> Response | None:
        if not is_robots(request):
            return None
        site = urlparse_cached(request).netloc  # robots.txt rules a scheme, host and port
        while (stored := self.hosts.robots(site)) is None:
            claim = self.hosts.claim_robots(site, self.owner)
            if claim == 1:
                return None  # this process fetches it
            if claim == 0:
                await sleep(POLL)
        flags = [flag for flag in stored.get(b"flags", b"").decode().split("\n") if flag]
        return Response(
            request.url, status=int(stored[b"status"]), body=stored[b"body"], flags=[*flags, SHARED], request=request
        )

    def process_response(self, request: Request, response: Response) -> Response:
        if is_robots(request) and SHARED not in response.flags:
            self.hosts.store_robots(urlparse_cached(request).netloc, response)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        if is_robots(request):  # no answer to share (refused, say): another process may try
            self.hosts.unclaim_robots(urlparse_cached(request).netloc)

    def _parsed(self, robotparser: Any, request: Request) -> None:
        """Every process parses the same answer; the Crawl-delay goes into the shared delay at once."""
        user_agent = self.crawler.settings.get("ROBOTSTXT_USER_AGENT") or self.crawler.settings.get("USER_AGENT")
        crawl_delay = getattr(robotparser, "crawl_delay", lambda ua: None)(user_agent)
        if crawl_delay:
            self.hosts.set_crawl_delay(host_of(request.url), float(crawl_delay))
