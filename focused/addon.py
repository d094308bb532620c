"""focused in any Scrapy project: one setting, `ADDONS = {"focused.addon.Addon": 0}`.

The add-on adds the `focused` spider to the project's spiders. The spiders bring focused's
settings themselves (focused/settings.py, the one place they are documented), at add-on
priority: the project's own settings and `-s` still win, the component dictionaries are
merged with the project's entries kept, and the project's other spiders keep Scrapy's
scheduler and the project's components. `scrapy train`, `evaluate` and the checking `crawl`
come as entry points of the installed package (pyproject.toml).
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING

import scrapy
from scrapy.exceptions import UsageError
from scrapy.settings import SETTINGS_PRIORITIES

from focused import settings as focused_settings

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

PROJECT_ONLY = frozenset({"BOT_NAME", "SPIDER_MODULES", "NEWSPIDER_MODULE", "COMMANDS_MODULE", "LOG_LEVEL"})
COMPONENTS = frozenset(
    {"DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "EXTENSIONS", "ITEM_PIPELINES", "FEED_STORAGES"}
)
PRE_CRAWLER = frozenset({"TWISTED_DNS_RESOLVER"})  # read by the crawler process, before any spider is chosen


class Addon:
    @classmethod
    def update_pre_crawler_settings(cls, settings: BaseSettings) -> None:
        settings.add_to_list("SPIDER_MODULES", "focused.spiders")
        for name in PRE_CRAWLER:
            settings.set(name, getattr(focused_settings, name), priority="addon")


def apply_defaults(settings: BaseSettings) -> None:
    """focused's settings beneath a project's: what a focused spider sets for itself (Spider.update_settings)."""
    for name, value in vars(focused_settings).items():
        if not name.isupper() or name in PROJECT_ONLY or name in PRE_CRAWLER:
            continue
        if name in COMPONENTS:
            priority = max(settings.getpriority(name) or 0, SETTINGS_PRIORITIES["addon"])
            settings.set(name, {**value, **settings.getdict(name)}, priority=priority)
        else:
            settings.set(name, value, priority="addon")


class FocusedSettings(scrapy.Spider):
    """A spider base: the spider sets focused's settings for itself, in any project."""

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        super().update_settings(settings)  # scrapy.Spider: custom_settings
        apply_defaults(settings)


def require(module: str, extra: str, needed_by: str) -> None:
    """An extra's package, or UsageError saying what to install: a crawl that does not use it needs none."""
    if find_spec(module) is None:
        raise UsageError(f'{needed_by} needs the {extra} extra: pip install "focused[{extra}]"')


def with_defaults(settings: BaseSettings) -> BaseSettings:
    """A copy of a project's settings with focused's beneath them: for a command that checks a crawl's
    arguments before any spider has set its own."""
    copy = settings.copy()
    apply_defaults(copy)
    return copy
