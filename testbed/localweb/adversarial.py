"""The local web with adversarial hosts (`serve --adversarial`), endless sites none of whose pages is relevant.

- GUIDES: prose stuffed with the topic's words (twice their share in real articles) among
  ordinary words, at natural word diversity, in a link farm whose anchors are topical;
- ANSWERS: spun content: ten-word pieces of the real articles on the topic, recombined.
Each is reached from one real article's footer. They were added with the defenses of
focused/pages/credibility.py (novelty and plausibility), so they are not evidence that those defenses
hold on hazards they were not built against. Two more, written in session 28 before any crawl
met them, as the benchmark web's (testbed/docsweb/bought.py):
- NETWORK: a blog network on eight registrable domains, each article a real article's
  paragraphs with most common words swapped for others (a word spinner), linking to the other
  blogs with topical anchors; reached from two real articles' footers;
- EXPIRED: a lapsed wiki's domain that one real page in eight (of every topic) still links
  to with a plain anchor, now a parker's keyword listings leading to more listings and into
  the network.
Two more, written in session 34 before any crawl met them, as the benchmark web's
(testbed/docsweb/parasites.py):
- PARASITE: template-written SEO articles under PARASITE_PATH of two real sites (HACKED), linked
  from a hidden block on one of their pages in HACKED_SHARE;
- CLOAKED: a travel shop hiding pieces of the real articles in a `display:none` block, reached
  by a spam comment on one real page in COMMENT_SHARE.
"""

from __future__ import annotations

import random
import re
import zlib
from functools import cached_property
from urllib.parse import urlsplit

from testbed.docsweb.farms import links_html
from testbed.docsweb.parasites import CLOAKED, PARASITE_PATH, seo_article, shop_text
from testbed.localweb.web import FILLER, NEWS, TOPIC, VOCABULARY, LocalWeb, Page, Reply, render

TOPIC_WORDS = VOCABULARY[TOPIC]

GUIDES, ANSWERS = "sqlguides.example", "dbanswers.example"
NETWORK = tuple(
    f"{name}.example"
    for name in (
        "querycraft",
        "rowlevel",
        "indexnotes",
        "schemadaily",
        "joinlab",
        "cursorclub",
        "tablewise",
        "keyspace",
    )
)
EXPIRED = "oldwiki.example"
HOSTS = (GUIDES, ANSWERS, *NETWORK, EXPIRED, CLOAKED)
HACKED = (NEWS, "dbtalk.example")
HACKED_SHARE = 4  # one page of a hacked site in this many links to the parasite pages
COMMENT_SHARE = 30  # one real page in this many carries the spam comment
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
        self.hacked = {
            url for url in self.pages if url.split("/")[2] in HACKED and spammed("hacked", url, HACKED_SHARE)
        }
        self.commented = {url for url in self.pages if spammed("comment", url, COMMENT_SHARE)}

    def respond(self, host: str, target: str) -> Reply:
        host = host.lower().split(":")[0]
        if host in HACKED and target.startswith(PARASITE_PATH):
            return _parasite(host, target)
        if host not in HOSTS:
            return self._spammed(f"http://{host}{target}", super().respond(host, target))
        if target == "/robots.txt":
            return Reply(200, b"User-agent: *\n", "text/plain")
        m = re.match(r"/(?:guide|answer|post|related|deals)/(\d+)$", target)
        if not m and not (host == EXPIRED and target == "/"):
            return Reply(404)
        n = int(m[1]) if m else 0
        rng = random.Random(f"{host}{n}")
        if host == CLOAKED:
            return self._deal(n, rng)
        if host in (GUIDES, ANSWERS):
            page = _stuffed(host, n, rng) if host == GUIDES else _spun(self.pieces, host, n, rng)
            kind = "guide" if host == GUIDES else "answer"
            page.links = [
                (
                    f"/{kind}/{n + step}",
                    f"{' '.join(rng.sample(TOPIC_WORDS, 3))} {kind}",
                    " ".join(rng.sample(TOPIC_WORDS, 4)),
                )
                for step in rng.sample(range(1, 40), 5)
            ]
        else:
            page = self._blog_post(host, n, rng) if host in NETWORK else _listing(n, rng)
        return Reply(200, render(page).encode())

    def _blog_post(self, host: str, n: int, rng: random.Random) -> Page:
        article = self.articles[n % len(self.articles)]
        page = Page(f"http://{host}/post/{n}", f"{' '.join(rng.sample(TOPIC_WORDS, 2))}: what I learned", "network")
        page.paragraphs = [
            " ".join(rng.choice(FILLER) if w in FILLER and rng.random() < 0.8 else w for w in p.split())
            for p in article.paragraphs
        ]
        page.links = [
            (
                f"http://{rng.choice(NETWORK)}/post/{rng.randrange(1000)}",
                f"more on {' '.join(rng.sample(TOPIC_WORDS, 2))}",
                "read",
            )
            for _ in range(4)
        ]
        return page

    def _spammed(self, url: str, reply: Reply) -> Reply:
        """A real page's reply with the intruder's hidden links or the spam comment, if it has them."""
        block = ""
        if url in self.hacked:
            rng = random.Random("hacked " + url)
            links = [
                (_parasite_url(rng.choice(HACKED), rng.randrange(10**6)), f"{rng.choice(TOPIC_WORDS)} guide")
                for _ in range(3)
            ]
            block += f'<div style="display:none">{links_html(links)}</div>'
        if url in self.commented:
            words = random.Random("comment " + url).sample(TOPIC_WORDS, 2)
            link = (f"http://{CLOAKED}/deals/{zlib.crc32(url.encode()) % 10**6}", f"{' '.join(words)} tips")
            block += (
                f'<div class="comments"><p>Great write-up, thanks! More {words[0]} tips: {links_html([link])}</p></div>'
            )
        if block:
            reply.body = reply.body.replace(b"</body>", block.encode() + b"</body>", 1)
        return reply

    def _deal(self, n: int, rng: random.Random) -> Reply:
        """The cloaked shop: flights for people, pieces of the real articles and topical links in a hidden block."""
        visible = "".join(f"<p>{p}</p>" for p in shop_text(rng))
        hidden = "".join(f"<p>{p}</p>" for p in rng.sample(self.pieces, 8))
        topical = [(f"/deals/{rng.randrange(10**6)}", " ".join(rng.sample(TOPIC_WORDS, 2))) for _ in range(6)]
        deals = [(f"/deals/{rng.randrange(10**6)}", "more flights") for _ in range(3)]
        body = (
            f'<!doctype html><html><head><meta charset="utf-8"><title>Cheap flights | {TOPIC_WORDS[n % 30]}</title>'
            f"</head><body><h1>Cheap flights</h1>{visible}<p>{links_html(deals)}</p>"
            f'<div style="display:none">{hidden}<p>{links_html(topical)}</p></div></body></html>'
        )
        return Reply(200, body.encode())

    @cached_property
    def articles(self) -> list[Page]:
        return sorted((p for p in self.pages.values() if p.topic == TOPIC and "/article" in p.url), key=lambda p: p.url)

    @cached_property
    def pieces(self) -> list[str]:
        """Ten-word pieces of the real articles on the topic."""
        words = [p.split() for page in self.pages.values() if page.topic == TOPIC for p in page.paragraphs]
        return [" ".join(w[i : i + PIECE]) for w in words for i in range(0, len(w) - PIECE + 1, PIECE)]


def spammed(kind: str, url: str, share: int) -> bool:
    """Whether the spammer of `kind` reached this page (one in `share`, fixed by its URL)."""
    return zlib.crc32(f"{kind} {url}".encode()) % share == 0


def is_parasite(url: str) -> bool:
    return url.split("/")[2] in HACKED and urlsplit(url).path.startswith(PARASITE_PATH)


def _parasite_url(host: str, n: int) -> str:
    return f"http://{host}{PARASITE_PATH}guide-{n}.html"


def _parasite(host: str, target: str) -> Reply:
    """A template-written SEO article the intruder put on a real site."""
    m = re.fullmatch(re.escape(PARASITE_PATH) + r"guide-(\d+)\.html", target)
    if not m:
        return Reply(404)
    rng = random.Random(f"parasite {m[1]}")
    page = Page(f"http://{host}{target}", f"{rng.choice(TOPIC_WORDS).title()}: the ultimate guide", "parasite")
    page.paragraphs = seo_article(tuple(TOPIC_WORDS), rng)
    page.links = [
        (_parasite_url(rng.choice(HACKED), rng.randrange(10**6)), f"{rng.choice(TOPIC_WORDS)} tutorial", "see also")
        for _ in range(5)
    ]
    page.links.append(("/", "home", "back to"))
    return Reply(200, render(page).encode())


def _stuffed(host: str, n: int, rng: random.Random) -> Page:
    page = Page(f"http://{host}/guide/{n}", f"The best {' '.join(rng.sample(TOPIC_WORDS, 3))} guide", "farm")
    page.paragraphs = [
        " ".join(rng.choice(TOPIC_WORDS) if rng.random() < 0.6 else rng.choice(ORDINARY) for _ in range(60))
        for _ in range(3)
    ]
    return page


def _listing(n: int, rng: random.Random) -> Page:
    """A parked domain's page: keyword ad copy, related searches, a way into the network."""
    page = Page(f"http://{EXPIRED}/related/{n}", f"{' '.join(rng.sample(TOPIC_WORDS, 2))} related searches", "parked")
    page.paragraphs = ["this domain may be for sale"] + [
        f"find the best {rng.choice(TOPIC_WORDS)} and {rng.choice(TOPIC_WORDS)} resources in one place"
        for _ in range(5)
    ]
    page.links = [
        (f"/related/{rng.randrange(10**6)}", " ".join(rng.sample(TOPIC_WORDS, 2)), "related searches")
        for _ in range(10)
    ]
    page.links.append((f"http://{rng.choice(NETWORK)}/post/{rng.randrange(1000)}", "sql guide", "sponsored"))
    return page


def _spun(pieces: list[str], host: str, n: int, rng: random.Random) -> Page:
    chosen = rng.sample(pieces, 18)
    page = Page(f"http://{host}/answer/{n}", " ".join(chosen[0].split()[:4]).capitalize(), "spun")
    page.paragraphs = [" ".join(chosen[i : i + 6]) for i in range(0, len(chosen), 6)]
    return page
