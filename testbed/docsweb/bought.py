"""Two more adversarial constructions, on bought domains: how SEO spam gets around a crawler
that trusts what its seeds link to.

- NETWORK: a private blog network, 40 blogs on 40 registrable domains of their own (not
  subdomains of one), each article a real relevant page's sentences run through a synonym
  spinner (word by word, so that almost every word 5-gram is new) and shuffled, linking to
  articles on the other blogs with topical anchors and out to a real manual, as networks
  do to look legitimate.
- EXPIRED: a community wiki's domain that lapsed and was bought by a domain parker. Real
  pages all over the web still link to it from their content (one page in 40 here, with a
  plain "Community cookbook" anchor), so it is trusted as few hosts are; its pages are
  parked-domain listings: keyword ad copy and "related searches" leading to ever more
  listings and into the network.

Both were written in session 28 before any crawl met them and first measured before any change
(docs/benchmarks.md); the changes after that were chosen on the local web's hosts built the
same way (testbed/localweb/adversarial.py), so they count as seen from then on. None of their
pages is labeled relevant, and none of their hosts is named to the crawler.
"""

from __future__ import annotations

import random
import re
import zlib

from testbed.docsweb.farms import NOT_FOUND, FarmText, links_html, page_html, topic_of
from testbed.docsweb.topics import TOPICS
from testbed.localweb.web import Reply

BLOGS = tuple(
    f"{a}-{b}.example"
    for a in ("code", "stack", "byte", "query", "pixel")
    for b in ("notes", "daily", "corner", "journal", "insider", "digest", "lab", "weekly")
)
EXPIRED = "devcommunity.example"
DOMAINS = (*BLOGS, EXPIRED)
ARTICLES = 500  # per blog
EXPIRED_SHARE = 40  # one real page in this many links to the expired domain
ENTRY_PAGES = (  # inner pages whose footer links into the network
    "http://docs.python.org/3/howto/index.html",
    "http://www.postgresql.org/docs/15/tutorial.html",
    "http://docs.pytest.org/en/7.2.x/how-to/index.html",
    "http://docs.djangoproject.com/en/3.2/topics/index.html",
    "http://scikit-learn.org/stable/user_guide.html",
    "http://docs.dask.org/en/stable/best-practices.html",
)
OUTBOUND = (
    "http://docs.python.org/3/index.html",
    "http://www.postgresql.org/docs/15/index.html",
    "http://docs.djangoproject.com/en/3.2/index.html",
    "http://pandas.pydata.org/docs/index.html",
)
SYNONYMS = {
    "use": "utilize",
    "uses": "utilizes",
    "used": "utilized",
    "using": "utilizing",
    "shows": "demonstrates",
    "show": "demonstrate",
    "example": "illustration",
    "examples": "illustrations",
    "file": "document",
    "files": "documents",
    "function": "routine",
    "functions": "routines",
    "returns": "gives back",
    "return": "give back",
    "value": "amount",
    "values": "amounts",
    "method": "approach",
    "methods": "approaches",
    "create": "generate",
    "creates": "generates",
    "created": "generated",
    "default": "standard",
    "option": "choice",
    "options": "choices",
    "set": "configure",
    "need": "require",
    "needs": "requires",
    "must": "has to",
    "can": "is able to",
    "also": "additionally",
    "however": "nevertheless",
    "if": "in case",
    "when": "whenever",
    "following": "subsequent",
    "called": "referred to as",
    "allows": "permits",
    "allow": "permit",
    "provides": "offers",
    "provide": "offer",
    "specify": "indicate",
    "specified": "indicated",
    "object": "entity",
    "objects": "entities",
    "data": "information",
    "new": "fresh",
    "change": "alter",
    "changes": "alterations",
    "first": "initial",
    "each": "every",
    "many": "numerous",
    "large": "big",
    "small": "tiny",
    "make": "produce",
    "makes": "produces",
    "get": "obtain",
    "gets": "obtains",
    "see": "consult",
    "section": "part",
    "page": "webpage",
    "user": "individual",
    "users": "individuals",
    "run": "execute",
    "runs": "executes",
    "support": "assistance",
    "supports": "assists",
    "type": "kind",
    "types": "kinds",
    "number": "quantity",
    "error": "mistake",
    "errors": "mistakes",
    "simple": "easy",
    "possible": "feasible",
    "important": "crucial",
    "different": "distinct",
    "way": "manner",
    "ways": "manners",
    "only": "solely",
    "because": "since",
    "but": "yet",
    "after": "following",
    "before": "prior to",
    "start": "begin",
    "end": "finish",
    "so": "therefore",
    "often": "frequently",
    "usually": "typically",
}
WORD = re.compile(r"[A-Za-z]+")
AD_COPY = (
    "Find the best {a} resources in one place.",
    "Compare top {a} and {b} tools for 2026.",
    "Learn {a} fast: free {b} courses online.",
    "{a} experts near you. Get a quote today.",
    "Top 10 {a} tutorials, reviewed.",
    "Everything about {a} and {b}, updated daily.",
)


def serves(host: str) -> bool:
    return host in BLOGS or host == EXPIRED or host.endswith("." + EXPIRED)


def links_expired(url: str) -> bool:
    """Whether a real page still links to the lapsed community wiki (one in EXPIRED_SHARE, fixed by its URL)."""
    return zlib.crc32(url.encode()) % EXPIRED_SHARE == 0


def entry_links(url: str) -> bytes:
    """What the build appends to a real page: the old wiki link, and on ENTRY_PAGES a resources line."""
    footer = ""
    if links_expired(url):
        footer += f'<p class="see-also">See also the <a href="http://cookbook.{EXPIRED}/">Community cookbook</a>.</p>'
    if url in ENTRY_PAGES:
        rng = random.Random("network " + url)
        links = [(article_url(rng.randrange(len(BLOGS) * ARTICLES)), "Further reading") for _ in range(2)]
        footer += f'<p class="resources">Resources: {links_html(links)}</p>'
    return footer.encode()


def article_url(n: int) -> str:
    """Article n of the network: blog n mod the number of blogs, about topic n mod the number of topics."""
    return f"http://{BLOGS[n % len(BLOGS)]}/{2020 + n % 6}/{1 + n % 12:02d}/post-{n}.html"


def spin(sentence: str, rng: random.Random) -> str:
    """A synonym spinner's rewrite: most words it knows replaced, the rest (the topic's terms) kept."""

    def replace(m: re.Match[str]) -> str:
        word = m[0]
        other = SYNONYMS.get(word.lower())
        if other is None or rng.random() < 0.2:
            return word
        return other.capitalize() if word[0].isupper() else other

    return WORD.sub(replace, sentence)


class BoughtDomains:
    """The replies of NETWORK's blogs and of the EXPIRED domain, from the sentences the farms draw on."""

    def __init__(self, text: FarmText):
        self.text = text

    def respond(self, host: str, target: str) -> Reply:
        if host in BLOGS:
            m = re.fullmatch(r"/\d{4}/\d{2}/post-(\d+)\.html", target)
            if target == "/":
                return self._blog_front(BLOGS.index(host))
            if m and int(m[1]) < len(BLOGS) * ARTICLES and BLOGS[int(m[1]) % len(BLOGS)] == host:
                return self._article(int(m[1]))
            return NOT_FOUND
        m = re.fullmatch(r"/(?:related/(\d+)-[\w-]*)?", target)
        return self._listing(int(m[1] or 0)) if m else NOT_FOUND

    # --- the blog network ---------------------------------------------------------------
    def _article(self, n: int) -> Reply:
        rng = random.Random(f"network/{n}")
        words = topic_of(n)[1]
        sentences = [spin(s, rng) for s in self.text.sample(n, rng, 10)]
        paragraphs = [" ".join(sentences[k : k + 2]) for k in range(0, len(sentences), 2)]
        title = f"{' '.join(rng.sample(words, min(2, len(words)))).title()}: what I learned"
        others = [n + len(TOPICS) * rng.randint(1, 2000) for _ in range(4)]
        links = [
            (article_url(other % (len(BLOGS) * ARTICLES)), f"more on {rng.choice(words)} {rng.choice(words)}")
            for other in others
        ]
        links.append((rng.choice(OUTBOUND), "official documentation"))
        return Reply(200, page_html(title, paragraphs, links))

    def _blog_front(self, blog: int) -> Reply:
        recent = [blog + len(BLOGS) * k for k in range(12)]
        links = [(article_url(n), f"{' '.join(topic_of(n)[1][:2])} notes") for n in recent]
        return Reply(200, page_html(BLOGS[blog], ["Notes from a working developer."], links))

    # --- the expired domain ------------------------------------------------------------
    def _listing(self, n: int) -> Reply:
        rng = random.Random(f"expired/{n}")
        words = topic_of(n)[1]

        def fill(template: str) -> str:
            return template.format(a=rng.choice(words), b=rng.choice(words))

        paragraphs = [
            "This domain may be for sale.",
            *(fill(rng.choice(AD_COPY)) for _ in range(6)),
            *self.text.sample(n, rng, 2),
        ]
        related = [n + len(TOPICS) * rng.randint(1, 3000) for _ in range(12)]
        links = [(f"/related/{r}-" + "-".join(topic_of(r)[1][:2]), " ".join(topic_of(r)[1][:2])) for r in related]
        links += [(article_url(rng.randrange(len(BLOGS) * ARTICLES)), fill("{a} {b} guide")) for _ in range(2)]
        title = f"{' '.join(words[:2])} - Related searches" if n else EXPIRED
        return Reply(200, page_html(title, paragraphs, links))
