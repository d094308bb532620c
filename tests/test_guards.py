"""Trap guards, near-duplicates and politeness arithmetic, as pure logic."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.core.downloader import Slot

from focused.frontier.politeness import HostPoliteness
from focused.frontier.traps import TrapGuard
from focused.pages.neardup import SimHashIndex, fingerprint
from focused.scrapyinternals import DownloaderSlots

TEXT = " ".join(f"word{i % 97} topic{i % 13} filler{i % 7}" for i in range(200))


def test_trap_guard_rules():
    guard = TrapGuard(max_segment_repeat=2, max_calendar_urls=3, max_query_variants=2)
    assert guard.trap("http://h/docs/docs/") is None
    assert guard.trap("http://h/docs/docs/docs/") == "repeated_segment"
    assert [guard.trap(f"http://h/events/2024/{m}") for m in (1, 2, 3, 4)] == [None, None, None, "calendar"]
    assert guard.trap("http://h/events/2024/1") is None  # already admitted: the seen test decides
    assert guard.trap("http://other/events/2024/4") is None  # counted per host
    assert [guard.trap(f"http://h/list?page={n}") for n in (1, 2, 3)] == [None, None, "query_variants"]
    assert guard.trap("http://h/other?page=3") is None  # counted per path


def test_near_duplicates_are_found_and_different_texts_are_not():
    index = SimHashIndex(max_distance=3)
    assert index.duplicate_of("http://a/", fingerprint(TEXT)) is None
    assert index.duplicate_of("http://mirror/", fingerprint(TEXT + " Mirror copy.")) == "http://a/"
    other = " ".join(f"other{i % 89} thing{i % 11}" for i in range(200))
    assert index.duplicate_of("http://b/", fingerprint(other)) is None
    assert fingerprint("") is None and index.duplicate_of("http://empty/", None) is None
    assert (fingerprint(TEXT).value ^ fingerprint(other).value).bit_count() > 10


def test_a_text_too_short_for_simhash_is_a_duplicate_of_the_same_words_only():
    index = SimHashIndex(max_distance=3)
    listing = "Apache HTTP Server Version 2.4. This page documents all the executable programs."
    assert index.duplicate_of("http://h/programs/index.html", fingerprint(listing)) is None
    assert index.duplicate_of("http://h/programs/index.html", fingerprint(listing)) is None  # itself, read again
    copy = "apache http server version 2.4 -- this page documents all the executable programs"
    assert index.duplicate_of("http://h/programs/index.html/print", fingerprint(copy)) == "http://h/programs/index.html"
    one_word_more = listing + " Indeed."
    assert index.duplicate_of("http://h/other.html", fingerprint(one_word_more)) is None
    assert index.duplicate_of("http://h/long.html", fingerprint(TEXT)) is None  # short and long never compared


def test_host_delay_is_the_largest_of_setting_crawl_delay_and_latency_and_backs_off_on_failure():
    slot = Slot(concurrency=1, delay=0.0, jitter=0.5)
    slot.lastseen = 100.0
    now = [100.2]
    hosts = HostPoliteness(
        DownloaderSlots({"h": slot}),
        concurrency=1,
        delay=0.25,
        latency_factor=2.0,
        max_delay=10.0,
        max_failures=3,
        clock=lambda: now[0],
    )
    assert hosts.delay("h") == 0.25
    hosts.observe_latency("h", 0.5)
    assert hosts.delay("h") == 1.0 and slot.delay == 1.0 and slot.jitter == 0.0  # written into the slot
    hosts.robots_parsed(
        "h", SimpleNamespace(crawl_delay=lambda ua: 2.0, allowed=lambda url, ua: "/private" not in url), "ua"
    )
    assert hosts.delay("h") == 2.0
    assert hosts.wait("h") == (pytest.approx(1.8), False)
    assert not hosts.allowed("h", "http://h/private/x", "ua") and hosts.allowed("h", "http://h/x", "ua")
    now[0] = 101.0
    hosts.finished("h")
    assert slot.lastseen == 101.0 and hosts.wait("h") == (2.0, False)  # the delay counts from the answer
    slot.active.add(Request("http://h/"))
    assert hosts.wait("h")[1]  # at its concurrency limit
    assert not hosts.failed("h") and hosts.delay("h") == 4.0
    assert not hosts.failed("h") and hosts.delay("h") == 8.0
    assert hosts.failed("h") and "h" in hosts.dead  # the third consecutive failure gives up
    hosts.succeeded("h")
    assert hosts.delay("h") == 2.0


def test_a_request_refused_before_the_downloader_frees_its_host_at_once():
    hosts = HostPoliteness(
        DownloaderSlots({"h": Slot(concurrency=1, delay=0.0, jitter=0.0)}),
        concurrency=1,
        delay=0.0,
        latency_factor=0.0,
        max_delay=10.0,
        max_failures=3,
        clock=lambda: 50.0,
    )
    hosts.handed_out("h", 1)
    assert hosts.wait("h")[1]  # busy until it reaches the downloader ...
    assert hosts.dropped("h", 1) and hosts.wait("h") == (0.0, False)  # ... or a middleware refuses it
    hosts.handed_out("h", 2)
    hosts.reached_downloader("h", 2)
    assert not hosts.dropped("h", 2)  # a downloaded request is finished by the downloader's signal
