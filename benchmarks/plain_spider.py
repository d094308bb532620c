"""The baseline: a plain Scrapy CrawlSpider that follows every link from a profile's seeds, within its allowed
domains (the local web's portal by default), as a focused crawl of the same profile would start."""

from pathlib import Path

from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule

from focused.profile import load_profile

SQL = Path(__file__).resolve().parents[1] / "profiles" / "sql.toml"


class PlainSpider(CrawlSpider):
    name = "plain"
    rules = [Rule(LinkExtractor(), follow=True)]

    def __init__(self, profile: str = str(SQL), *args, **kwargs):
        topic = load_profile(profile)
        self.start_urls = list(topic.seeds)
        self.allowed_domains = list(topic.allowed_domains)
        super().__init__(*args, **kwargs)
