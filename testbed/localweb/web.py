"""A generated web with topical locality and the hazards of the real one.

Pages are built once from a seed, so every run serves the same web and the ground
truth (which pages are about relational databases) is known exactly.
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

TOPIC = "sql"
VOCABULARY: dict[str, list[str]] = {
    "sql": "sql database query transaction index schema table join orm postgres sqlite mysql row column "
    "primary key foreign constraint normalization select insert commit rollback isolation cursor "
    "migration replication relational view trigger".split(),
    "cooking": "recipe oven flour butter garlic simmer roast sauce dough bake spice onion pan kitchen "
    "chef pasta salad grill tomato pepper herbs stew broth whisk".split(),
    "football": "goal striker league match referee penalty midfield coach season stadium keeper "
    "tackle offside transfer cup derby fans pitch kickoff header".split(),
    "gardening": "garden soil compost seeds prune roses mulch bulbs watering shrubs hedge greenhouse "
    "tomatoes weeds harvest perennial orchard lawn fertilizer".split(),
    "astronomy": "telescope galaxy nebula planet orbit comet eclipse star constellation lunar "
    "observatory supernova asteroid jupiter saturn meteor cosmos redshift".split(),
    "music": "guitar chord melody album concert rhythm band drums lyrics tempo piano singer "
    "orchestra symphony vinyl chart index tour jazz".split(),
    "travel": "flight hotel passport beach itinerary luggage train museum island hostel tour map "
    "journey ferry visa backpack coast".split(),
}
FILLER = (
    "the a of and to in is that it for on with as was this by be at from or have an they which one "
    "you were all there their we when more some what about out would into time only other many then "
    "these so can first also after people new way could well much where most year make like"
).split()
GENERIC_ANCHORS = ["read more", "continue", "here", "next page", "this post", "more", "details", "link"]
PLAIN_ANCHORS = {"archive.example"}  # sites whose links give no hint of their topic

# Content sites: host -> (topic, sections, articles per section).
SITES: dict[str, tuple[str, int, int]] = {
    "sqlzone.example": ("sql", 4, 24),
    "dbtalk.example": ("sql", 3, 20),
    "kitchen.example": ("cooking", 4, 24),
    "pitch.example": ("football", 4, 24),
    "greenthumb.example": ("gardening", 4, 24),
    "stargazer.example": ("astronomy", 4, 24),
    "tunes.example": ("music", 4, 24),
    "wander.example": ("travel", 4, 24),
    "archive.example": ("sql", 3, 30),  # reachable only through travel and news pages, generic anchors
    "slow.example": ("sql", 1, 12),  # Crawl-delay and slow answers
}
PORTAL = "www.portal.example"
NEWS = "news.example"
MIRROR, MIRRORED = "mirror.example", "sqlzone.example"
CALENDAR = "calendar.example"
SHOP = "shop.example"
DEAD = "gone.example"
STORM = "storm.example"  # answers 503 to everything but robots.txt
KNOWN_HOSTS = frozenset((*SITES, PORTAL, NEWS, MIRROR, CALENDAR, SHOP, STORM))
ALIASES = {"localhost": PORTAL, "127.0.0.1": PORTAL}  # reached without a proxy, by real DNS
CRAWL_DELAY = {"slow.example": 0.5}
SLOW_SECONDS = {"slow.example": 0.2}
ROBOTS_DISALLOW = {"sqlzone.example": "/private/", MIRROR: "/private/"}
ODD_LINKS = [
    "mailto:editor@portal.example",
    "javascript:void(0)",
    "file:///etc/passwd",
    "ftp://files.portal.example/pub/",
    "data:text/html,<b>hi</b>",
    "http://[oops/",
]


@dataclass
class Reply:
    status: int
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before the answer starts
    drip: float = 0.0  # seconds between single bytes of the body (a slow-drip server); 0: all at once


def with_line(reply: Reply, line: str) -> Reply:
    """An HTML page's reply with `line` added at the end of its body (the testbed's dressings of real pages);
    any other reply as it is."""
    if reply.status != 200 or not reply.content_type.startswith("text/html"):
        return reply
    body = reply.body.replace(b"</body>", line.encode() + b"</body>", 1)
    return Reply(reply.status, body, reply.content_type, reply.headers)


def not_found() -> Reply:
    return Reply(404, b"<html><body><h1>Not found</h1></body></html>")


@dataclass
class Page:
    url: str
    title: str
    topic: str
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (url, anchor, context words)
    paragraphs: list[str] = field(default_factory=list)


def calendar_month(target: str) -> tuple[str, str, str] | None:
    """A calendar trap's month page /events/YEAR/MONTH: its name (YEAR-MM) and the paths of the next and the
    previous month, forever (None for any other path)."""
    m = re.match(r"/events/(\d{4})/(\d{1,2})$", target)
    if not m:
        return None
    year, month = int(m[1]), int(m[2])
    return (
        f"{year}-{month:02d}",
        f"/events/{year + month // 12}/{month % 12 + 1}",
        f"/events/{year - (month == 1)}/{(month - 2) % 12 + 1}",
    )


class LocalWeb:
    """The pages of the generated web, addressable by host and path."""

    def __init__(self, seed: int = 7, crawl_delay: float = 0.0):
        self.rng = random.Random(seed)
        self.pages: dict[str, Page] = {}
        self.crawl_delays = dict.fromkeys(KNOWN_HOSTS, crawl_delay) if crawl_delay else CRAWL_DELAY
        self._build()

    # --- ground truth -------------------------------------------------
    def relevant_urls(self) -> set[str]:
        return {url for url, page in self.pages.items() if page.topic == TOPIC}

    def seeds(self) -> list[str]:
        return [f"http://{PORTAL}/"]

    def edges(self) -> list[tuple[str, str]]:
        """The links between the web's pages, as the crawler would canonicalize them."""
        pairs = set()
        for url, page in self.pages.items():
            for href, _, _ in page.links:
                try:
                    target = urljoin(url, href)
                except ValueError:  # one of the ODD_LINKS
                    continue
                if target in self.pages and target != url:
                    pairs.add((url, target))
        return sorted(pairs)

    # --- serving ------------------------------------------------------
    def respond(self, host: str, target: str) -> Reply:
        """The reply to GET `target` (path and query) on `host`."""
        host = ALIASES.get(host.lower().split(":")[0], host.lower().split(":")[0])
        if target == "/robots.txt":
            return self._robots(host)
        if host == MIRROR:
            reply = self.respond(MIRRORED, target)
            reply.body = reply.body.replace(MIRRORED.encode(), MIRROR.encode()).replace(
                b"<footer>", b"<footer>Mirror copy. "
            )
            return reply
        for prefix, handler in self._dynamic:
            if host == prefix[0] and target.startswith(prefix[1]):
                return handler(self, host, target)
        page = self.pages.get(f"http://{host}{target}")
        if page is None:
            if not self._hosts_known(host):
                return Reply(502, b"Bad Gateway: unknown host", "text/plain")
            return not_found()
        return self._page_reply(host, page)

    def _page_reply(self, host: str, page: Page) -> Reply:
        return Reply(200, render(page).encode(), delay=SLOW_SECONDS.get(host, 0.0))

    def _hosts_known(self, host: str) -> bool:
        return host in KNOWN_HOSTS

    def _robots(self, host: str) -> Reply:
        if not self._hosts_known(host):
            return Reply(502, b"Bad Gateway: unknown host", "text/plain")
        lines = ["User-agent: *"]
        if host in ROBOTS_DISALLOW:
            lines.append(f"Disallow: {ROBOTS_DISALLOW[host]}")
        if host in self.crawl_delays:
            lines.append(f"Crawl-delay: {self.crawl_delays[host]}")
        return Reply(200, ("\n".join(lines) + "\n").encode(), "text/plain")

    def _calendar(self, host: str, target: str) -> Reply:
        """An endless calendar: every month links to the next and previous one."""
        month = calendar_month(target)
        if month is None:
            return Reply(404)
        name, following, preceding = month
        page = Page(f"http://{host}{target}", f"SQL database meetups {name}", "calendar")
        page.paragraphs = [f"Database and SQL query meetups scheduled for {name}."]
        page.links = [
            (following, "next month: sql meetups", "database events"),
            (preceding, "previous month: sql meetups", "database events"),
        ]
        return Reply(200, render(page).encode())

    def _shop(self, host: str, target: str) -> Reply:
        """A faceted listing whose parameters combine without end."""
        page = Page(f"http://{host}{target}", "Database books and SQL guides shop", "shop")
        match = re.search(r"page=(\d+)", target)
        n = int(match[1]) if match else 1
        page.paragraphs = ["Buy books about sql, database design and query tuning."]
        page.links = [
            (f"/list?page={n + 1}&sort={s}&color={c}", f"sql books sorted by {s}", "database guides")
            for s in ("price", "name")
            for c in ("red", "blue")
        ]
        return Reply(200, render(page).encode())

    def _loop(self, host: str, target: str) -> Reply:
        """A relative-link bug: every /docs/ page links to docs/ below itself."""
        page = Page(f"http://{host}{target}", "SQL docs index", "loop")
        page.paragraphs = ["Documentation for database query tuning."]
        page.links = [("docs/", "sql documentation", "database docs")]
        return Reply(200, render(page).encode())

    def _redirect(self, host: str, target: str) -> Reply:
        if target.startswith("/r/loop"):
            nxt = "/r/loop2" if target == "/r/loop" else "/r/loop"
            return Reply(302, headers={"Location": nxt})
        return Reply(301, headers={"Location": f"/{target[len('/go/') :]}"})

    def _binary(self, host: str, target: str) -> Reply:
        body = bytes(self.rng.getrandbits(8) for _ in range(2048))
        kind = "application/pdf" if target.endswith(".pdf") else "application/octet-stream"
        return Reply(200, body, kind)

    def _flaky(self, host: str, target: str) -> Reply:
        return Reply(500, b"<html><body>Internal error</body></html>")

    def _unavailable(self, host: str, target: str) -> Reply:
        return Reply(503, b"<html><body>Service unavailable</body></html>")

    _dynamic = [
        ((CALENDAR, "/events/"), _calendar),
        (("dbtalk.example", "/events/"), _calendar),
        ((SHOP, "/list"), _shop),
        (("dbtalk.example", "/docs/"), _loop),
        ((NEWS, "/r/"), _redirect),
        (("sqlzone.example", "/go/"), _redirect),
        (("sqlzone.example", "/files/"), _binary),
        ((NEWS, "/download"), _binary),
        ((NEWS, "/flaky"), _flaky),
        ((STORM, "/"), _unavailable),
    ]

    # --- generation -----------------------------------------------------
    def _build(self) -> None:
        articles: dict[str, list[Page]] = {}
        for host, (topic, sections, per_section) in SITES.items():
            articles[host] = self._site(host, topic, sections, per_section)
        self._cross_links(articles)
        self._portal(articles)
        self._news(articles)

    def _site(self, host: str, topic: str, sections: int, per_section: int) -> list[Page]:
        home = self._page(f"http://{host}/", topic, home=True)
        topical = 0.0 if host in PLAIN_ANCHORS else 0.75
        site_articles = []
        for s in range(sections):
            section = self._page(f"http://{host}/section{s}/", topic, home=True)
            self._link(home, section, topical=min(topical, 0.6))
            chunk = [self._page(f"http://{host}/section{s}/article{a}.html", topic) for a in range(per_section)]
            for i, article in enumerate(chunk):
                self._link(section, article, topical)
                for other in self.rng.sample(chunk, 3):
                    if other is not article:
                        self._link(article, other, topical)
                if i % 6 == 0:
                    self._link(article, section, topical=0.0)
            site_articles.extend(chunk)
        return site_articles

    def _cross_links(self, articles: dict[str, list[Page]]) -> None:
        """Topical locality across hosts, plus the hazards hanging off real pages."""
        hosts = list(articles)
        for host, pages in articles.items():
            topic = SITES[host][0]
            same = [h for h in hosts if SITES[h][0] == topic and h != host and h != "archive.example"]
            for page in pages:
                if self.rng.random() < 0.35:
                    pool = same if same and self.rng.random() < 0.6 else [h for h in hosts if h != "archive.example"]
                    target = self.rng.choice(articles[self.rng.choice(pool)])
                    self._link(page, target)
        for page in articles["wander.example"][::6]:  # the way into the archive is a travel page
            page.links.append(("http://archive.example/", "old posts", "from our archive"))
        for page in articles["sqlzone.example"][::5]:
            page.links.append(("/private/drafts.html", "sql drafts: query plans", "unpublished database notes"))
            page.links.append((f"/go/section0/article{self.rng.randrange(20)}.html", "sql short link", "database"))
            page.links.append(("/files/schema.pdf", "database schema (pdf)", "download"))
        for page in articles["dbtalk.example"][::4]:
            page.links.append(("/events/2024/5", "sql meetups calendar", "database events this month"))
            page.links.append(("/docs/", "sql documentation", "database docs"))
        archive = self.pages["http://archive.example/"]
        archive.title, archive.topic, archive.paragraphs = "Archive", "archive", ["Old posts, by date."]
        archive.links = [(url, "older post", "from earlier") for url, _, _ in archive.links]

    def _portal(self, articles: dict[str, list[Page]]) -> None:
        portal = Page(f"http://{PORTAL}/", "Portal: everything on the web", "portal")
        portal.paragraphs = [self._sentence("portal", 40)]
        for host in articles:
            if host not in ("archive.example", "slow.example"):
                portal.links.append((f"http://{host}/", host.split(".")[0], "a site about many things"))
        portal.links += [
            (f"http://{NEWS}/", "news", "today"),
            (f"http://{MIRROR}/", "mirror", "a copy of a site"),
            (f"http://{CALENDAR}/events/2024/1", "events calendar", "what happens when"),
            (f"http://{SHOP}/list?page=1", "shop", "buy things"),
            (f"http://{DEAD}/", "old partner", "no longer maintained"),
        ] + [(u, "odd link", "") for u in ODD_LINKS]
        self.pages[portal.url] = portal

    def _news(self, articles: dict[str, list[Page]]) -> None:
        home = Page(f"http://{NEWS}/", "News from all over", "news")
        home.paragraphs = [self._sentence("news", 40)]
        for i in range(30):
            topic = self.rng.choice([t for t in VOCABULARY if t != TOPIC])
            story = self._page(f"http://{NEWS}/story{i}.html", topic)
            self._link(home, story)
            target_host = self.rng.choice([h for h in articles if h != "archive.example"])
            self._link(story, self.rng.choice(articles[target_host]))
            if i % 10 == 3:
                story.links.append(("http://archive.example/", "from the vault", "older stories"))
        home.links += [(f"http://{STORM}/page{i}.html", "more news", "") for i in range(12)]
        home.links += [
            ("/r/loop", "loop", ""),
            ("/download?id=7", "download", ""),
            ("/flaky", "flaky", ""),
            ("/missing.html", "gone", ""),
            ("http://slow.example/", "a slow site", ""),
        ]
        self.pages[home.url] = home

    def _page(self, url: str, topic: str, home: bool = False) -> Page:
        words = VOCABULARY[topic]
        title = " ".join(self.rng.sample(words, 3)).capitalize() + (" section" if home else "")
        page = Page(url, title, topic)
        page.paragraphs = [self._sentence(topic, self.rng.randint(40, 70)) for _ in range(2 if home else 3)]
        self.pages[url] = page
        return page

    def _link(self, source: Page, target: Page, topical: float = 0.75) -> None:
        """A link whose anchor is the target's title with probability `topical`, and whose
        surrounding words hint at the target's topic half as often."""
        anchor = target.title if self.rng.random() < topical else self.rng.choice(GENERIC_ANCHORS)
        context = self._sentence(target.topic, 6) if self.rng.random() < topical / 1.5 else self._sentence("", 6)
        source.links.append((target.url, anchor, context))

    def _sentence(self, topic: str, n: int, rng: random.Random | None = None) -> str:
        """`n` words, three in ten of the topic's, drawn from `rng` (the web's own generator by default)."""
        rng = rng or self.rng
        words = VOCABULARY.get(topic, [])
        return " ".join(rng.choice(words) if words and rng.random() < 0.3 else rng.choice(FILLER) for _ in range(n))


def render(page: Page) -> str:
    """HTML with links inside running text, so each link has words around it."""
    esc = html.escape
    body = [f"<p>{esc(p)}</p>" for p in page.paragraphs]
    for url, anchor, context in page.links:
        body.append(f'<p>{esc(context)} <a href="{esc(url)}">{esc(anchor)}</a> {esc(FILLER[len(anchor) % 20])}.</p>')
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        f"<title>{esc(page.title)}</title></head><body>"
        f'<header><a href="/">home</a></header><main><article><h1>{esc(page.title)}</h1>'
        + "".join(body)
        + "</article></main><footer>Generated page.</footer></body></html>"
    )


def write_examples(web: LocalWeb, directory: Path, positives: int = 16, negatives: int = 32) -> None:
    """Labeled pages for training: articles on the topic; other topics, indexes and keyword
    spam (calendar, shop) as negatives. Drawn from `web`, not from the web that is crawled."""
    rng = random.Random(0)
    pages = sorted(web.pages.values(), key=lambda p: p.url)
    chosen = {
        "positive": [
            render(p) for p in rng.sample([p for p in pages if p.topic == TOPIC and "/article" in p.url], positives)
        ],
        "negative": [render(p) for p in rng.sample([p for p in pages if p.topic != TOPIC], negatives - 6)],
    }
    for host, target in (
        (CALENDAR, "/events/2021/3"),
        (CALENDAR, "/events/2022/7"),
        (CALENDAR, "/events/2023/1"),
        (SHOP, "/list?page=2"),
        (SHOP, "/list?page=5"),
        (SHOP, "/list?page=9"),
    ):
        chosen["negative"].append(web.respond(host, target).body.decode())
    for label, group in chosen.items():
        folder = directory / label
        folder.mkdir(parents=True, exist_ok=True)
        for i, body in enumerate(group):
            (folder / f"{label}-{i:02d}.html").write_text(body, encoding="utf-8")
