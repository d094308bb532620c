"""`scrapy crawl`, checking the focused spider's arguments before the reactor starts.

A broken profile or an unknown strategy then ends the command with one clear line
(file, key, problem) and exit code 2, instead of a traceback from inside the crawl.
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.exceptions import UsageError

from focused.addon import with_defaults


class Command(ScrapyCrawl):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        # Scrapy imports every command's module for any `scrapy` command: the spider and its models load here, when
        # a crawl runs, not when `scrapy train` or `scrapy evaluate` does (focused.addon is Scrapy and settings only).
        from focused.spiders.focused import FocusedSpider

        assert self.settings is not None  # set by Scrapy before a command runs
        if args and args[0] == FocusedSpider.name:
            try:
                FocusedSpider.check_arguments(with_defaults(self.settings), opts.spargs)
            except UsageError as exc:
                print(f"focused: {exc}", file=sys.stderr)
                self.exitcode = 2
                return
        super().run(args, opts)
