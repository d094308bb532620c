"""JavaScript rendering where it pays: scrapy-playwright driving a headless Chromium.

A browser renders about 6 pages/s here, a plain fetch hundreds, so pages are rendered only
  - on hosts the profile lists (`[crawl] render_hosts`) or FOCUSED_RENDER_HOSTS names, or
  - when FOCUSED_RENDER_DETECT is on and a fetched page looks like a script-built app shell
    (little text, few links, scripts): it is fetched once more, through the browser,
within a per-crawl budget (FOCUSED_RENDER_BUDGET) and a per-host one (FOCUSED_RENDER_PER_HOST);
past them, pages are fetched plainly and counted (focused/render/over_budget). The browser
is Chromium from FOCUSED_CHROMIUM (Debian's /usr/bin/chromium: `playwright install` is not
needed), started only by a crawl that may render, and it goes through the crawl's HTTP proxy.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import TYPE_CHECKING
from urllib.request import getproxies

from scrapy.utils.httpobj import urlparse_cached

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

    from focused.pages.extract import Page

logger = logging.getLogger(__name__)
META = "focused_render"  # set on a request that should be rendered if the budget allows
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHELL_TEXT = 200  # characters: less main text than this, and scripts, and few links: an app shell
SHELL_LINKS = 3
SKIPPED_RESOURCES = frozenset({"image", "media", "font", "stylesheet"})


def rendering_wanted(settings: BaseSettings, render_hosts: tuple[str, ...]) -> bool:
    return bool(render_hosts or settings.getlist("FOCUSED_RENDER_HOSTS") or settings.getbool("FOCUSED_RENDER_DETECT"))


def enable_rendering(settings: BaseSettings) -> None:
    """Route requests marked for the browser through scrapy-playwright (others keep Scrapy's handler)."""
    handler = "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"
    settings.set("DOWNLOAD_HANDLERS", {"http": handler, "https": handler}, priority="spider")
    launch = {"executable_path": settings.get("FOCUSED_CHROMIUM"), "headless": True, "args": CHROMIUM_FLAGS}
    proxy = getproxies().get("http")
    if proxy:
        launch["proxy"] = {"server": proxy}
    settings.set("PLAYWRIGHT_BROWSER_TYPE", "chromium", priority="spider")
    settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", launch, priority="spider")
    settings.set("PLAYWRIGHT_ABORT_REQUEST", skip_resource, priority="spider")


def skip_resource(request) -> bool:
    """The browser loads what builds the page (HTML, scripts, data), not images, media, fonts or styles."""
    return request.resource_type in SKIPPED_RESOURCES


def looks_like_app_shell(response: Response, page: Page) -> bool:
    """Little text, few links, and scripts: the content is probably built by JavaScript."""
    if response.meta.get("playwright") or len(page.text) >= SHELL_TEXT or len(page.links) >= SHELL_LINKS:
        return False
    return bool(response.xpath("//script"))


class RenderingMiddleware:
    """Decides, within the budgets, which requests the browser fetches."""

    def __init__(self, crawler: Crawler, hosts: set[str], budget: int, per_host: int):
        self.stats = crawler.stats
        self.hosts, self.budget, self.per_host = hosts, budget, per_host
        self.rendered: Counter[str] = Counter()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        hosts = {h.lower() for h in settings.getlist("FOCUSED_RENDER_HOSTS")}
        profile = getattr(crawler.spider, "profile", None)
        hosts.update(profile.render_hosts if profile else ())
        return cls(crawler, hosts, settings.getint("FOCUSED_RENDER_BUDGET"), settings.getint("FOCUSED_RENDER_PER_HOST"))

    def process_request(self, request: Request) -> None:
        parts = urlparse_cached(request)
        host = parts.hostname or ""
        wanted = request.meta.get(META) or host in self.hosts
        if not wanted or request.meta.get("playwright") or parts.path == "/robots.txt":
            return
        if sum(self.rendered.values()) >= self.budget or self.rendered[host] >= self.per_host:
            self.stats.inc_value("focused/render/over_budget")
            return
        self.rendered[host] += 1
        request.meta["playwright"] = True
        self.stats.inc_value("focused/render/pages")
