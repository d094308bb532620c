"""The baseline: a plain Scrapy CrawlSpider that follows every link from the local web's portal."""

from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class PlainSpider(CrawlSpider):
    name = "plain"
    start_urls = ["http://www.portal.example/"]
    rules = [Rule(LinkExtractor(), follow=True)]
