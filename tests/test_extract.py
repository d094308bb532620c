"""Extraction of title, main text and links with their context."""

from __future__ import annotations

import asyncio

from scrapy.http import HtmlResponse, TextResponse

from focused.pages.analysis import analyze
from focused.pages.credibility import topic_words
from focused.pages.extract import extract, is_file, is_html
from focused.pages.neardup import fingerprint
from focused.pages.workers import Extraction

HTML = b"""<!doctype html><html><head><title> A  page </title><base href="http://ex.com/docs/"></head>
<body><article><h1>Indexes</h1><p>One two three four five six seven eight nine ten eleven twelve thirteen
fourteen fifteen sixteen seventeen eighteen nineteen twenty.</p>
<p>Read about the query planner <a href="planner.html#top">SQL query planning</a> and how it picks an index.</p>
<p><a href="mailto:x@ex.com">mail</a> <a href="javascript:void(0)">js</a> <a href="http://[bad/">bad</a>
<a href="/files/report.pdf">report</a> <a href="planner.html">again</a> <a href="#frag">here</a></p>
</article></body></html>"""


def test_links_carry_anchor_and_the_words_around_them():
    page = extract(HtmlResponse("http://ex.com/docs/index.html", body=HTML), context_words=4)
    assert page.title == "A page"
    assert [link.url for link in page.links] == ["http://ex.com/docs/planner.html"]  # base href, no fragment, once
    link = page.links[0]
    assert link.anchor == "SQL query planning"
    assert link.context == "about the query planner and how it picks"
    assert page.dropped == {"scheme/mailto": 1, "scheme/javascript": 1, "malformed": 1, "extension": 1}
    assert "query planner" in page.text


def test_only_html_is_parsed_for_links():
    assert is_html(HtmlResponse("http://ex.com/", body=HTML, headers={"Content-Type": "text/html"}))
    assert not is_html(TextResponse("http://ex.com/x", body=b"%PDF-1.4", headers={"Content-Type": "application/pdf"}))


def test_what_the_page_hides_from_readers_is_neither_text_nor_links():
    body = b"""<html><head><title>Flights</title></head><body><p>Cheap flights to Lisbon <a href="/deals/2">more</a></p>
<div style="DISPLAY: None"><p>A regular expression pattern matches text.</p><a href="/deals/3">regex tips</a>
<span hidden><a href="/deals/4">nested</a></span></div><p hidden>x <a href="/deals/5">five</a></p>
<p style="visibility:hidden"><a href="/deals/6">six</a></p><p>Book today.</p></body></html>"""
    response = HtmlResponse("http://shop.example/deals/1", body=body)
    page = extract(response, context_words=2)
    assert [link.url for link in page.links] == ["http://shop.example/deals/2"]
    assert page.dropped == {"hidden": 4}
    assert "regular expression" not in page.text and "Book today" in page.text
    assert len(response.xpath("//a")) == 5  # the response's own tree is left whole


def test_the_text_leaves_out_lists_of_links_to_other_sites_not_links_in_sentences():
    body = b"""<html><head><title>Contents</title></head><body><main><h1>The manual</h1>
<p>Chapters: <a href="/docs/intro.html">Introduction to the server</a> and <a href="http://www.ex.com/docs/sql.html">SQL
language</a>. The protocol is <a href="http://rfc.example/9110">HTTP semantics</a> over a socket.</p>
<p>Sponsored: <a href="http://farm.example/p/1">unit test guide</a> &#183; <a href="http://farm.example/p/2">test
fixture guide</a></p><ul><li><a href="http://farm.example/p/3">pytest plugins</a></li></ul></main></body></html>"""
    page = extract(HtmlResponse("http://docs.ex.com/docs/index.html", body=body), context_words=2)
    assert "Introduction to the server" in page.text and "SQL language" in page.text  # the same site: its own words
    assert "HTTP semantics over a socket" in page.text  # a link in a sentence
    assert "guide" not in page.text and "plugins" not in page.text and "Sponsored:" in page.text
    assert [link.anchor for link in page.links][3:] == ["unit test guide", "test fixture guide", "pytest plugins"]


def test_a_list_of_links_to_several_other_sites_gives_links_without_words():
    body = b"""<html><head><title>Contents</title></head><body><main><h1>The manual</h1>
<p>Run the suite with <a href="http://pytest.example/run.html">pytest's runner</a> and a fixture.</p>
<p>See: <a href="http://api.example/a.html">DataFrame.apply</a>, <a href="http://api.example/b.html">Series.map</a></p>
<p>Sponsored: <a href="http://farm.example/p/1">unit test guide</a> &#183; <a href="http://spun.example/p/2">test
fixture guide</a></p></main></body></html>"""
    page = extract(HtmlResponse("http://docs.ex.com/index.html", body=body), context_words=2)
    links = {link.url.split("/")[2]: link for link in page.links}
    assert links["pytest.example"].anchor == "pytest's runner"  # a link in a sentence
    assert [link.anchor for link in page.links[1:3]] == ["DataFrame.apply", "Series.map"]  # into one other site
    assert {(link.anchor, link.context) for link in page.links[3:]} == {("", "")}  # a directory, an advertisement
    assert [link.url for link in page.links[3:]] == ["http://farm.example/p/1", "http://spun.example/p/2"]


def test_a_file_is_told_by_the_extension_of_its_last_path_segment():
    files = [
        "http://a.example/x.pdf",
        "http://a.example/d/f.tar.gz",
        "http://a.example/F.JPG",
        "http://a.example/x.ps?v=1",
    ]
    pages = ["http://a.example/steps", "http://a.example/maps", "http://a.example/guitar", "http://a.example/v1.2/"]
    assert all(map(is_file, files)) and not any(map(is_file, pages))  # pages ending in "ps" or "tar" included


def test_a_worker_process_returns_the_page_and_the_analysis_the_crawls_process_computes():
    response = HtmlResponse("http://ex.com/docs/index.html", body=HTML * 3)
    words = topic_words(["query planner", "index"])

    async def both() -> list:
        pools = [Extraction(workers, 30.0, 4, words) for workers in (0, 1)]
        try:
            return [await pool(response) for pool in pools]
        finally:
            for pool in pools:
                pool.close()

    here, there = asyncio.run(both())
    assert there.page == here.page and there.analysis == here.analysis
    assert here.analysis == analyze(here.page, words)
    assert here.analysis.fingerprint == fingerprint(here.page.text) and here.analysis.features["topic_density"] > 0
