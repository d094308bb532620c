"""A collection shared through Redis (FOCUSED_REDIS_URL): one history, one claim per due page, one fetch rate.

    KEY:visits      stream      every history entry (visit, revisit ended without one, new links found),
                                pickled, with the process that logged it
    KEY:history     hash        the last snapshot: `entries` (pickled pages), `last` (the stream entry it includes)
    KEY:revisiting  hash        url -> "generation until": a process queued the page's revisit
    KEY:pace        string      when the crawl's next fetch may start (Redis clock, microseconds)

Every process holds the whole history and applies the others' entries as it plans (focused.refresh.history),
so all plan alike; a due page is queued by whichever process claims it first for the page's generation
(its visits plus its revisits that ended without one): a process whose history is behind claims an older
generation and is refused. A claim lost with its process is free again after LEASE. The pace is one
generic cell rate in Redis: every process takes its fetch slots from it, so the rate holds for the crawl.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any, cast
from uuid import uuid4

from focused.frontier.distributed import process_name

if TYPE_CHECKING:
    import redis

READ_BATCH = 1000  # stream entries per read
LEASE = 3600.0  # seconds a claimed revisit stays claimed when nothing ends it (its process died)
TRIM_MARGIN = 600_000  # ms of entries kept before a snapshot's last, for processes a little behind

# KEYS: the snapshot hash, the stream. ARGV: the snapshot's last entry, the snapshot, the stream's new first entry.
# Keeps the newest snapshot when processes close together.
SAVE = """
local held = redis.call('HGET', KEYS[1], 'last')
if held then
  local hm, hs = string.match(held, '(%d+)-(%d+)')
  local nm, ns = string.match(ARGV[1], '(%d+)-(%d+)')
  if tonumber(hm) > tonumber(nm) or (hm == nm and tonumber(hs) >= tonumber(ns)) then return 0 end
end
redis.call('HSET', KEYS[1], 'last', ARGV[1], 'entries', ARGV[2])
redis.call('XTRIM', KEYS[2], 'MINID', ARGV[3])
return 1
"""
# KEYS: the claims hash. ARGV: url, the page's generation as the claimer knows it, seconds the claim holds.
CLAIM = """
local t = redis.call('TIME')
local now = t[1] + t[2] / 1000000
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held then
  local generation, hold = string.match(held, '(%d+) (%S+)')
  if tonumber(generation) >= tonumber(ARGV[2]) and tonumber(hold) > now then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. string.format('%.3f', now + tonumber(ARGV[3])))
return 1
"""
# KEYS: the pace. ARGV: microseconds between fetches. {1, the pace now} if a fetch may start (it took the
# slot); {0, microseconds to wait} if not.
TAKE = """
local t = redis.call('TIME')
local now = t[1] * 1000000 + t[2]
local next_at = tonumber(redis.call('GET', KEYS[1]) or '0')
if next_at > now then return {0, next_at - now} end
local taken = string.format('%.0f', now + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], taken)
return {1, taken}
"""
# KEYS: the pace. ARGV: the pace as the slot was taken, as it was before. Gives the slot back unless another
# process took the next one meanwhile.
REFUND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) end
return 1
"""


class SharedLog:
    """The history's log (focused.refresh.history.Log) in a Redis stream, read by every process."""

    recovers = False  # the entries after the snapshot are the other processes' work, not a crash's

    def __init__(self, client: redis.Redis, key: str):
        self.r, self.stream, self.snapshot = client, f"{key}:visits", f"{key}:history"
        self.me = f"{process_name()}:{uuid4().hex[:8]}".encode()  # a restarted process's pid may repeat
        self.last = "0-0"  # the last stream entry read
        self._save = client.register_script(SAVE)

    def load(self) -> tuple[dict[str, Any] | None, list[Any]]:
        """The last snapshot any process saved, and every entry logged since."""
        last, entries = cast("list[bytes | None]", self.r.hmget(self.snapshot, "last", "entries"))
        snapshot = None
        if last is not None and entries is not None:
            snapshot, self.last = pickle.loads(entries), last.decode()  # our own Redis keys, as for the frontier
        return snapshot, self._read(own=True)

    def append(self, entry: Any) -> None:
        self.r.xadd(self.stream, {"process": self.me, "entry": pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)})

    def news(self) -> list[Any]:
        """The entries other processes logged since the last read."""
        return self._read(own=False)

    def save(self, snapshot: dict[str, Any]) -> None:
        """Store the snapshot as of the last entry read (all of this process's own are before it) and drop the
        entries it holds, but for the last TRIM_MARGIN."""
        if self.last == "0-0":
            return
        keep = f"{max(int(self.last.split('-')[0]) - TRIM_MARGIN, 0)}-0"
        state = pickle.dumps(snapshot, protocol=pickle.HIGHEST_PROTOCOL)
        self._save(keys=[self.snapshot, self.stream], args=[self.last, state, keep])

    def close(self) -> None:
        return None

    def _read(self, own: bool) -> list[Any]:
        entries = []
        while batch := cast(
            "list[tuple[bytes, dict[bytes, bytes]]]", self.r.xrange(self.stream, f"({self.last}", "+", count=READ_BATCH)
        ):
            for _, fields in batch:
                if own or fields[b"process"] != self.me:
                    entries.append(pickle.loads(fields[b"entry"]))
            self.last = batch[-1][0].decode()
        return entries


class SharedClaims:
    """Which process queues a due page's revisit (focused.refresh.revisits.Claims)."""

    def __init__(self, client: redis.Redis, key: str):
        self.key = f"{key}:revisiting"
        self._claim = client.register_script(CLAIM)

    def take(self, url: str, generation: int) -> bool:
        return bool(self._claim(keys=[self.key], args=[url, generation, LEASE]))


class SharedPace:
    """focused.refresh.revisits.Pace for all the processes of a shared crawl, on the Redis clock."""

    def __init__(self, client: redis.Redis, key: str, rate: float):
        self.key, self.interval = f"{key}:pace", round(1e6 / rate)
        self._take, self._refund = client.register_script(TAKE), client.register_script(REFUND)
        self.taken: int | None = None

    def take(self, now: float) -> float:
        took, value = self._take(keys=[self.key], args=[self.interval])
        self.taken = int(value) if took else None
        return 0.0 if took else int(value) / 1e6

    def refund(self) -> None:
        if self.taken is not None:
            self._refund(keys=[self.key], args=[self.taken, self.taken - self.interval])
            self.taken = None
