"""Property-based tests (hypothesis): canonicalization and link extraction on arbitrary input."""

from __future__ import annotations

from urllib.parse import urlsplit

from hypothesis import example, given, settings
from hypothesis import strategies as st
from scrapy.http import HtmlResponse

from focused.frontier.urls import VOLATILE_PARAMS, BadURL, canonical_url
from focused.pages.extract import extract

LABEL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12).filter(
    lambda s: not s.startswith("-") and not s.endswith("-")
)
SEGMENT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="/?#"), max_size=10)
PARAM = st.one_of(st.sampled_from(["utm_source", "fbclid", "sid", "id", "page", "q", "Ref"]), LABEL)


@st.composite
def urls(draw) -> str:
    scheme = draw(st.sampled_from(["http", "https", "HTTP", "Https"]))
    host = ".".join(draw(st.lists(LABEL, min_size=1, max_size=3)))
    port = draw(st.one_of(st.none(), st.sampled_from([80, 443, 8080]), st.integers(1, 65535)))
    path = "/".join(draw(st.lists(SEGMENT, max_size=4)))
    query = "&".join(f"{k}={v}" for k, v in draw(st.lists(st.tuples(PARAM, SEGMENT), max_size=4)))
    fragment = draw(st.one_of(st.none(), SEGMENT))
    url = f"{scheme}://{host}{f':{port}' if port else ''}/{path}"
    return url + (f"?{query}" if query else "") + (f"#{fragment}" if fragment is not None else "")


@given(urls())
@settings(max_examples=300, deadline=None)
def test_canonical_urls_are_fixed_points_without_fragments_default_ports_or_trackers(url: str):
    try:
        canonical = canonical_url(url)
    except BadURL:
        return  # e.g. a segment that makes the URL unparsable: refused, never crashed on
    assert canonical_url(canonical) == canonical
    parts = urlsplit(canonical)
    assert parts.scheme in ("http", "https") and not parts.fragment and parts.hostname == parts.hostname.lower()
    assert (parts.scheme, parts.port) not in (("http", 80), ("https", 443))
    assert not any(VOLATILE_PARAMS.match(pair.split("=")[0]) for pair in parts.query.split("&") if pair)


@given(st.text(max_size=200))
@settings(max_examples=500, deadline=None)
def test_any_text_is_canonical_or_refused_with_a_reason(text: str):
    try:
        canonical_url(text)
    except BadURL as exc:
        assert exc.reason


HREF = st.one_of(
    urls(),
    st.text(max_size=40),
    st.sampled_from(
        ["#top", "mailto:x@y", "javascript:x()", "//cdn.example/a", "../up", "?q=1", "data:,x", "http://[::1"]
    ),
)


@st.composite
def pages(draw) -> bytes:
    parts = []
    for href, anchor in draw(st.lists(st.tuples(HREF, st.text(max_size=20)), max_size=8)):
        parts.append(f'<p>{draw(st.text(max_size=30))}<a href="{href}">{anchor}</a>')
    junk = draw(st.text(alphabet="<>/&;\"'= abc", max_size=40))
    return (f"<html><head><title>{draw(st.text(max_size=20))}</title></head><body>" + "".join(parts) + junk).encode(
        "utf-8", "surrogatepass"
    )


@given(pages())
@example(
    b'<html><head><title></title></head><body><p>\x1f<a href="http://0/"></a>;'
)  # a control byte by a list of links
@settings(max_examples=200, deadline=None)
def test_link_extraction_never_fails_and_keeps_only_canonical_fetchable_links(body: bytes):
    response = HtmlResponse("http://site.example/dir/page.html", body=body, encoding="utf-8")
    page = extract(response, context_words=5)
    urls_found = [link.url for link in page.links]
    assert len(urls_found) == len(set(urls_found)) and response.url not in urls_found
    for url in urls_found:
        assert canonical_url(url) == url and urlsplit(url).scheme in ("http", "https")
