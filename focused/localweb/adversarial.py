"""The local web with adversarial hosts (`serve --adversarial`), endless sites none of whose pages is relevant.

- GUIDES: prose stuffed with the topic's words (twice their share in real articles) among
  ordinary words, at natural word diversity, in a link farm whose anchors are topical;
- ANSWERS: spun content: ten-word pieces of the real articles on the topic, recombined.
Each is reached from one real article's footer. They were added with the defenses of
focused/credibility.py (novelty and plausibility), so they are not evidence that those defenses
hold on hazards they were not built against. Two more, written in session 28 before any crawl
met them, as the benchmark web's (focused/docsweb/bought.py):
- NETWORK: a blog network on eight registrable domains, each article a real article's
  paragraphs with most common words swapped for others (a word spinner), linking to the other
  blogs with topical anchors; reached from two real articles' footers;
- EXPIRED: a lapsed wiki's domain that one real page in eight (of every topic) still links
  to with a plain anchor, now a parker's keyword listings leading to more listings and into
  the network.
"""

from __future__ import annotations

import random
import re
import zlib
from functools import cached_property

from focused.localweb.web import FILLER, TOPIC, VOCABULARY, LocalWeb, Page, Reply, render

TOPIC_WORDS = VOCABULARY[TOPIC]

GUIDES, ANSWERS = "sqlguides.example", "dbanswers.example"
NETWORK = tuple(f"{name}.example" for name in ("querycraft", "rowlevel", "indexnotes", "schemadaily", "joinlab",
                                                "cursorclub", "tablewise", "keyspace"))
EXPIRED = "oldwiki.example"
HOSTS = (GUIDES, ANSWERS, *NETWORK, EXPIRED)
ORDINARY = sorted({w for topic, words in VOCABULARY.items() if topic != TOPIC for w in words} | set(FILLER))
PIECE = 10
EXPIRED_SHARE = 8  # one real page in this many links to the lapsed wiki


ENTRY_LINKS = {  # real article -> its footer link into a farm
    "http://sqlzone.example/section1/article3.html": (f"http://{GUIDES}/guide/1", "sql query guide", "sponsored"),
    "http://dbtalk.example/section2/article5.html": (f"http://{ANSWERS}/answer/1", "database answers", "sponsored"),
    "http://sqlzone.example/section2/article7.html": (f"http://{NETWORK[0]}/post/3", "further reading", "resources"),
    "http://dbtalk.example/section1/article2.html": (f"http://{NETWORK[5]}/post/8", "further reading", "resources"),
}


class AdversarialWeb(LocalWeb):
    """The generated web (same pages, same labels) with the two farms linked from two articles."""

    def __init__(self, seed: int = 7):
        super().__init__(seed)
        for url, link in ENTRY_LINKS.items():
            self.pages[url].links.append(link)
        for url, page in self.pages.items():
            if zlib.crc32(url.encode()) % EXPIRED_SHARE == 0:
                page.links.append((f"http://{EXPIRED}/", "community wiki", "see also the"))

    def respond(self, host: str, target: str) -> Reply:
        host = host.lower().split(":")[0]
        if host not in HOSTS:
            return super().respond(host, target)
        if target == "/robots.txt":
            return Reply(200, b"User-agent: *\n", "text/plain")
        m = re.match(r"/(?:guide|answer|post|related)/(\d+)$", target)
        if not m and not (host == EXPIRED and target == "/"):
            return Reply(404)
        n = int(m[1]) if m else 0
        rng = random.Random(f"{host}{n}")
        if host in (GUIDES, ANSWERS):
            page = _stuffed(host, n, rng) if host == GUIDES else _spun(self.pieces, host, n, rng)
            kind = "guide" if host == GUIDES else "answer"
            page.links = [(f"/{kind}/{n + step}", f"{' '.join(rng.sample(TOPIC_WORDS, 3))} {kind}",
                           " ".join(rng.sample(TOPIC_WORDS, 4))) for step in rng.sample(range(1, 40), 5)]
        else:
            page = self._blog_post(host, n, rng) if host in NETWORK else _listing(n, rng)
        return Reply(200, render(page).encode())

    def _blog_post(self, host: str, n: int, rng: random.Random) -> Page:
        article = self.articles[n % len(self.articles)]
        page = Page(f"http://{host}/post/{n}", f"{' '.join(rng.sample(TOPIC_WORDS, 2))}: what I learned", "network")
        page.paragraphs = [" ".join(rng.choice(FILLER) if w in FILLER and rng.random() < 0.8 else w for w in p.split())
                           for p in article.paragraphs]
        page.links = [(f"http://{rng.choice(NETWORK)}/post/{rng.randrange(1000)}",
                       f"more on {' '.join(rng.sample(TOPIC_WORDS, 2))}", "read") for _ in range(4)]
        return page

    @cached_property
    def articles(self) -> list[Page]:
        return sorted((p for p in self.pages.values() if p.topic == TOPIC and "/article" in p.url), key=lambda p: p.url)

    @cached_property
    def pieces(self) -> list[str]:
        """Ten-word pieces of the real articles on the topic."""
        words = [p.split() for page in self.pages.values() if page.topic == TOPIC for p in page.paragraphs]
        return [" ".join(w[i : i + PIECE]) for w in words for i in range(0, len(w) - PIECE + 1, PIECE)]


def _stuffed(host: str, n: int, rng: random.Random) -> Page:
    page = Page(f"http://{host}/guide/{n}", f"The best {' '.join(rng.sample(TOPIC_WORDS, 3))} guide", "farm")
    page.paragraphs = [" ".join(rng.choice(TOPIC_WORDS) if rng.random() < 0.6 else rng.choice(ORDINARY)
                                for _ in range(60)) for _ in range(3)]
    return page


def _listing(n: int, rng: random.Random) -> Page:
    """A parked domain's page: keyword ad copy, related searches, a way into the network."""
    page = Page(f"http://{EXPIRED}/related/{n}", f"{' '.join(rng.sample(TOPIC_WORDS, 2))} related searches", "parked")
    page.paragraphs = ["this domain may be for sale"] + [
        f"find the best {rng.choice(TOPIC_WORDS)} and {rng.choice(TOPIC_WORDS)} resources in one place" for _ in range(5)]
    page.links = [(f"/related/{rng.randrange(10**6)}", " ".join(rng.sample(TOPIC_WORDS, 2)), "related searches")
                  for _ in range(10)]
    page.links.append((f"http://{rng.choice(NETWORK)}/post/{rng.randrange(1000)}", "sql guide", "sponsored"))
    return page


def _spun(pieces: list[str], host: str, n: int, rng: random.Random) -> Page:
    chosen = rng.sample(pieces, 18)
    page = Page(f"http://{host}/answer/{n}", " ".join(chosen[0].split()[:4]).capitalize(), "spun")
    page.paragraphs = [" ".join(chosen[i : i + 6]) for i in range(0, len(chosen), 6)]
    return page
