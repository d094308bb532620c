"""What focused.scrapyinternals relies on in Scrapy, checked against Scrapy's own objects: a Scrapy upgrade that
changes any of it fails here, by name, rather than as a slower or less polite crawl."""

from __future__ import annotations

import inspect

import pytest
from scrapy import Request, Spider
from scrapy.core.downloader import Downloader, Slot
from scrapy.core.engine import ExecutionEngine, _Slot
from scrapy.downloadermiddlewares.redirect import RedirectMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from scrapy.resolver import dnscache
from scrapy.utils.test import get_crawler

from focused.scrapyinternals import DownloaderSlots, engine_wakeup, scrapy_drop_reason

URLS = ["http://docs.example/a", "https://docs.example:8443/b?x=1", "http://other.example/"]


@pytest.mark.filterwarnings("ignore:The CONCURRENT_REQUESTS_PER_IP setting is deprecated")
@pytest.mark.parametrize("per_ip", [0, 2])
def test_slot_keys_are_the_downloaders_own(per_ip: int):
    downloader = Downloader(get_crawler(Spider, {"CONCURRENT_REQUESTS_PER_IP": per_ip}))
    dnscache["docs.example"] = "192.0.2.7"
    try:
        slots = DownloaderSlots.of(downloader)
        for url in URLS:
            request = Request(url)
            host = request.url.split("/")[2].split(":")[0]
            assert slots.key(host) == downloader.get_slot_key(request), url
    finally:
        del dnscache["docs.example"]


def test_the_slot_a_downloader_makes_has_the_fields_read_and_set():
    downloader = Downloader(get_crawler(Spider, {"DOWNLOAD_DELAY": 0.5}))
    request = Request("http://docs.example/a")
    slot = downloader.slots[downloader.get_slot_key(request)] = Slot(2, 0.5, 0.5)  # as the downloader makes one
    slots = DownloaderSlots.of(downloader)
    assert slots.in_flight("docs.example") == 0 and slots.answered_at("docs.example") == 0.0
    slot.active.add(request)
    slots.mark_answered("docs.example", 12.5)
    slots.enforce_delay("docs.example", 2.0)
    assert slots.in_flight("docs.example") == 1 and slots.answered_at("docs.example") == 12.5
    assert slot.download_delay() == 2.0  # no jitter left: the delay the downloader keeps is exactly ours
    assert slots.in_flight("unknown.example") == 0  # no slot yet: nothing in flight, never answered


def test_the_engine_keeps_its_next_request_call_where_we_look():
    engine = ExecutionEngine(get_crawler(Spider), lambda _: None)
    assert engine_wakeup(engine) is None  # no spider open
    assert "nextcall" in inspect.signature(_Slot.__init__).parameters


def test_scrapy_still_says_why_it_dropped_a_redirect():
    middleware = RedirectMiddleware.from_crawler(get_crawler(Spider, {"REDIRECT_MAX_TIMES": 1}))
    first = Request("http://docs.example/a")
    again = first.replace(url="http://docs.example/b", meta={"redirect_times": 1})
    response = Response(again.url, status=301, headers={"Location": "/c"}, request=again)
    with pytest.raises(IgnoreRequest) as dropped:
        middleware.process_response(again, response)
    assert scrapy_drop_reason(dropped.value) == "redirect_loop"
