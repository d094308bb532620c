"""A trap on three real sites: the web browsers of the repositories their manuals are written in.

Projects that keep their manual under version control often serve the repository through a web
browser (hgweb, gitweb, ViewVC): every file at every revision, its history page by page, the change
each revision made, who wrote each line. Every real page of BROWSERS' sites links to its source file
and to its history ("Show source", "Page history"), as Python's manual once linked hg.python.org. The
browser is on a host of the project's own domain (hg.python.org, svn.apache.org) or under its site
(cmake.org/gitweb/, as CMake's once was), so it is as trusted as the project. Its pages hold
the manual's own words: a file view is a page's text as source, some of its lines missing at older
revisions; the raw view the same as plain text; an annotate view each line with the revision and author
that wrote it; a diff view the lines a revision added; a log view ten revisions with their messages,
each linked to every view, then older revisions page by page. None of it is a document a reader wants:
every URL of a browser is on the hazard, and none is labeled relevant.

Written in session 87 before any crawl met it, as a held-out hazard (docs/evaluation.md, "The
benchmark web"), after the change it is first measured against was committed: no code of the
crawler was tuned on it, and none names its hosts or paths.
"""

from __future__ import annotations

import html
import json
import textwrap
import zlib
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlsplit

from testbed.docsweb.topics import SITE_SUFFIX
from testbed.localweb.web import Reply, not_found, with_line


@dataclass(frozen=True)
class Browser:
    host: str  # where the browser is served
    prefix: str  # its path there
    source: str  # the directory the manual's sources are in


BROWSERS = {
    "docs.python.org": Browser("hg.python.org", "/cpython/", "Doc"),
    "cmake.org": Browser("cmake.org", "/gitweb/", "Help"),
    "httpd.apache.org": Browser("svn.apache.org", "/viewvc/httpd/", "docs/manual"),
}
HOSTS = tuple(sorted({b.host for b in BROWSERS.values()} - set(BROWSERS)))  # hosts of their own
VIEWS = ("file", "raw", "annotate", "diff", "log")
LOG_PAGE = 10  # revisions a log page lists
MAX_REVISIONS = 40
WIDTH = 79
AUTHORS = ("Georg Brandl", "R. David Murray", "Ezio Melotti", "Éric Araujo", "Serhiy Storchaka", "Julien Palard")
VERBS = ("Clarify", "Fix typo in", "Reword", "Document", "Expand", "Update")
EPOCH = date(2009, 1, 5)


def browser_of(host: str, path: str) -> Browser | None:
    return next((b for b in BROWSERS.values() if host == b.host and path.startswith(b.prefix)), None)


def serves(host: str, path: str) -> bool:
    """Whether a request is the trap's: a path of a browser (as search.serves)."""
    return browser_of(host, path) is not None


def is_browsed(url: str) -> bool:
    parts = urlsplit(url)
    return serves(parts.hostname or "", parts.path)


def _hash(*parts: object) -> int:
    return zlib.crc32("\0".join(map(str, parts)).encode())


class Source:
    """A real page's source file: its lines, and the revision each was added in."""

    def __init__(self, browser: Browser, url: str, title: str, text: str):
        self.browser, self.url = browser, url
        self.path = browser.source + urlsplit(url).path.removesuffix(".html") + ".rst"
        title = SITE_SUFFIX.split(title)[0].strip() or self.path
        self.lines = [title, "=" * len(title), *(line for p in text.splitlines() for line in (*_wrap(p), ""))]
        self.revisions = 3 + _hash(url) % (MAX_REVISIONS - 3)
        # half the lines were there from the first revision, the others each added by a later one
        self.added = [max(_hash(url, i) % (2 * self.revisions) - self.revisions, 0) for i in range(len(self.lines))]

    def url_of(self, view: str, revision: int | str) -> str:
        return f"http://{self.browser.host}{self.browser.prefix}{view}/{revision}/{self.path}"

    def at(self, revision: int) -> list[tuple[int, str]]:
        return [(added, line) for added, line in zip(self.added, self.lines) if added <= revision]

    def message(self, revision: int) -> str:
        if revision == 0:
            return f"Add {self.path.rsplit('/', 1)[-1]}"
        words = [w for added, line in zip(self.added, self.lines) if added == revision for w in line.split()]
        word = next((w.strip(".,:;()`'\"") for w in words if len(w) > 5 and w.isalpha()), "wording")
        return f"Doc: {VERBS[_hash(self.url, revision) % len(VERBS)]} {word} in {self.path.rsplit('/', 1)[-1]}"

    def author(self, revision: int) -> str:
        return AUTHORS[_hash(self.url, revision, "author") % len(AUTHORS)]

    def day(self, revision: int) -> date:
        return EPOCH + timedelta(days=revision * 37 + _hash(self.url) % 400)


def _wrap(paragraph: str) -> list[str]:
    return textwrap.wrap(paragraph, WIDTH) or [""]


class Repository:
    """The browsers of BROWSERS' sites, over the sources of their pages in the built web (pages.jsonl)."""

    def __init__(self, root: Path):
        self.sources: dict[tuple[str, str], Source] = {}
        self.by_url: dict[str, Source] = {}
        with open(root / "pages.jsonl", encoding="utf-8") as pages:
            for line in pages:
                page = json.loads(line)
                browser = BROWSERS.get(urlsplit(page["url"]).hostname or "")
                if browser:
                    source = Source(browser, page["url"], page["title"], page["text"])
                    self.sources[browser.host, source.path] = self.by_url[source.url] = source

    def dress(self, host: str, path: str, reply: Reply) -> Reply:
        """A real page of a browsed site with its links to its source and history; any other reply as it is."""
        source = self.by_url.get(f"http://{host}{path}")
        if source is None:
            return reply
        file, log = html.escape(source.url_of("file", "tip")), html.escape(source.url_of("log", "tip"))
        return with_line(
            reply, f'<p class="source"><a href="{file}">Show source</a> · <a href="{log}">Page history</a></p>'
        )

    def respond(self, host: str, path: str) -> Reply:
        browser = browser_of(host, path)
        view, _, rest = path[len(browser.prefix) :].partition("/") if browser else ("", "", "")
        revision, _, file = rest.partition("/")
        source = self.sources.get((host, file))
        if view not in VIEWS or source is None:
            return not_found()
        number = source.revisions - 1 if revision == "tip" else int(revision) if revision.isdigit() else -1
        if not 0 <= number < source.revisions:
            return not_found()
        if view == "raw":
            text = "\n".join(line for _, line in source.at(number)) + "\n"
            return Reply(200, text.encode(), "text/plain; charset=utf-8")
        title, body = VIEW_PAGES[view](source, number)
        return Reply(200, _html(source, view, number, title, body), "text/html; charset=utf-8")


def _file(source: Source, revision: int) -> tuple[str, str]:
    lines = "".join(
        f'<span id="l{n}">{html.escape(line)}</span>\n' for n, (_, line) in enumerate(source.at(revision), 1)
    )
    return f"{source.path} @ {revision}", f'<pre class="sourcelines">{lines}</pre>'


def _annotate(source: Source, revision: int) -> tuple[str, str]:
    rows = "".join(
        f'<tr><td class="annotate"><a href="{html.escape(source.url_of("annotate", added))}#l{n}">'
        f"{html.escape(source.author(added).split()[-1].lower())}@{added}</a></td>"
        f"<td class='source'>{html.escape(line)}</td></tr>"
        for n, (added, line) in enumerate(source.at(revision), 1)
    )
    return f"{source.path} annotate @ {revision}", f"<table class='bigtable'>{rows}</table>"


def _diff(source: Source, revision: int) -> tuple[str, str]:
    """The lines `revision` added, each hunk with a line of context before and after."""
    shown = source.at(revision)
    new = {n for n, (added, _) in enumerate(shown) if added == revision}
    context = sorted({m for n in new for m in (n - 1, n, n + 1) if 0 <= m < len(shown)})
    lines = "".join(
        f'<span class="{"plusline" if n in new else "context"}">{"+" if n in new else " "}{html.escape(shown[n][1])}</span>\n'
        for n in context
    )
    head = f"diff -r {max(revision - 1, 0)} -r {revision} {source.path}"
    return (
        f"{source.path} diff @ {revision}",
        f"<p>{html.escape(source.message(revision))}</p><pre>{html.escape(head)}\n{lines}</pre>",
    )


def _log(source: Source, revision: int) -> tuple[str, str]:
    rows = "".join(
        f"<tr><td>{source.day(r).isoformat()}</td><td>{html.escape(source.author(r))}</td>"
        f"<td>{html.escape(source.message(r))}</td>"
        + "".join(
            f'<td><a href="{html.escape(source.url_of(view, r))}">{view}</a></td>'
            for view in ("file", "diff", "annotate")
        )
        + "</tr>"
        for r in range(revision, max(revision - LOG_PAGE, -1), -1)
    )
    older = revision - LOG_PAGE
    more = f'<a href="{html.escape(source.url_of("log", older))}">older</a>' if older >= 0 else ""
    return f"{source.path} revision history", f"<table class='bigtable'>{rows}</table><p>{more}</p>"


VIEW_PAGES = {"file": _file, "annotate": _annotate, "diff": _diff, "log": _log}


def _html(source: Source, view: str, revision: int, title: str, body: str) -> bytes:
    """A browser page: the view's body between the links every view of a file at a revision carries."""
    nav = [(source.url_of(v, revision), v) for v in VIEWS if v != view]
    nav += [(source.url_of(view, revision - 1), "parent")] if revision > 0 else []
    nav += [(source.url_of(view, revision + 1), "child")] if revision + 1 < source.revisions else []
    links = " | ".join(f'<a href="{html.escape(url)}">{text}</a>' for url, text in nav)
    project = source.browser.host + source.browser.prefix.rstrip("/")
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(project)}: {html.escape(title)}'
        f'</title></head><body><div class="menu">{links}</div><main><h2>{html.escape(title)}</h2>'
        f"{body}</main></body></html>"
    ).encode()
