"""Fetches a profile's example URLs for `scrapy train`, under the project's politeness rules."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response
from twisted.python.failure import Failure

from focused.addon import FocusedSettings
from focused.fetching.hosthealth import failed_request


class ExamplesSpider(FocusedSettings):
    """Fetched as politely as a crawl, in any project. Yields {"url", "label", "body"} per example;
    failures are kept in `self.failures`."""

    name = "examples"
    custom_settings = {"SCHEDULER": "scrapy.core.scheduler.Scheduler", "FOCUSED_PROGRESS_INTERVAL": 0}

    def __init__(self, examples: list[tuple[str, int]], **kwargs: Any):
        super().__init__(**kwargs)
        self.examples = examples
        self.failures: dict[str, str] = {}

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url, label in self.examples:
            yield scrapy.Request(
                url,
                cb_kwargs={"label": label, "example": url},
                errback=self.failed,
                dont_filter=True,
                meta={"handle_httpstatus_all": True},
            )

    def parse(self, response: Response, label: int, example: str) -> Iterator[dict[str, Any]]:
        if response.status != 200:
            self.failures[example] = f"HTTP {response.status}"
            return
        yield {"url": response.url, "label": label, "body": response.body}

    def failed(self, failure: Failure) -> None:
        self.failures[failed_request(failure).url] = failure.getErrorMessage() or type(failure.value).__name__
