"""A web of broken and hostile answers, for checking that a crawl survives them.

`python -m testbed.localweb serve --hostile` serves it. hostile.example's front page links
to one case each (malformed HTML, wrong and missing charsets, a decompression bomb, a
huge body, binary served as HTML, an endless redirect chain, links with odd schemes and
invalid URLs) and to ordinary pages between them; its /private-links.html (linked from
nowhere) points at the network beside the crawler or its proxy, in every spelling.
tarpit.example answers slowly or never; two hosts have a garbage and a very large
robots.txt, two a robots.txt that fails (a 503, no answer at all). The crawl must fetch
every ordinary page, skip each hostile one with a logged, counted reason, and fetch nothing
but robots.txt from a host whose rules it cannot read. Its /table-bomb.html (also linked from nowhere)
takes seconds to extract. spa.example is a single-page
application: its text and links exist only after its script runs.
"""

from __future__ import annotations

import gzip
import random

from testbed.localweb.web import Reply

HOSTILE, TARPIT = "hostile.example", "tarpit.example"
GARBAGE_ROBOTS, HUGE_ROBOTS = "garbage-robots.example", "huge-robots.example"
HOSTS = (HOSTILE, TARPIT, GARBAGE_ROBOTS, HUGE_ROBOTS)
DOWN_ROBOTS, SILENT_ROBOTS = "down-robots.example", "silent-robots.example"
UNREADABLE_ROBOTS = (DOWN_ROBOTS, SILENT_ROBOTS)
SPA = "spa.example"
SPA_SCRIPT = b"""
const app = document.getElementById("app");
app.innerHTML = "<h1>Query planner guide</h1><p>" + "Indexes, joins and SQL query plans explained. ".repeat(12) + "</p>";
for (const n of [1, 2, 3]) {
  const p = document.createElement("p");
  p.innerHTML = 'Chapter <a href="/chapter/' + n + '.html">chapter ' + n + ' on SQL joins</a> of the guide.';
  app.appendChild(p);
}
"""
LIMIT = 1024 * 1024  # the DOWNLOAD_MAXSIZE the tests crawl with: the bomb and the huge page exceed it
GOOD_PAGES = 3  # ordinary pages per host
CASES = {
    "/malformed.html": "malformed HTML",
    "/latin1.html": "Latin-1 text with no charset anywhere",
    "/wrong-charset.html": "Windows-1252 text declared as UTF-8",
    "/bomb.html": "a gzip bomb",
    "/huge.html": "a body larger than the size limit",
    "/binary.html": "binary data served as text/html",
    "/loop/0": "an endless chain of redirects",
}
ODD_LINKS = [
    "ftp://hostile.example/pub/",
    "data:text/html,<b>x</b>",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "http://[::1",
    "http://exa mple.com/",
    "http://hostile.example:99999/",
    "gopher://hostile.example/",
    "http://hostile.example/" + "x" * 5000,
]


# Links into the network beside the crawler (or beside its proxy), each spelling once: names
# that can only mean a local network, and IP literals as resolvers accept them.
PRIVATE_NAMES = [
    "http://localhost:8000/",
    "http://localhost:8000/polls/",
    "http://LocalHost./admin/",
    "http://api.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/v1/",
    "http://router.home.arpa/",
    "http://intranet/",
]
LOOPBACK_LITERALS = [
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0x7f000001:8000/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]:8080/",
]
PRIVATE_LITERALS = [
    "http://0xa9fea9fe/latest/meta-data/",
    "http://3232235521/",
    "http://10.1/",
    "http://012.0.0.1/",
    "http://[64:ff9b::c0a8:1]/",
    "http://[fe80::1]/",
]
PRIVATE_LINKS_PAGE = "/private-links.html"
TABLE_BOMB = "/table-bomb.html"  # linked from nowhere, like PRIVATE_LINKS_PAGE: a test seeds it


def page(title: str, text: str, links: tuple[str, ...] | list[str] = (), charset: str | None = "utf-8") -> str:
    anchors = "".join(f'<p>See <a href="{url}">{url[:40]}</a> for more.</p>' for url in links)
    meta = f'<meta charset="{charset}">' if charset else ""
    return (
        f"<!doctype html><html><head>{meta}<title>{title}</title></head>"
        f"<body><main><h1>{title}</h1><p>{text}</p>{anchors}</main></body></html>"
    )


def good_links(host: str) -> list[str]:
    return [f"http://{host}/good/{i}.html" for i in range(GOOD_PAGES)]


class HostileWeb:
    def __init__(self) -> None:
        rng = random.Random(5)
        self.noise = bytes(rng.getrandbits(8) for _ in range(4096))
        self.bomb = gzip.compress(b"<html><body>" + b" " * (20 * LIMIT) + b"</body></html>")

    def respond(self, host: str, target: str) -> Reply:
        host = HOSTILE if host == "127.0.0.1" else host  # reached without a proxy
        if host == SPA:
            return self._spa(target)
        if host not in HOSTS + UNREADABLE_ROBOTS:
            return Reply(502, b"Bad Gateway: unknown host", "text/plain")
        if target == "/robots.txt":
            return self._robots(host)
        if target.startswith("/good/"):
            text = "Ordinary page about SQL databases, transactions and query plans. " * 20
            return Reply(200, page(f"Good page {target} on {host}", text).encode())
        if host == TARPIT:
            return self._tarpit(target)
        if host == HOSTILE:
            return self._case(target)
        links = [*good_links(host), f"http://{host}/private/secret.html"]  # huge-robots.example disallows /private/
        return Reply(200, page(f"Front page of {host}", "A host with a strange robots.txt.", links).encode())

    def _robots(self, host: str) -> Reply:
        if host == DOWN_ROBOTS:
            return Reply(503, b"Service Unavailable", "text/plain")
        if host == SILENT_ROBOTS:
            return Reply(200, b"", delay=3600)
        if host == GARBAGE_ROBOTS:
            return Reply(200, self.noise, "text/plain")
        if host == HUGE_ROBOTS:  # 600 kB of rules, under the size limit: it must be parsed, not skipped
            rules = "".join(f"Disallow: /nothing-{i}/\n" for i in range(25_000))
            return Reply(200, f"User-agent: *\n{rules}Disallow: /private/\n".encode(), "text/plain")
        return Reply(200, b"User-agent: *\nDisallow:\n", "text/plain")

    def _spa(self, target: str) -> Reply:
        if target == "/robots.txt":
            return self._robots(SPA)
        if target == "/app.js":
            return Reply(200, SPA_SCRIPT, "application/javascript")
        if target.startswith("/chapter/"):
            return Reply(200, page(f"Chapter {target[9:]}", "SQL joins, step by step. " * 20).encode())
        shell = '<!doctype html><html><head><title>Guide</title><script src="/app.js" defer></script></head>'
        return Reply(200, (shell + '<body><div id="app"></div></body></html>').encode())

    def _tarpit(self, target: str) -> Reply:
        if target == "/drip.html":  # a byte every half second: never done within the download timeout
            return Reply(200, page("Drip", "x" * 200).encode(), drip=0.5)
        if target == "/silent.html":
            return Reply(200, b"", delay=3600)
        links = ["/drip.html", "/silent.html", *good_links(TARPIT)]
        return Reply(200, page("Tarpit", "Slow answers.", links).encode())

    def _case(self, target: str) -> Reply:
        if target == "/":
            links = [url for i, case in enumerate(CASES) for url in (case, f"/good/{i % GOOD_PAGES}.html")]
            links += ODD_LINKS + good_links(HOSTILE) + [f"http://{h}/" for h in HOSTS[1:] + UNREADABLE_ROBOTS]
            return Reply(200, page("Hostile front page", "Every kind of trouble.", links).encode())
        if target == "/malformed.html":
            body = b"<html><head><title>Malformed</title><body><div><p>SQL <b>tables <table><tr><td>rows</p>"
            return Reply(200, body + b"</div></span><<<>>> &bogus; <a href='/good/0.html'>good<" + b"<div>" * 5000)
        if target == "/latin1.html":
            return Reply(
                200, page("Café crème", "Données très françaises.", charset=None).encode("latin-1"), "text/html"
            )
        if target == "/wrong-charset.html":
            return Reply(200, page("Naïve “quotes”", "Smart quotes ‘here’.").encode("cp1252"))
        if target == "/bomb.html":
            return Reply(200, self.bomb, headers={"Content-Encoding": "gzip"})
        if target == "/huge.html":
            return Reply(200, b"<html><body>" + b"a" * (2 * LIMIT) + b"</body></html>")
        if target == "/binary.html":
            return Reply(200, self.noise)
        if target == PRIVATE_LINKS_PAGE:
            links = [*PRIVATE_NAMES, *LOOPBACK_LITERALS, *PRIVATE_LITERALS, *good_links(HOSTILE)]
            return Reply(200, page("Links inward", "Admin consoles, metadata and printers.", links).encode())
        if target == TABLE_BOMB:  # under the size limit, and seconds of extraction: it outlasts a worker's time
            return Reply(
                200, b"<html><body><table>" + b"<tr><td>a</td><td>b</td></tr>" * 30_000 + b"</table></body></html>"
            )
        if target.startswith("/loop/"):
            return Reply(302, headers={"Location": f"/loop/{int(target[6:] or 0) + 1}"})
        return Reply(404, b"<html><body>Not found</body></html>")
