"""A trap on two real, seeded sites: display options and revision history as URLs.

Every page of HOSTS is served with a line of display options (theme, font size) and a link to its
previous revision, each a query on the page's own URL, as wikis and documentation platforms
do. The server answers every such URL with the same page, the line rebuilt for that URL: an
endless space of near-duplicates (each revision links to the one before it) under the trust
of a site the crawl seeds, none of them labeled relevant (the clean URL is the page). A real
server would often keep them out through robots.txt; this one does not. docs.python.org's
pages declare their clean URL as canonical (<link rel="canonical">), as real pages often do;
docs.djangoproject.com's declare none.

Written in session 81 before any crawl met it, as a held-out hazard (docs/evaluation.md, "The
benchmark web"): no code of the crawler was tuned on it, and none names its hosts or parameters.
"""

from __future__ import annotations

import html
from urllib.parse import parse_qsl, urlencode, urlsplit

from testbed.localweb.web import Reply, with_line

HOSTS = ("docs.python.org", "docs.djangoproject.com")
PARAMS = ("theme", "font", "rev")
OPTIONS = (("theme", "light"), ("theme", "dark"), ("font", "small"), ("font", "large"))
LATEST_REVISION = 5000


def is_facet(url: str) -> bool:
    """A URL of the trap: a page of HOSTS with any of its parameters."""
    parts = urlsplit(url)
    return parts.hostname in HOSTS and any(key in PARAMS for key, _ in parse_qsl(parts.query))


def dress(host: str, target: str, reply: Reply) -> Reply:
    """A page of HOSTS with its line of options and its previous revision; any other reply as it is."""
    if host not in HOSTS:
        return reply
    parts = urlsplit(target)
    params = dict(parse_qsl(parts.query))
    revision = int(params.get("rev", LATEST_REVISION)) if params.get("rev", "").isdigit() else LATEST_REVISION
    links = [(f"{key.title()}: {value}", {**params, key: value}) for key, value in OPTIONS]
    links.append((f"Previous revision ({revision - 1})", {**params, "rev": str(revision - 1)}))
    anchors = " · ".join(
        f'<a href="{html.escape(f"{parts.path}?{urlencode(query)}")}">{text}</a>' for text, query in links
    )
    return with_line(reply, f'<p class="page-options">Page options: {anchors}</p>')
