"""A honeypot: a cloned web directory whose pages link to many truly relevant pages, and to more of itself.

Directory cloning and honey pots (Gyöngyi & Garcia-Molina, "Web Spam Taxonomy", 2005): a spammer
copies a directory of good resources so that its pages are hubs in every link analysis, then
spends the standing this buys on links to more of its own pages. Here, one host:
- category pages, one per topic, with endless pagination: a dozen entries each, every entry a
  link to a real page labeled relevant to the topic, under that page's own title, with a blurb of
  real sentences of the topic's relevant pages;
- a listing page per entry ("review"), the blurb again with a rating, a "Visit" link to the real
  page and links to similar listings under their real pages' titles.
So the links that leave the directory really do lead to relevant pages: a crawler that credits a
page for what its links led to, or a hub for the authorities it points at, learns to trust the
directory, whose own pages (lists and blurbs) are never relevant. It is reached from a "listed
in" line on a few inner pages of real sites that list third-party resources (ENTRY_PAGES).

Written in session 85 before any crawl met it, as a held-out hazard (docs/evaluation.md, "The
benchmark web"): no code of the crawler was tuned on it, and none names its host or paths.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from testbed.docsweb.farms import NOT_FOUND, FarmText, links_html, page_html
from testbed.docsweb.topics import SITE_SUFFIX, TOPICS
from testbed.localweb.web import Reply, with_line

DOMAIN = "curated-links.example"
ENTRY_PAGES = (
    "http://docs.aiohttp.org/en/stable/third_party.html",
    "http://docs.dask.org/en/stable/educational-resources.html",
    "http://docs.djangoproject.com/en/3.2/topics/external-packages.html",
    "http://scikit-learn.org/stable/related_projects.html",
    "http://www.postgresql.org/docs/15/external-projects.html",
    "http://cryptography.io/en/latest/community.html",
)
ENTRIES = 12  # real pages listed on a category page
SIMILAR = 6  # listings linked from a listing
LISTINGS = 10**6
RATINGS = ("★★★★★", "★★★★☆", "★★★☆☆")
CATEGORIES = {topic.name: n for n, topic in enumerate(TOPICS)}


def category_url(topic: int, page: int = 1) -> str:
    return f"http://{DOMAIN}/category/{TOPICS[topic].name}/{page}"


def listing_url(n: int) -> str:
    """Listing n of the directory: about a real page relevant to topic n mod the number of topics."""
    return f"http://{DOMAIN}/listing/{n}"


def dress(url: str, reply: Reply) -> Reply:
    """An entry page with its "listed in" line (a category chosen by the page's URL); any other as it is."""
    if url not in ENTRY_PAGES:
        return reply
    topic = random.Random("directory " + url).randrange(len(TOPICS))
    links = [(f"http://{DOMAIN}/", "Curated Links"), (category_url(topic), _category_name(topic) + " resources")]
    return with_line(reply, f'<p class="listed">This project is listed in {links_html(links)}.</p>')


class Directory:
    """The directory's replies: real relevant pages (labels and titles from the build) with the farms' sentences."""

    def __init__(self, root: Path, text: FarmText):
        self.text = text
        relevant = {
            topic.name: (root / "labels" / f"{topic.name}.txt").read_text().split()
            for topic in TOPICS
            if (root / "labels" / f"{topic.name}.txt").exists()
        }
        wanted = {url for urls in relevant.values() for url in urls}
        titles = {}
        with open(root / "pages.jsonl", encoding="utf-8") as pages:
            for line in pages:
                page = json.loads(line)
                if page["url"] in wanted:
                    titles[page["url"]] = SITE_SUFFIX.split(page["title"])[0].strip() or page["url"]
        self.listed = [[(url, titles[url]) for url in relevant.get(topic.name, [])] for topic in TOPICS]

    def respond(self, target: str) -> Reply:
        if target == "/":
            links = [(category_url(topic), _category_name(topic)) for topic in range(len(TOPICS))]
            return Reply(200, page_html("Curated Links: the developer's directory", ["Hand-picked resources."], links))
        category = re.fullmatch(r"/category/([a-z]+)/(\d+)", target)
        if category and category[1] in CATEGORIES and 0 < int(category[2]) < LISTINGS:
            return self._category(CATEGORIES[category[1]], int(category[2]))
        listing = re.fullmatch(r"/listing/(\d+)", target)
        if listing and int(listing[1]) < LISTINGS:
            return self._listing(int(listing[1]))
        return NOT_FOUND

    def _category(self, topic: int, page: int) -> Reply:
        rng = random.Random(f"directory/{topic}/{page}")
        ids = [topic + len(TOPICS) * rng.randrange(LISTINGS // len(TOPICS)) for _ in range(ENTRIES)]
        entries = [(self._entry(n), n) for n in ids]
        paragraphs = [f"{title}: {self._blurb(n, 1)} ({_rating(n)})" for (_, title), n in entries if title]
        links = [entry for entry, _ in entries if entry[0]]
        links += [(listing_url(n), f"Review: {title}") for (_, title), n in entries[:4] if title]
        links += [(category_url(topic, page + 1), "Next page"), (category_url(topic, max(page - 1, 1)), "Previous")]
        links += [(category_url(rng.randrange(len(TOPICS))), "Related category")]
        name = _category_name(topic)
        return Reply(200, page_html(f"{name} resources, page {page} - Curated Links", paragraphs, links))

    def _listing(self, n: int) -> Reply:
        url, title = self._entry(n)
        if not url:
            return NOT_FOUND
        rng = random.Random(f"directory/listing/{n}")
        similar = [n + len(TOPICS) * rng.randint(1, 5000) for _ in range(SIMILAR)]
        paragraphs = [self._blurb(n, 3), f"Rating: {_rating(n)} from {rng.randint(3, 400)} developers."]
        links = [(url, f"Visit {title}")]
        links += [(listing_url(m % LISTINGS), self._entry(m % LISTINGS)[1]) for m in similar]
        links += [(category_url(n % len(TOPICS)), f"More {_category_name(n % len(TOPICS))} resources")]
        return Reply(200, page_html(f"{title} - review - Curated Links", paragraphs, links))

    def _entry(self, n: int) -> tuple[str, str]:
        """The real page listing n is about, and its title; empty on a web with no page of its topic."""
        pages = self.listed[n % len(TOPICS)]
        return pages[(n // len(TOPICS)) % len(pages)] if pages else ("", "")

    def _blurb(self, n: int, count: int) -> str:
        return " ".join(self.text.sample(n, random.Random(f"directory/blurb/{n}"), count))


def _rating(n: int) -> str:
    return RATINGS[n // len(TOPICS) % len(RATINGS)]


def _category_name(topic: int) -> str:
    return " and ".join(TOPICS[topic].keywords[:2])
