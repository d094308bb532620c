"""A trap on three real, seeded sites: their own search results, linked from every page's tags.

Sites that run their own search engine answer every query with a page of results: the titles of
their pages that hold the query's words, each with a snippet of the page's text around them, links
to the next pages of results and to "related searches" that add a word to the query. Google's
guidelines for webmasters call such pages an infinite space and ask sites to keep them out of
crawls through robots.txt; these three do not (their search lives under the manual's own path,
which the benchmark web's robots.txt leaves open). Every real page of HOSTS carries a line of tags,
its three most distinctive words, each a link to the search for it: the tags of a page on the
topic are the topic's words. A results page is a list of links and snippets, never a document: none
is labeled relevant, however many of the topic's words its snippets hold. The results are real (the
site's pages that hold every word of the query, the ones that hold them most first), so the links
out of the trap lead to the site's real pages, and a query of a few words can be paged and
extended without end.

Written in session 86 before any crawl met it, as a held-out hazard (docs/evaluation.md, "The
benchmark web"): no code of the crawler was tuned on it, and none names its hosts or paths.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from testbed.docsweb.topics import SITE_SUFFIX
from testbed.localweb.web import Reply, with_line

HOSTS = {"docs.djangoproject.com": "/en/3.2/", "www.postgresql.org": "/docs/15/", "git-scm.com": "/docs/"}
TAGS = 3  # distinctive words of a page, each a link to the search for it
PER_PAGE = 10
RELATED = 5
MAX_WORDS = 3  # a query this long is not extended any more: related searches start again from one word
SNIPPET = 40  # words
WORD = re.compile(r"[a-z]{4,}")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
NO_RESULTS = "Your search did not match any documents."


def search_path(host: str) -> str:
    return HOSTS[host] + "search/"


def serves(host: str, path: str) -> bool:
    """Whether a request is the trap's: the search path of one of HOSTS (as aggregators.serves, bought.serves)."""
    return host in HOSTS and path == search_path(host)


def is_search(url: str) -> bool:
    """A URL of the trap: the search path of one of HOSTS, with any query."""
    parts = urlsplit(url)
    return serves(parts.hostname or "", parts.path)


def search_url(host: str, words: list[str], page: int = 1) -> str:
    query = {"q": " ".join(words), **({"page": str(page)} if page > 1 else {})}
    return f"http://{host}{search_path(host)}?{urlencode(query)}"


class Document:
    """A real page of a searched site: what a search engine indexes of it."""

    def __init__(self, url: str, title: str, text: str):
        self.url, self.title, self.text = url, SITE_SUFFIX.split(title)[0].strip() or url, text
        self.counts = Counter(WORD.findall(text.lower()))

    def snippet(self, words: list[str]) -> str:
        """SNIPPET words from the start of the first sentence that holds the query's first word."""
        text = " ".join(self.text.split())
        found = max(text.lower().find(words[0]), 0)
        start = max((m.end() for m in SENTENCE.finditer(text, 0, found)), default=0)
        return " ".join(text[start:].split()[:SNIPPET])


class SiteSearch:
    """The search results and the tag lines of HOSTS, from the built web's pages (pages.jsonl)."""

    def __init__(self, root: Path):
        self.documents: dict[str, list[Document]] = {host: [] for host in HOSTS}
        with open(root / "pages.jsonl", encoding="utf-8") as pages:
            for line in pages:
                page = json.loads(line)
                host = urlsplit(page["url"]).hostname
                if host in HOSTS:
                    self.documents[host].append(Document(page["url"], page["title"], page["text"]))
        self.tags = {document.url: tags for host in HOSTS for document, tags in self._tagged(host)}

    def _tagged(self, host: str) -> list[tuple[Document, list[str]]]:
        """Each page's TAGS most distinctive words: frequent on the page, rare on its site (tf-idf)."""
        documents = self.documents[host]
        df = Counter(word for document in documents for word in document.counts)
        idf = {word: math.log(len(documents) / n) for word, n in df.items()}
        return [
            (document, sorted(document.counts, key=lambda w: (-document.counts[w] * idf[w], w))[:TAGS])
            for document in documents
        ]

    def dress(self, host: str, path: str, reply: Reply) -> Reply:
        """A real page of HOSTS with its line of tags; any other reply as it is."""
        tags = self.tags.get(f"http://{host}{path}") if host in HOSTS else None
        if not tags:
            return reply
        links = " · ".join(f'<a href="{html.escape(search_url(host, [tag]))}">{tag}</a>' for tag in tags)
        return with_line(reply, f'<p class="tags">Tags: {links}</p>')

    def respond(self, host: str, query: str) -> Reply:
        params = dict(parse_qsl(query))
        words = WORD.findall(params.get("q", "").lower())[:MAX_WORDS]
        page = int(params["page"]) if params.get("page", "").isdigit() else 1
        if not words or page < 1:
            return Reply(400, b"<html><body>Bad query</body></html>")
        found = [d for d in self.documents[host] if all(w in d.counts for w in words)]
        found.sort(key=lambda d: (-sum(d.counts[w] for w in words), d.url))
        shown = found[(page - 1) * PER_PAGE : page * PER_PAGE]
        related = [_extended(words, tag) for tag in self._related(shown, words)]
        return Reply(200, _results_html(host, words, page, found, shown, related), "text/html; charset=utf-8")

    def _related(self, shown: list[Document], words: list[str]) -> list[str]:
        """The tags of the results shown, not in the query: the words a related search adds."""
        seen = dict.fromkeys(tag for d in shown for tag in self.tags.get(d.url, ()) if tag not in words)
        return list(seen)[:RELATED]


def _extended(words: list[str], tag: str) -> list[str]:
    return [*words, tag] if len(words) < MAX_WORDS else [tag]


def _results_html(
    host: str, words: list[str], page: int, found: list[Document], shown: list[Document], related: list[list[str]]
) -> bytes:
    """A results page: the documents shown with their snippets, links to pages of results and related searches."""
    title = f"Search results for “{' '.join(words)}”" + (f", page {page}" if page > 1 else "")
    results = "".join(
        f'<li><a href="{html.escape(d.url)}">{html.escape(d.title)}</a><p>{html.escape(d.snippet(words))}</p></li>'
        for d in shown
    )
    body = f"<p>{len(found)} documents found.</p><ol>{results}</ol>" if found else f"<p>{NO_RESULTS}</p>"
    pages = [(search_url(host, words, n), str(n)) for n in range(1, min(5, math.ceil(len(found) / PER_PAGE)) + 1)]
    if len(found) > page * PER_PAGE:
        pages.append((search_url(host, words, page + 1), "Next"))
    links = " ".join(f'<a href="{html.escape(url)}">{text}</a>' for url, text in pages)
    searches = " · ".join(
        f'<a href="{html.escape(search_url(host, query))}">{html.escape(" ".join(query))}</a>' for query in related
    )
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>'
        f"<body><main><h1>{html.escape(title)}</h1>{body}<p class='pages'>{links}</p>"
        f"<p class='related'>Related searches: {searches}</p></main></body></html>"
    ).encode()
