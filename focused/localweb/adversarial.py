"""The local web with two adversarial hosts (`serve --adversarial`), each an endless site reached from one
real article's footer.

- GUIDES: prose stuffed with the topic's words (twice their share in real articles) among
  ordinary words, at natural word diversity, in a link farm whose anchors are topical;
- ANSWERS: spun content: ten-word pieces of the real articles on the topic, recombined.
None of their pages is relevant. They were added with the defenses of focused/credibility.py
(novelty and plausibility), so the docsweb farms, not these, are the evidence that those
defenses hold on hazards they were not built against.
"""

from __future__ import annotations

import random
import re
from functools import cached_property

from focused.localweb.web import FILLER, TOPIC, VOCABULARY, LocalWeb, Page, Reply, render

GUIDES, ANSWERS = "sqlguides.example", "dbanswers.example"
HOSTS = (GUIDES, ANSWERS)
ORDINARY = sorted({w for topic, words in VOCABULARY.items() if topic != TOPIC for w in words} | set(FILLER))
PIECE = 10


ENTRY_LINKS = {  # real article -> its footer link into a farm
    "http://sqlzone.example/section1/article3.html": (f"http://{GUIDES}/guide/1", "sql query guide", "sponsored"),
    "http://dbtalk.example/section2/article5.html": (f"http://{ANSWERS}/answer/1", "database answers", "sponsored"),
}


class AdversarialWeb(LocalWeb):
    """The generated web (same pages, same labels) with the two farms linked from two articles."""

    def __init__(self, seed: int = 7):
        super().__init__(seed)
        for url, link in ENTRY_LINKS.items():
            self.pages[url].links.append(link)

    def respond(self, host: str, target: str) -> Reply:
        host = host.lower().split(":")[0]
        if host not in HOSTS:
            return super().respond(host, target)
        if target == "/robots.txt":
            return Reply(200, b"User-agent: *\n", "text/plain")
        m = re.match(r"/(?:guide|answer)/(\d+)$", target)
        if not m:
            return Reply(404)
        n = int(m[1])
        rng = random.Random(f"{host}{n}")
        page = _stuffed(host, n, rng) if host == GUIDES else _spun(self.pieces, host, n, rng)
        words = VOCABULARY[TOPIC]
        kind = "guide" if host == GUIDES else "answer"
        page.links = [(f"/{kind}/{n + step}", f"{' '.join(rng.sample(words, 3))} {kind}", " ".join(rng.sample(words, 4)))
                      for step in rng.sample(range(1, 40), 5)]
        return Reply(200, render(page).encode())

    @cached_property
    def pieces(self) -> list[str]:
        """Ten-word pieces of the real articles on the topic."""
        words = [p.split() for page in self.pages.values() if page.topic == TOPIC for p in page.paragraphs]
        return [" ".join(w[i : i + PIECE]) for w in words for i in range(0, len(w) - PIECE + 1, PIECE)]


def _stuffed(host: str, n: int, rng: random.Random) -> Page:
    words = VOCABULARY[TOPIC]
    page = Page(f"http://{host}/guide/{n}", f"The best {' '.join(rng.sample(words, 3))} guide", "farm")
    page.paragraphs = [" ".join(rng.choice(words) if rng.random() < 0.6 else rng.choice(ORDINARY) for _ in range(60))
                       for _ in range(3)]
    return page


def _spun(pieces: list[str], host: str, n: int, rng: random.Random) -> Page:
    chosen = rng.sample(pieces, 18)
    page = Page(f"http://{host}/answer/{n}", " ".join(chosen[0].split()[:4]).capitalize(), "spun")
    page.paragraphs = [" ".join(chosen[i : i + 6]) for i in range(0, len(chosen), 6)]
    return page
