"""Extraction: a fetched HTML page becomes title, main text and links with their context."""

from __future__ import annotations

import re
from collections import Counter
from copy import deepcopy
from dataclasses import dataclass, field
from typing import TypeGuard
from urllib.parse import urljoin

import trafilatura
from lxml.etree import XPath
from lxml.html import HtmlElement
from scrapy.http import HtmlResponse, Response
from scrapy.linkextractors import IGNORED_EXTENSIONS
from scrapy.utils.response import get_base_url

from focused.frontier.urls import BadURL, canonical_url, host_of, site_of

SPACES = re.compile(r"\s+")
MAX_ANCHOR_CHARS = 200
# Elements that hold a line of text of their own, the unit in which links are weighed against words.
BLOCKS = frozenset(
    "p li dd dt td th div pre blockquote h1 h2 h3 h4 h5 h6 section article main aside nav header footer body".split()
)
LINK_LIST = 0.75  # the share of a block's words in anchors to other sites that makes it a list of links to them
WORD = re.compile(r"\w+")
FILE_EXTENSIONS = frozenset(f".{extension}" for extension in IGNORED_EXTENSIONS)  # files no crawl reads as pages


@dataclass(frozen=True)
class Link:
    url: str
    anchor: str
    context: str  # words just before and just after the link


@dataclass
class Page:
    url: str
    title: str
    text: str
    links: list[Link]
    dropped: Counter[str] = field(default_factory=Counter)  # links not kept, by reason


def is_html(response: Response) -> TypeGuard[HtmlResponse]:
    content_type = (response.headers.get("Content-Type") or b"").decode("latin-1").lower()
    return isinstance(response, HtmlResponse) and (not content_type or "html" in content_type)


# Hidden from readers: the attribute, or an inline style (case and spaces aside).
_STYLE = "translate(@style, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ ', 'abcdefghijklmnopqrstuvwxyz')"
HIDDEN = XPath(f"//body//*[@hidden or contains({_STYLE}, 'display:none') or contains({_STYLE}, 'visibility:hidden')]")
CONTROL_BYTES = frozenset(range(32)) - {9, 10, 12, 13}


def looks_binary(body: bytes, sample: int = 1024) -> bool:
    """Binary data served as HTML: text has no NUL bytes and almost no other control bytes."""
    head = body[:sample]
    return b"\x00" in head or sum(byte in CONTROL_BYTES for byte in head) > 0.05 * len(head)


def extract(response: HtmlResponse, context_words: int) -> Page:
    """Links first (from a copy of Scrapy's parsed tree), then trafilatura's main text from the same copy, both
    without what the page hides from its readers, and the text without its lists of links to other sites."""
    page = Page(response.url, _title(response.selector.root), "", [])
    root = _visible(deepcopy(response.selector.root), page.dropped)
    base = get_base_url(response)
    site = site_of(host_of(response.url))
    seen = {response.url}
    elsewhere = []  # (element, its site) of the links off the page's site
    kept = []  # (element, link) of the links the page gives, each URL once
    for a in root.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith("#"):
            continue
        try:
            url = canonical_url(urljoin(base, href))
        except (BadURL, ValueError) as exc:
            page.dropped[getattr(exc, "reason", "malformed")] += 1
            continue
        target = site_of(host_of(url))
        if target != site:
            elsewhere.append((a, target))
        if url in seen:
            continue
        seen.add(url)
        if is_file(url):
            page.dropped["extension"] += 1
            continue
        kept.append((a, Link(url, _anchor(a), _context(a, context_words))))
    listed = _empty_link_lists(elsewhere)
    page.links = [Link(link.url, "", "") if a in listed else link for a, link in kept]
    page.text = trafilatura.extract(root, fast=True, include_comments=False) or _clean(root.text_content())
    return page


def _empty_link_lists(elsewhere: list[tuple[HtmlElement, str]]) -> set[HtmlElement]:
    """Takes the words out of lists of links to other sites (blocks whose words are mostly their anchors), and
    returns the links of those lists that link to more than one other site, whose words are no evidence either.
    What a page says in those anchors describes the other sites, not the page: a line of stuffed anchors
    injected into a real page (a hacked page, a copy with "sponsored" links) would otherwise lend the page the
    topic's words. A link in a sentence keeps its words, and so does the page's reader (the items carry the
    text). A list of links into one other site is the page's references into it (an API's names), chosen for
    what they lead to; a list of links to several is a directory or an advertisement, whose anchors are what
    the buyer of a link wrote (Gyongyi and Garcia-Molina 2005: link exchanges, sponsored links), and they
    took a crawl into link farms before any real link (docs/benchmarks.md, session 75)."""
    blocks: dict[HtmlElement, list[tuple[HtmlElement, str]]] = {}
    for a, target in elsewhere:
        block = next((e for e in a.iterancestors() if e.tag in BLOCKS), a.getparent())
        blocks.setdefault(block, []).append((a, target))
    listed: set[HtmlElement] = set()
    for block, links in blocks.items():
        if sum(_words(a) for a, _ in links) >= LINK_LIST * _words(block):
            if len({target for _, target in links}) > 1:
                listed.update(a for a, _ in links)
            for a, _ in links:
                _empty(a)
    return listed


def is_file(url: str) -> bool:
    """Whether a canonical URL names a file by its extension (.pdf, .tar.gz, ...): only the last path segment's
    suffixes count, so /steps or /maps are pages (Scrapy's url_has_any_extension, given extensions without
    their dot, took any path ending in "ps" or "tar" for a file)."""
    name = url.split("?", 1)[0].rsplit("/", 1)[-1].lower()  # a canonical URL has no fragment
    return any(name[i:] in FILE_EXTENSIONS for i, char in enumerate(name) if char == ".")


def _visible(root: HtmlElement, dropped: Counter[str]) -> HtmlElement:
    """The tree without elements hidden from readers (the `hidden` attribute, an inline display:none or
    visibility:hidden): text and links a person cannot see are no evidence of what the page is about or
    links to, and hiding them is how hacked sites carry injected links and cloaked pages their keywords
    (Gyongyi and Garcia-Molina 2005, "content hiding")."""
    hidden = set(HIDDEN(root))
    for element in hidden:
        if not any(ancestor in hidden for ancestor in element.iterancestors()):
            dropped["hidden"] += sum(1 for a in element.iter("a") if a.get("href"))
            element.drop_tree()
    return root


def _title(root: HtmlElement) -> str:
    return _clean(root.findtext(".//title") or "")


def _anchor(a: HtmlElement) -> str:
    text = _clean(a.text_content()) or a.get("title") or " ".join(img.get("alt", "") for img in a.iter("img"))
    return text[:MAX_ANCHOR_CHARS]


def _context(a: HtmlElement, n: int) -> str:
    """The n words before and after the link, within its block."""
    previous = a.getprevious()
    before = (previous.tail if previous is not None else a.getparent().text) or ""
    after = a.tail or ""
    return " ".join(before.split()[-n:] + after.split()[:n])


def _empty(a: HtmlElement) -> None:
    """The anchor without its words, in place: the text around it is not rewritten (lxml refuses to set a text
    with control characters, which a parsed page may hold)."""
    for child in list(a):
        a.remove(child)
    a.text = None


def _words(element: HtmlElement) -> int:
    return len(WORD.findall(element.text_content()))


def _clean(text: str) -> str:
    return SPACES.sub(" ", text).strip()
