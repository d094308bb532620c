"""An item pipeline for tests: a crawl that judges its pages slower than it fetches them.

Items pass one at a time, each held TESTBED_ITEM_SECONDS, and the time each one leaves is appended to
TESTBED_ITEM_LOG (JSON lines: url, t), so that a test can set when each page was done with against when the
server saw it requested.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from twisted.internet import reactor
from twisted.internet.defer import Deferred, DeferredLock
from twisted.internet.task import deferLater

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler


class Bottleneck:
    def __init__(self, seconds: float, log: Path):
        self.seconds, self.log = seconds, log
        self.lock = DeferredLock()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler.settings.getfloat("TESTBED_ITEM_SECONDS"), Path(crawler.settings["TESTBED_ITEM_LOG"]))

    def process_item(self, item: Any) -> Deferred:
        return self.lock.run(deferLater, reactor, self.seconds, self._done, item)

    def _done(self, item: Any) -> Any:
        with self.log.open("a") as f:
            f.write(json.dumps({"url": ItemAdapter(item)["url"], "t": time.time()}) + "\n")
        return item
