"""Two more adversarial constructions: content aggregated from real pages, as thin sites do it.

- RING: a web ring of blogs, one per subdomain of webring.example (thousands of hosts), each
  post a listicle: a real sentence of the topic's relevant pages per paragraph, padded with
  templated advice in the topic's words; posts link to other blogs of the ring with topical
  anchors. Spread over many hosts, no one host holds many pages.
- QA: a scraped question-and-answer site: tag listings with endless pagination and sort
  orders (a URL-parameter trap), and question pages whose answers are a few real sentences
  with links to ever more related questions.

Both were written in session 24 before any crawl met them, as held-out hazards; session 27 made
budgets and trust a registrable domain's after seeing the ring, so they are tuned-on now
(docs/evaluation.md, "The benchmark web"), as are bought.py's since session 28. They are reached from the
footers of a few inner pages (ENTRY_PAGES), not front pages, and their pages are never relevant.
"""

from __future__ import annotations

import random
import re
from urllib.parse import parse_qs, urlsplit

from testbed.docsweb.farms import NOT_FOUND, FarmText, links_html, page_html, topic_of
from testbed.docsweb.topics import TOPICS
from testbed.localweb.web import Reply

RING, QA = "webring.example", "answers-index.example"
DOMAINS = (RING, QA)
RING_BLOGS = 5000
ENTRY_PAGES = (
    "http://flask.palletsprojects.com/en/2.2.x/extensions.html",
    "http://docs.celeryq.dev/en/stable/community.html",
    "http://requests.readthedocs.io/en/latest/community/out-there.html",
    "http://docs.sqlalchemy.org/en/14/faq/index.html",
    "http://git-scm.com/docs/user-manual.html",
    "http://docs.python.org/3/library/index.html",
)
TITLES = (
    "{n} {a} tips every developer should know",
    "Why {a} matters more than you think",
    "{a} vs {b}: what nobody tells you",
    "A beginner's guide to {a} and {b}",
    "How I fixed {a} in {n} minutes",
)
ADVICE = (
    "Many developers overlook {a} when they start with {b}.",
    "This is one of the most important things to know about {a}.",
    "Getting {a} right early saves hours of debugging later.",
    "If you only remember one thing about {b}, make it this.",
    "Experienced engineers treat {a} and {b} as two sides of one problem.",
    "Bookmark this page for your next {a} project.",
)
SORTS = ("votes", "newest", "active")


def serves(host: str) -> bool:
    """Whether the host is one of these sites (a ring blog is any subdomain of RING)."""
    return host == QA or host.endswith("." + RING)


def entry_links(url: str) -> bytes:
    """The footer line of an entry page: a blog of the ring and a tag listing of the Q&A site."""
    rng = random.Random("aggregators " + url)
    n = rng.randrange(len(TOPICS))
    words = topic_of(n)[1]
    blog = n + len(TOPICS) * rng.randrange(RING_BLOGS // len(TOPICS))
    links = [
        (f"http://blog{blog}.{RING}/post/0", f"Our favourite {words[0]} blog"),
        (f"http://{QA}/questions/tagged/{words[0]}", f"Questions tagged {words[0]}"),
    ]
    return f'<p class="friends">Friends of the project: {links_html(links)}</p>'.encode()


class Aggregators:
    """The replies of RING's blogs and of QA, made from the sentences the farms also draw on."""

    def __init__(self, text: FarmText):
        self.text = text
        self.tags = {word: n for n in range(len(TOPICS)) for word in topic_of(n)[1]}

    def respond(self, host: str, target: str) -> Reply:
        if host == QA:
            return self._qa(target)
        m = re.fullmatch(r"blog(\d+)\." + re.escape(RING), host)
        post = re.fullmatch(r"/(?:post/(\d+))?", target)
        if not m or not post or int(m[1]) >= RING_BLOGS:
            return NOT_FOUND
        return self._post(int(m[1]), int(post[1] or 0))

    # --- the ring -------------------------------------------------------------------------
    def _post(self, blog: int, post: int) -> Reply:
        rng = random.Random(f"ring/{blog}/{post}")
        words = topic_of(blog)[1]

        def fill(template: str) -> str:
            return template.format(n=rng.randint(5, 15), a=rng.choice(words), b=rng.choice(words))

        title = fill(rng.choice(TITLES)).capitalize()
        paragraphs = [
            " ".join([real, fill(rng.choice(ADVICE)), fill(rng.choice(ADVICE))])
            for real in self.text.sample(blog, rng, 6)
        ]
        others = [blog + len(TOPICS) * rng.randint(1, 200) for _ in range(6)]
        links = [
            (f"http://blog{other % RING_BLOGS}.{RING}/post/{rng.randrange(40)}", fill("{a} {b} tips"))
            for other in others
        ]
        links += [(f"/post/{post + 1}", "Next post"), (f"/post/{max(post - 1, 0)}", "Previous post")]
        return Reply(200, page_html(title, paragraphs, links))

    # --- the Q&A site -----------------------------------------------------------------------
    def _qa(self, target: str) -> Reply:
        parts = urlsplit(target)
        if parts.path == "/":
            return Reply(
                200,
                page_html(
                    "Developer answers",
                    ["Browse questions by tag."],
                    [(f"/questions/tagged/{tag}", tag) for tag in self.tags],
                ),
            )
        tagged = re.fullmatch(r"/questions/tagged/([\w-]+)", parts.path)
        if tagged and tagged[1] in self.tags:
            query = parse_qs(parts.query)
            page = int(query.get("page", ["1"])[0]) if query.get("page", ["1"])[0].isdigit() else 1
            return self._listing(tagged[1], page, query.get("sort", ["votes"])[0])
        question = re.fullmatch(r"/q/(\d+)/[\w-]*", parts.path)
        return self._question(int(question[1])) if question else NOT_FOUND

    def _listing(self, tag: str, page: int, sort: str) -> Reply:
        n = self.tags[tag]
        rng = random.Random(f"qa/{tag}/{page}/{sort}")
        ids = [n + len(TOPICS) * rng.randrange(100000) for _ in range(15)]
        paragraphs = [f"{self._title(i)} {self.text.sample(i, random.Random(f'qa/{i}'), 1)[0]}" for i in ids]
        links = [(self._url(i), self._title(i)) for i in ids]
        links += [(f"?page={page + 1}&sort={sort}", "next"), (f"?page={page + 2}&sort={sort}", str(page + 2))]
        links += [(f"?page={page}&sort={other}", other) for other in SORTS if other != sort]
        links += [(f"/questions/tagged/{word}", word) for word in topic_of(n)[1][:5]]
        title = f"Newest '{tag}' questions - page {page}"
        return Reply(200, page_html(title, paragraphs, links))

    def _question(self, i: int) -> Reply:
        rng = random.Random(f"qa/{i}")
        question, *answers = self.text.sample(i, rng, 7)
        paragraphs = [question, f"Asked by user{rng.randrange(99999)}, {rng.randint(2, 90)} votes."]
        paragraphs += [
            f"{answers[k]} {answers[k + 1]} Answered by user{rng.randrange(99999)}."
            for k in range(0, len(answers) - 1, 2)
        ]
        related = [i + len(TOPICS) * rng.randint(1, 5000) for _ in range(8)]
        links = [(self._url(r), self._title(r)) for r in related]
        links += [(f"/questions/tagged/{word}", word) for word in topic_of(i)[1][:3]]
        return Reply(200, page_html(self._title(i), paragraphs, links))

    def _title(self, i: int) -> str:
        rng = random.Random(f"qa/title/{i}")
        words = topic_of(i)[1]
        return f"How do I use {rng.choice(words)} with {rng.choice(words)}? ({i})"

    def _url(self, i: int) -> str:
        return f"/q/{i}/" + re.sub(r"\W+", "-", self._title(i).lower()).strip("-")
