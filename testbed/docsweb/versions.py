"""A trap on two real, seeded sites: every page of the manual under every other release's URL.

Documentation sites keep the manual of each release they support, and every page carries a version
switcher linking to the same page in the others. Most pages change little between releases, so a
crawl that follows the switcher reads each page again once per release, and since the manuals' links
are relative, each copy leads on through a whole copy of the manual. Here PostgreSQL's and
SQLAlchemy's manuals get a switcher line on every page, and the server answers each other release's
path with the page of the release built (the switcher rebuilt for it): a copy of the manual per
release, none of it labeled (the built release is the page). The path changes, not the query: nothing
of the query-parameter fade (focused/strategies/variants.py) sees it.

What a crawl is charged for is reading a page again, not the release it read it under first: the web
links into PostgreSQL's manual at /docs/current/ (SQLAlchemy's and pandas' pages do), and a crawl
that reads the manual there reads each page once, as a reader would. So a crawl is judged as read
(`as_read`): the first read of a page under any release stands for the built page, labels and all,
and every later read of it is a copy, on the hazard. (Session 83: judged by URL, a crawl that met
the manual under "current" first was charged 22% of its pages for reading it once.)

Written in session 82 before any crawl met it, as a held-out hazard (docs/evaluation.md, "The
benchmark web"): no code of the crawler was tuned on it, and none names its hosts or paths.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

from testbed.localweb.web import Reply, with_line

# per host: the path prefix before the release, the release built, the other releases served as copies
HOSTS = {
    "www.postgresql.org": ("/docs/", "15", ("16", "14", "13", "12", "11", "10", "9.6", "current", "devel")),
    "docs.sqlalchemy.org": ("/en/", "14", ("20", "13", "12", "11", "10", "latest")),
}


def release_of(host: str, path: str) -> tuple[str, str] | None:
    """(release, path within it) of a manual page of HOSTS, or None."""
    if host not in HOSTS:
        return None
    prefix, built, others = HOSTS[host]
    for release in (built, *others):
        if path.startswith(f"{prefix}{release}/"):
            return release, path[len(prefix) + len(release) :]
    return None


def is_copy(host: str, path: str) -> bool:
    """A URL of the trap: a page of HOSTS under a release other than the one built."""
    found = release_of(host, path)
    return found is not None and found[0] != HOSTS[host][1]


def built_path(host: str, path: str) -> str:
    """The path of the built release's page that a copy's path serves."""
    found = release_of(host, path)
    return path if found is None else f"{HOSTS[host][0]}{HOSTS[host][1]}{found[1]}"


def dress(host: str, path: str, reply: Reply) -> Reply:
    """A manual page of HOSTS with its switcher (to the same page in every other release); any other reply as it
    is."""
    found = release_of(host, path)
    if found is None:
        return reply
    prefix, built, others = HOSTS[host]
    release, rest = found
    anchors = " · ".join(
        f'<a href="{html.escape(f"{prefix}{other}{rest}")}">{other}</a>'
        for other in (built, *others)
        if other != release
    )
    return with_line(reply, f'<p class="version-switcher">This page in other versions: {anchors}</p>')


def as_read(urls: Iterable[str]) -> Iterator[str]:
    """A crawl's URLs in order, as read: a manual page's first read under any release as the built page's URL,
    a later read of it as the URL the first read had (a copy, unless that was the built page too: then its
    own). Every URL stays once."""
    first: dict[tuple[str, str], str] = {}
    for url in urls:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if release_of(host, parts.path) is None:
            yield url
            continue
        built = parts._replace(path=built_path(host, parts.path), fragment="").geturl()
        earlier = first.setdefault((host, built), url)
        yield built if earlier == url else (earlier if url == built else url)
