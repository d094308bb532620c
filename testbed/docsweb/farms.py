"""Adversarial hosts of the benchmark web: pages that lie about being on a topic.

Five constructions, each an endless host, reached only through the footer of a few real
pages (hazards.ENTRY_PAGES) and from each other. None of their pages is labeled relevant, and
none of their hosts is named to the crawler or special-cased in it.
- STUFFED: prose stuffed with one topic's words at natural word diversity (about 0.5 distinct
  words per 100), a link farm whose anchors carry the topic's words;
- SPUN: sentences of real relevant pages, recombined;
- DOORWAY: topical titles that redirect into the farm (HTTP 301, or a meta refresh);
- COPIES: copies of real relevant pages with links into the farm injected;
- BABBLE: text from a word-trigram model of real relevant pages: it reads like the docs,
  statistically, and every sentence is new.
COPIES and BABBLE were built as held-out hazards, but the novelty rule was later chosen after
seeing them on a crawl, so they are tuned-on now (docs/evaluation.md, "The benchmark web").

The farms speak every topic of the benchmark (an SEO farm targets popular queries): page N
of a host is about topic N mod the number of topics. Their text comes from `FarmText`, which
the build writes from the labeled pages (`farm_text.json`).
"""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from testbed.docsweb.topics import TOPICS
from testbed.localweb.web import Reply

STUFFED, SPUN, DOORWAY, COPIES, BABBLE = (
    "devguides.example",
    "learn-hub.example",
    "top-answers.example",
    "docs-archive.example",
    "knowledge-base.example",
)
HOSTS = (STUFFED, SPUN, DOORWAY, COPIES, BABBLE)
NOT_FOUND = Reply(404, b"<html><body>Not found</body></html>")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
FILE = "farm_text.json"


@dataclass
class FarmText:
    """Per topic: sentences of its relevant pages."""

    sentences: dict[str, list[str]]

    @classmethod
    def load(cls, root: Path) -> FarmText:
        return cls(**json.loads((root / FILE).read_text(encoding="utf-8")))

    def sample(self, n: int, rng: random.Random, count: int) -> list[str]:
        """`count` sentences of topic n of the farms (topic_of), drawn by `rng`."""
        pool = self.sentences[topic_of(n)[0]] or [""]  # a web with no relevant pages: empty text
        return rng.sample(pool, min(count, len(pool)))

    def save(self, root: Path) -> None:
        (root / FILE).write_text(json.dumps(self.__dict__, ensure_ascii=False), encoding="utf-8")


def farm_text(pages: list[dict], labels: dict[str, list[str]]) -> FarmText:
    """What the farms copy from: up to 3,000 sentences per topic, drawn reproducibly."""
    rng = random.Random(1)
    by_url = {page["url"]: page for page in pages}
    sentences = {}
    for topic, relevant in labels.items():
        pool = [s for url in relevant for s in SENTENCE.split(by_url[url]["text"]) if 6 <= len(s.split()) <= 40]
        sentences[topic] = rng.sample(pool, min(3000, len(pool)))
    return FarmText(sentences)


def topic_of(n: int) -> tuple[str, list[str]]:
    """Topic n of the farms (round robin over the benchmark topics) and the words of its keywords."""
    topic = TOPICS[n % len(TOPICS)]
    return topic.name, " ".join(topic.keywords).split()


def farm_links(n: int, rng: random.Random, count: int = 6) -> list[tuple[str, str]]:
    """Links into the farms with anchors in the words of topic n: the way deeper in."""
    words = topic_of(n)[1]
    links = []
    for i in range(count):
        target = n + len(TOPICS) * rng.randint(1, 50)  # same topic, further on
        host = (STUFFED, SPUN, BABBLE, DOORWAY)[i % 4]
        links.append((f"http://{host}/p/{target}", " ".join(rng.sample(words, min(3, len(words)))) + " guide"))
    return links


def entry_links(url: str) -> bytes:
    """The footer line of an entry page: a few sponsored links into the farms and to a copy of itself."""
    rng = random.Random(url)
    links = [
        *farm_links(rng.randrange(len(TOPICS)), rng, 4),
        (url.replace("http://", f"http://{COPIES}/", 1), "Documentation archive"),
        (f"http://{DOORWAY}/go/{rng.randrange(100)}", "Top answers"),
    ]
    return f'<p class="sponsored">Sponsored: {links_html(links)}</p>'.encode()


def links_html(links: list[tuple[str, str]]) -> str:
    return " · ".join(f'<a href="{html.escape(url)}">{html.escape(text)}</a>' for url, text in links)


def page_html(title: str, paragraphs: list[str], links: list[tuple[str, str]], head: str = "") -> bytes:
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>{head}</head>'
        f"<body><main><h1>{html.escape(title)}</h1>{body}<p>Related: {links_html(links)}</p></main>"
        "</body></html>"
    ).encode()


class Farms:
    """The replies of the adversarial hosts; `copy` reads a real page's reply (host, path)."""

    def __init__(self, text: FarmText, copy):
        self.text = text
        self.copy = copy
        self.trigrams = {topic: self._trigrams(sentences) for topic, sentences in text.sentences.items()}
        self.vocabulary = sorted(
            {w for s in sum(text.sentences.values(), [])[:20000] for w in s.split() if w.isalpha() and len(w) > 2}
        )

    def respond(self, host: str, target: str) -> Reply:
        if host == COPIES:
            return self._copy(target)
        m = re.match(r"/(?:p|go)/(\d+)$", target)
        if not m:
            return NOT_FOUND
        n = int(m[1])
        handler = {STUFFED: self._stuffed, SPUN: self._spun, DOORWAY: self._doorway, BABBLE: self._babble}[host]
        return handler(n, random.Random(f"{host}/{n}"))

    def _stuffed(self, n: int, rng: random.Random) -> Reply:
        words = topic_of(n)[1]

        def sentence() -> str:
            picked = [
                rng.choice(words) if rng.random() < 0.3 else rng.choice(self.vocabulary)
                for _ in range(rng.randint(10, 22))
            ]
            return " ".join(picked).capitalize() + "."

        title = f"The complete {' '.join(rng.sample(words, min(3, len(words))))} guide ({n})"
        paragraphs = [" ".join(sentence() for _ in range(5)) for _ in range(6)]
        return Reply(200, page_html(title, paragraphs, farm_links(n, rng)))

    def _spun(self, n: int, rng: random.Random) -> Reply:
        pool = self.text.sentences[topic_of(n)[0]]
        if not pool:
            return NOT_FOUND
        chosen = rng.sample(pool, min(25, len(pool)))
        paragraphs = [" ".join(chosen[i : i + 5]) for i in range(0, len(chosen), 5)]
        return Reply(200, page_html(" ".join(chosen[0].split()[:6]), paragraphs, farm_links(n, rng)))

    def _babble(self, n: int, rng: random.Random) -> Reply:
        table = self.trigrams[topic_of(n)[0]]
        paragraphs = [self._walk(table, rng, 60) for _ in range(5)]
        return Reply(200, page_html(" ".join(paragraphs[0].split()[:6]), paragraphs, farm_links(n, rng)))

    def _doorway(self, n: int, rng: random.Random) -> Reply:
        words = topic_of(n)[1]
        target = f"http://{STUFFED}/p/{n}"
        if n % 2:
            return Reply(301, headers={"Location": target})
        refresh = f'<meta http-equiv="refresh" content="0; url={target}">'
        title = " ".join(rng.sample(words, min(4, len(words)))).title()
        return Reply(200, page_html(title, [f"{title}: the answer is one click away."], [], refresh))

    def _copy(self, target: str) -> Reply:
        """docs-archive.example/HOST/PATH: the real page, with a block of farm links after <body>."""
        host, _, path = target.lstrip("/").partition("/")
        reply = self.copy(host, "/" + path)
        if reply.status != 200 or "html" not in reply.content_type:
            return reply
        rng = random.Random(target)
        n = rng.randrange(len(TOPICS))
        block = f'<p class="sponsor">Sponsored: {links_html(farm_links(n, rng, 4))}</p>'.encode()
        body = re.sub(rb"(<body[^>]*>)", lambda m: m[1] + block, reply.body, count=1)
        body = body.replace(f"http://{host}/".encode(), f"http://{COPIES}/{host}/".encode())
        return Reply(200, body, reply.content_type)

    @staticmethod
    def _trigrams(sentences: list[str]) -> dict[tuple[str, str], list[str]]:
        table: dict[tuple[str, str], list[str]] = {}
        for sentence in sentences:
            words = ["", "", *sentence.split(), ""]
            for a, b, c in zip(words, words[1:], words[2:]):
                table.setdefault((a, b), []).append(c)
        return table

    @staticmethod
    def _walk(table: dict[tuple[str, str], list[str]], rng: random.Random, length: int) -> str:
        words: list[str] = []
        state = ("", "")
        if state not in table:  # no text to model (a web with no relevant pages)
            return ""
        while len(words) < length:
            nxt = rng.choice(table[state] if state in table else [""])
            if not nxt:
                state = ("", "")
                continue
            words.append(nxt)
            state = (state[1], nxt)
        return " ".join(words)
