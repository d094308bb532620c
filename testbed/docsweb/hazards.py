"""Hazard hosts of the benchmark web, reached from a few real pages.

- calendar.example: an endless events calendar whose titles bait both topics;
- spam.example: keyword-stuffed pages that link to ever more of themselves;
- mirror.example: a near-duplicate copy of www.sqlite.org, with a banner;
- app.example: a single-page app whose text and links exist only after its script runs;
- loop.example: redirect loops and an endless redirect chain.
None of their pages is labeled relevant: bait, copies and empty shells add nothing.
The adversarial hosts (farms.py) are linked from the same entry pages, and a few more.
"""

from __future__ import annotations

import html
import re

from testbed.localweb.web import Page, Reply, calendar_month, render

CALENDAR, SPAM, MIRROR, APP, LOOP = "calendar.example", "spam.example", "mirror.example", "app.example", "loop.example"
MIRRORED = "www.sqlite.org"
HOSTS = (CALENDAR, SPAM, MIRROR, APP, LOOP)
# The real pages that link to the hazards (a "community" line appended to each) and, with
# FARM_ENTRY_PAGES, to the adversarial hosts (a "sponsored" line).
ENTRY_PAGES = (
    "http://docs.python.org/3/index.html",
    "http://docs.djangoproject.com/en/3.2/index.html",
    "http://www.sqlite.org/index.html",
    "http://httpd.apache.org/docs/2.4/index.html",
)
FARM_ENTRY_PAGES = ENTRY_PAGES + (
    "http://pandas.pydata.org/docs/index.html",
    "http://docs.pytest.org/en/7.2.x/index.html",
    "http://www.postgresql.org/docs/15/index.html",
    "http://cmake.org/cmake/help/v3.25/index.html",
)
BAIT = (
    "transaction commit rollback isolation lock database SQL HTTP request response header cookie cache proxy status"
).split()


def community_links() -> bytes:
    """The line appended to each entry page."""
    links = [
        (f"http://{CALENDAR}/events/2026/11", "Events: HTTP and database meetups"),
        (f"http://{SPAM}/guide/1", "Free guide: SQL transactions and HTTP caching"),
        (f"http://{MIRROR}/index.html", "SQLite documentation mirror"),
        (f"http://{APP}/", "HTTP status code explorer"),
        (f"http://{LOOP}/go/docs", "Short link to the docs"),
    ]
    anchors = " · ".join(f'<a href="{url}">{html.escape(text)}</a>' for url, text in links)
    return f'<p class="community">Community: {anchors}</p>'.encode()


def respond(host: str, target: str, mirrored: Reply) -> Reply:
    """The reply of a hazard host; `mirrored` is www.sqlite.org's reply to the same target."""
    if host == MIRROR:
        return _mirror(mirrored)
    handler = {CALENDAR: _calendar, SPAM: _spam, APP: _app, LOOP: _loop}[host]
    return handler(host, target)


def _calendar(host: str, target: str) -> Reply:
    month = calendar_month(target)
    if month is None:
        return Reply(404, b"<html><body>No such month</body></html>")
    name, following, preceding = month
    page = Page(f"http://{host}{target}", f"HTTP and database events, {name}", "calendar")
    page.paragraphs = [f"Meetups on SQL transactions, HTTP caching and web servers in {name}."]
    page.links = [(following, "next month", "HTTP and SQL events"), (preceding, "previous month", "database meetups")]
    return Reply(200, render(page).encode())


def _spam(host: str, target: str) -> Reply:
    m = re.match(r"/guide/(\d+)$", target)
    if not m:
        return Reply(404, b"<html><body>Not found</body></html>")
    n = int(m[1])
    page = Page(f"http://{host}{target}", f"Best {' '.join(BAIT[n % 5 : n % 5 + 4])} guide {n}", "spam")
    page.paragraphs = [" ".join(BAIT[(i * 7 + n) % len(BAIT)] for i in range(120)), "Buy now! Best prices!"]
    page.links = [
        (f"/guide/{n + step}", f"{BAIT[(n + step) % len(BAIT)]} {BAIT[(n + 3) % len(BAIT)]} guide", "")
        for step in (1, 2, 3)
    ]
    return Reply(200, render(page).encode())


def _mirror(reply: Reply) -> Reply:
    if reply.status != 200 or "html" not in reply.content_type:
        return reply
    banner = b'<p class="banner">Unofficial mirror, updated nightly.</p>'
    body = re.sub(rb"(<body[^>]*>)", lambda m: m[1] + banner, reply.body, count=1)
    return Reply(200, body.replace(MIRRORED.encode(), MIRROR.encode()), reply.content_type)


APP_SHELL = """<!doctype html><html><head><meta charset="utf-8"><title>HTTP status explorer</title></head>
<body><div id="app">Loading...</div><script>
const codes = [[200, "OK"], [301, "Moved Permanently"], [304, "Not Modified"], [404, "Not Found"], [503, "Service Unavailable"]];
document.getElementById("app").innerHTML = "<h1>HTTP status codes</h1>" + codes.map(([code, name]) =>
  "<p>HTTP " + code + " " + name + ": what the response status means for clients, caches and proxies.</p>").join("") +
  '<p>See <a href="http://docs.python.org/3/library/http.html">the http package</a> and ' +
  '<a href="http://httpd.apache.org/docs/2.4/mod/mod_cache.html">mod_cache</a>.</p>';
</script></body></html>"""


def _app(host: str, target: str) -> Reply:
    if target != "/":
        return Reply(404, b"<html><body>Not found</body></html>")
    return Reply(200, APP_SHELL.encode())


def _loop(host: str, target: str) -> Reply:
    """/go/docs bounces between two URLs forever; /hop/N redirects to /hop/N+1 without end."""
    if target.startswith("/go/"):
        return Reply(302, headers={"Location": "/go/home" if target == "/go/docs" else "/go/docs"})
    m = re.match(r"/hop/(\d+)$", target)
    return Reply(302, headers={"Location": f"/hop/{int(m[1]) + 1}" if m else "/hop/1"})
