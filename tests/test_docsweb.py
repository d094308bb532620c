"""The benchmark web: link rewriting, the labeling rule, and a miniature web built, served and crawled."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from testbed.docsweb.build import build, discovered_sites
from testbed.docsweb.sites import PublicLinks, Site
from testbed.docsweb.topics import TOPICS
from testbed.localweb.web import Reply
from tests.conftest import REPO, crawl, start_web

HTTP, TESTING, LOGGING = (next(t for t in TOPICS if t.name == name) for name in ("http", "testing", "logging"))
HTTP_TEXT = (
    "An HTTP client sends a request with headers; the server answers with a status code, "
    "response headers such as Content-Type and Cache-Control, and maybe cookies. "
) * 4

SQLITE_TEXT = (
    "SQLite is a C library that implements a small, fast, self-contained, high-reliability, "
    "full-featured SQL database engine. It is the most used database engine in the world, built "
    "into all mobile phones and most computers, and bundled inside countless other applications "
    "that people use every day. The file format is stable, cross-platform and backwards compatible. "
) * 2


def test_local_and_https_links_become_public_http_urls():
    site = Site(
        "docs.python.org",
        "/3/",
        Path("/usr/share/doc/python3.11-doc/html"),
        "python3.11-doc",
        ("/usr/share/doc/python3-doc/html",),
    )
    links = PublicLinks((site,))
    assert (
        links.link("/usr/share/doc/python3-doc/html/library/http.html#x")
        == "http://docs.python.org/3/library/http.html#x"
    )
    assert links.link("file:///usr/share/doc/python3.11-doc/html/index.html") == "http://docs.python.org/3/index.html"
    assert links.link("https://docs.python.org/3/library/") == "http://docs.python.org/3/library/"
    assert links.link("https://example.org/a") == "https://example.org/a"
    assert links.link("../library/http.html") == "../library/http.html"
    html = b"<a href=\"/usr/share/doc/python3-doc/html/a.html\">a</a><img src='https://docs.python.org/3/i.png'>"
    assert links(html) == b"<a href=\"http://docs.python.org/3/a.html\">a</a><img src='http://docs.python.org/3/i.png'>"


def test_labeling_rule_by_hand():
    assert HTTP.relevant("http://a/x.html", "Requests", HTTP_TEXT)
    assert not HTTP.relevant("http://a/genindex-H.html", "Index", HTTP_TEXT)  # index pages list, not discuss
    headers_only = "Email messages carry headers; each header has a name. " * 10
    assert not HTTP.relevant("http://a/email.html", "email", headers_only)  # "HTTP" itself must occur
    urls_only = "See https://a.example/ and http://b.example/ and http://c.example/ for headers. " * 10
    assert not HTTP.relevant("http://a/links.html", "links", urls_only)  # URLs are not words about HTTP
    # In the title, fewer hits do; a site name after " — " is not the page's title.
    short = "HTTP headers and a status code. HTTP cookies and HTTP proxy."
    assert HTTP.relevant("http://a/h.html", "http.cookies — Python docs", short)
    assert not HTTP.relevant("http://a/e.html", "mod_env - Apache HTTP Server", short)


def test_labeling_rule_counts_words_in_the_topics_sense_only():
    unit_tests = "Write the test with a pytest fixture; run the tests; each test case asserts one thing. " * 6
    assert TESTING.relevant("http://a/t.html", "Fixtures", unit_tests)
    statistical = "The test statistic of the rank test; a two-sided test on the test set rejects it. " * 10
    assert not TESTING.relevant("http://a/s.html", "mannwhitneyu", statistical)
    log_files = "The logger writes log messages at each log level to log files; a handler rotates the logs. " * 4
    assert LOGGING.relevant("http://a/l.html", "Logging", log_files)
    logarithm = "The log of x: log x is the natural log; return the log probability, log-normal, debug. " * 8
    assert not LOGGING.relevant("http://a/n.html", "lognorm", logarithm)
    assert not LOGGING.relevant("http://a/contents.html", "Contents", log_files)  # a table of contents lists


def page(title: str, body: str) -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>{body}</main></body></html>"


@pytest.fixture(scope="module")
def mini_web(tmp_path_factory) -> tuple[Path, dict]:
    """Two manuals whose only link between them is a Debian-style local path, built like the real web."""
    src = tmp_path_factory.mktemp("doc")
    python, django, sqlite = src / "python3.11-doc" / "html", src / "python-django-doc" / "html", src / "sqlite3"
    files = {
        python / "index.html": page("Python documentation", "<p>Welcome. <a href='library/os.html'>os</a></p>"),
        python / "library/os.html": page("os", "<p>Files and processes.</p>"),
        python / "library/http.html": page("http — HTTP modules", f"<p>{HTTP_TEXT}</p>"),
        sqlite / "index.html": page("SQLite", f"<p>{SQLITE_TEXT}</p>"),
        django / "index.html": page(
            "Django documentation", "<p>See <a href='ref/request-response.html'>requests</a>.</p>"
        ),
        django / "ref/request-response.html": page(
            "Request and response objects",
            f"<p>{HTTP_TEXT} The <a href='/usr/share/doc/python3-doc/html/library/http.html#module-http'>http "
            "module</a> has the status codes.</p>",
        ),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    sites = (
        Site("docs.python.org", "/3/", python, "python3.11-doc", ("/usr/share/doc/python3-doc/html",)),
        Site("docs.djangoproject.com", "/en/3.2/", django, "python-django-doc"),
        Site("www.sqlite.org", "/", sqlite, "sqlite3-doc"),
    )
    root = tmp_path_factory.mktemp("benchweb")
    return root, build(root, sites, TOPICS, progress=False)


def test_build_writes_pages_graph_labels_profiles_and_stats(mini_web):
    root, stats = mini_web
    assert (stats["sites"], stats["pages"], stats["cross_site_links"]) == (3, 6, 1)
    assert stats["cross_site_links_by_pair"] == {"docs.djangoproject.com -> docs.python.org": 1}
    assert (root / "labels" / "http.txt").read_text().split() == [
        "http://docs.djangoproject.com/en/3.2/ref/request-response.html",
        "http://docs.python.org/3/library/http.html",
    ]
    assert "http://docs.python.org/3/library/http.html" in (root / "graph.tsv").read_text()
    built = (root / "sites/docs.python.org/3/index.html").read_text()
    assert "http://calendar.example/" in built  # an entry page links to the hazards
    assert "http://docs-archive.example/docs.python.org/3/index.html" in built  # and to the farms
    assert json.loads((root / "farm_text.json").read_text())["sentences"]["http"]  # which recombine real sentences
    assert len(list((root / "training/http/positive").iterdir())) == 2
    assert 'allowed_domains = ["answers-index.example", "app.example"' in (root / "profiles/http.toml").read_text()
    assert stats["discovered_sites"] == []  # one site links to Python: every site is a seed
    assert (root / "seeds.txt").read_text().count("\n") == 3


def test_a_site_that_two_others_link_to_is_left_for_the_crawl_to_discover():
    edges = [
        ("http://a/1", "http://c/1"),
        ("http://b/1", "http://c/2"),
        ("http://a/2", "http://b/1"),
        ("http://c/1", "http://c/2"),
    ]
    assert discovered_sites(edges) == {"c"}


def test_mini_web_is_served_and_crawled_across_sites_past_its_hazards(mini_web, tmp_path):
    root, _ = mini_web
    server = start_web(tmp_path, 0.0, "testbed.docsweb", "--root", str(root))
    try:
        result = crawl(
            tmp_path,
            server.proxy,
            profile=root / "profiles" / "http.toml",
            strategy="lexical",
            settings={"CLOSESPIDER_PAGECOUNT": 60},
        )
    finally:
        server.process.terminate()
        server.process.wait()
    assert result.returncode == 0, result.log[-2000:]
    assert "http://docs.python.org/3/library/http.html" in result.urls  # only reachable across sites
    hits = Counter((e["host"], e["status"]) for e in server.entries() if e["path"] != "/robots.txt")
    assert hits[("app.example", 200)] == 1 and hits[("calendar.example", 200)] >= 1
    # met and got past: where the loop's second hop falls in 60 pages is the crawl's order (loops: test_hostile.py)
    assert hits[("loop.example", 302)] >= 1 and hits[("spam.example", 200)] >= 1
    originals = ("http://www.sqlite.org/index.html", "http://mirror.example/index.html")
    first, second = [i for i in result.items if i["url"] in originals]
    assert second["duplicate_of"] == first["url"]  # the mirror is a near-duplicate, whichever came first
    spam = [item for item in result.items if item["url"].startswith("http://spam.example/")]
    assert spam and all(item["relevance"] == 0 and not item["relevant"] for item in spam)  # keyword stuffing
    assert result.stat("focused/keyword_stuffed") >= len(spam)  # some may still be in flight at the close
    labels = root / "labels" / "http.txt"
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", "evaluate", str(tmp_path / "crawl.jsonl"), "--labels", str(labels)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(done.stdout)["relevant_fetched"] == 2


def test_aggregators_spread_over_hosts_and_pages_without_end():
    from testbed.docsweb.aggregators import QA, RING, Aggregators, entry_links, serves
    from testbed.docsweb.farms import FarmText

    sentences = {
        topic.name: [f"Sentence {i} about {topic.keywords[0]} in real documentation." for i in range(50)]
        for topic in TOPICS
    }
    web = Aggregators(FarmText(sentences))
    footer = entry_links("http://git-scm.com/docs/user-manual.html").decode()
    blog = footer.split('href="')[1].split('"')[0]
    host, path = blog.split("/", 3)[2], "/" + blog.split("/", 3)[3]
    assert serves(host) and host.endswith("." + RING) and serves(QA)
    assert not serves(RING) and not serves("docs.python.org")
    post = web.respond(host, path)
    assert post.status == 200 and b"/post/1" in post.body
    other_hosts = {link.split("/")[2] for link in post.body.decode().split('href="')[1:] if link.startswith("http")}
    assert len(other_hosts) >= 5  # a post links into other blogs of the ring
    listing = web.respond(QA, "/questions/tagged/http?page=7&sort=newest")
    assert listing.status == 200 and b"?page=8&amp;sort=newest" in listing.body and b"sort=votes" in listing.body
    question = listing.body.decode().split('href="/q/')[1].split('"')[0]
    answer = web.respond(QA, "/q/" + question)
    assert answer.status == 200 and b"Sentence" in answer.body and answer.body.count(b'href="/q/') == 8
    assert web.respond(QA, "/nothing").status == 404 and web.respond(f"blog{10**6}.{RING}", "/").status == 404


def test_bought_domains_a_blog_network_on_many_sites_and_an_expired_domain_real_pages_link_to():
    from focused.frontier.urls import site_of
    from testbed.docsweb.bought import BLOGS, ENTRY_PAGES, EXPIRED, BoughtDomains, entry_links, links_expired, serves
    from testbed.docsweb.farms import FarmText

    sentences = {
        topic.name: [
            f"You can use the {topic.keywords[0]} option to create a new file, example {i}." for i in range(50)
        ]
        for topic in TOPICS
    }
    web = BoughtDomains(FarmText(sentences))
    assert len({site_of(blog) for blog in BLOGS}) == len(BLOGS) == 40  # a registrable domain per blog
    footer = entry_links(ENTRY_PAGES[0]).decode()
    article = footer.split('href="')[1].split('"')[0]
    host, path = article.split("/", 3)[2], "/" + article.split("/", 3)[3]
    page = web.respond(host, path)
    assert serves(host) and page.status == 200
    body = page.body.decode()
    assert "utilize" in body and "generate" in body and "fresh document" in body  # spun word by word
    assert len({link.split("/")[2] for link in body.split('href="')[1:] if link.startswith("http")}) >= 4
    wiki_links = [
        url for url in (f"http://docs.python.org/3/library/p{i}.html" for i in range(4000)) if links_expired(url)
    ]
    assert 60 < len(wiki_links) < 140  # about one real page in 40 still links to the lapsed wiki
    assert f"http://cookbook.{EXPIRED}/" in entry_links(wiki_links[0]).decode()
    front = web.respond(f"cookbook.{EXPIRED}", "/")
    related = front.body.decode().split('href="/related/')[1].split('"')[0]
    listing = web.respond(f"cookbook.{EXPIRED}", "/related/" + related)
    assert listing.status == 200 and b"for sale" in listing.body and listing.body.count(b'href="/related/') == 12
    assert web.respond(host, "/2020/01/post-999999.html").status == 404 and web.respond(EXPIRED, "/x").status == 404


def test_parasites_hide_in_hacked_real_sites_and_behind_a_shop_that_cloaks_its_topical_text():
    from testbed.docsweb.farms import FarmText
    from testbed.docsweb.parasites import (
        CLOAKED,
        PARASITE_HOSTS,
        Parasites,
        entry_links,
        is_parasite,
        parasite_url,
        serves,
    )
    from testbed.docsweb.web import on_hazard

    sentences = {
        topic.name: [f"The {topic.keywords[0]} setting of example {i} is read at start." for i in range(50)]
        for topic in TOPICS
    }
    web = Parasites(FarmText(sentences))
    hacked = [
        url
        for url in (f"http://{PARASITE_HOSTS[0]}/en/stable/p{i}.html" for i in range(800))
        if b"display:none" in entry_links(url)
    ]
    assert 60 < len(hacked) < 140  # about one page in 8 of a hacked site
    injected = entry_links(hacked[0]).decode().split('href="')[1].split('"')[0]
    assert is_parasite(injected) and on_hazard(injected) and not on_hazard(hacked[0])
    host, path = injected.split("/", 3)[2], "/" + injected.split("/", 3)[3]
    article = web.respond(host, path)
    assert serves(host, path) and article.status == 200 and b"Ultimate Guide" in article.body
    assert article.body.count(b"_static/cache/") == 5 and not serves(host, "/en/stable/index.html")
    assert web.respond(host, path.replace(".html", "0.html")).status == 404
    assert web.respond(PARASITE_HOSTS[1], parasite_url(0)[len(f"http://{PARASITE_HOSTS[0]}") :]).status == 404

    commented = [
        url
        for url in (f"http://docs.python.org/3/library/p{i}.html" for i in range(3000))
        if CLOAKED.encode() in entry_links(url)
    ]
    assert 25 < len(commented) < 80  # about one real page in 60, on any site
    deal = entry_links(commented[0]).decode().split('href="')[1].split('"')[0]
    page = web.respond(CLOAKED, "/" + deal.split("/", 3)[3])
    visible, hidden = page.body.decode().split('<div style="display:none">')
    assert "Cheap flights" in visible and "setting of example" in hidden and hidden.count(CLOAKED) == 6
    assert on_hazard(deal) and web.respond(CLOAKED, "/other").status == 404


def test_page_options_of_two_real_sites_are_an_endless_space_of_the_same_page():
    from testbed.docsweb.facets import HOSTS, LATEST_REVISION, dress
    from testbed.docsweb.web import on_hazard

    page = Reply(200, b"<html><body><p>The re module.</p></body></html>", "text/html")
    dressed = dress(HOSTS[0], "/3/library/re.html", page).body.decode()
    previous = f"/3/library/re.html?rev={LATEST_REVISION - 1}"
    assert "The re module." in dressed and dressed.count("?") == 5 and f'href="{previous}"' in dressed
    older = dress(HOSTS[0], f"{previous}&theme=dark", page).body.decode()
    assert f"rev={LATEST_REVISION - 2}&amp;theme=dark" in older and "rev=4999&amp;theme=dark&amp;font=large" in older
    assert on_hazard(f"http://{HOSTS[0]}{previous}") and not on_hazard(f"http://{HOSTS[0]}/3/library/re.html")
    assert not on_hazard("http://docs.dask.org/en/stable/search.html?q=rev")
    assert dress("docs.dask.org", "/index.html", page) is page and dress(HOSTS[1], "/x.html", Reply(404)).status == 404


def test_a_version_switcher_serves_each_manual_page_again_under_every_other_release(mini_web, tmp_path):
    from testbed.docsweb.versions import HOSTS, as_read
    from testbed.docsweb.web import DocsWeb, on_hazard

    root = tmp_path / "benchweb"
    shutil.copytree(mini_web[0], root)
    manual = root / "sites" / "www.postgresql.org" / "docs" / "15"
    manual.mkdir(parents=True)
    (manual / "tutorial.html").write_text(page("Tutorial", "<p>Begin <a href='sql.html'>with SQL</a>.</p>"))
    web = DocsWeb(root)
    built = web.respond("www.postgresql.org", "/docs/15/tutorial.html").body.decode()
    copy = web.respond("www.postgresql.org", "/docs/9.6/tutorial.html").body.decode()
    others = HOSTS["www.postgresql.org"][2]
    assert built.count("/tutorial.html") == len(others) and "/docs/15/tutorial.html" not in built
    switcher = '<p class="version-switcher">'
    assert copy.split(switcher)[0] == built.split(switcher)[0]  # the same page
    assert '"/docs/15/tutorial.html"' in copy and '"/docs/9.6/tutorial.html"' not in copy  # its own release left out
    assert "<a href='sql.html'>" in copy  # relative links: the copy leads on through a copy of the manual
    assert on_hazard("http://www.postgresql.org/docs/9.6/sql.html") and on_hazard("http://docs.sqlalchemy.org/en/20/")
    assert not on_hazard("http://www.postgresql.org/docs/15/tutorial.html")
    assert web.respond("www.postgresql.org", "/docs/8.0/tutorial.html").status == 404
    docs = "http://www.postgresql.org/docs"
    crawl = [
        f"{docs}/current/a.html",
        f"{docs}/16/a.html",
        f"{docs}/15/a.html",
        f"{docs}/15/b.html",
        f"{docs}/9.6/b.html",
    ]
    # judged as read: a page's first read under any release is the built page, every later read a copy
    assert list(as_read(crawl)) == [crawl[2], crawl[1], crawl[0], crawl[3], crawl[4]]
    assert [on_hazard(url) for url in as_read(crawl)] == [False, True, True, False, True]
    assert web.respond("docs.python.org", "/3/library/os.html").body.count(b"other versions") == 0


def test_a_page_url_used_as_a_directory_serves_the_page_again_below_itself(mini_web, tmp_path):
    from testbed.docsweb.pathinfo import HOSTS
    from testbed.docsweb.web import DocsWeb, on_hazard

    root = tmp_path / "benchweb"
    shutil.copytree(mini_web[0], root)
    manual = root / "sites" / HOSTS[0] / "docs" / "mod"
    manual.mkdir(parents=True)
    (manual / "mod_ssl.html").write_text(
        page("mod_ssl", "<p>TLS <a href='core.html'>core</a>, <a href='sub/x.html'>x</a>.</p>")
    )
    web = DocsWeb(root)
    clean = web.respond(HOSTS[0], "/docs/mod/mod_ssl.html").body.decode()
    assert '<a href="mod_ssl.html/print">Printable version</a>' in clean
    for below in (
        "/docs/mod/mod_ssl.html/print",
        "/docs/mod/mod_ssl.html/core.html",
        "/docs/mod/mod_ssl.html/sub/x.html",
    ):
        assert web.respond(HOSTS[0], below).body.decode() == clean  # the same page, its links relative to the copy
    assert web.respond(HOSTS[0], "/docs/mod/sub/x.html").status == 404  # no page along the path
    assert on_hazard(f"http://{HOSTS[0]}/docs/mod/mod_ssl.html/core.html")
    assert not on_hazard(f"http://{HOSTS[0]}/docs/mod/mod_ssl.html") and not on_hazard("http://cmake.org/a.html/b")
    assert "Printable version" not in web.respond("docs.python.org", "/3/library/os.html").body.decode()


def test_a_directory_lists_relevant_pages_under_their_titles_and_links_on_to_more_of_itself(mini_web, tmp_path):
    from testbed.docsweb.directory import DOMAIN
    from testbed.docsweb.web import DocsWeb, on_hazard

    root = tmp_path / "benchweb"
    shutil.copytree(mini_web[0], root)
    topics = root / "sites" / "docs.djangoproject.com" / "en" / "3.2" / "topics"
    topics.mkdir(parents=True)
    (topics / "external-packages.html").write_text(page("External packages", "<p>Many.</p>"))
    web = DocsWeb(root)
    entry = web.respond("docs.djangoproject.com", "/en/3.2/topics/external-packages.html").body.decode()
    assert f'<a href="http://{DOMAIN}/category/' in entry  # an inner page listing resources links in
    assert DOMAIN not in web.respond("docs.python.org", "/3/library/os.html").body.decode()
    category = web.respond(DOMAIN, "/category/http/1").body.decode()
    relevant = (root / "labels" / "http.txt").read_text().split()
    assert all(f'<a href="{url}">' in category for url in relevant)  # 12 entries: both of the topic's pages
    assert '<a href="http://docs.python.org/3/library/http.html">http</a>' in category  # under its own title
    assert f'href="http://{DOMAIN}/category/http/2"' in category and f'href="http://{DOMAIN}/listing/' in category
    n = TOPICS.index(HTTP) + len(TOPICS) * 7
    listing = web.respond(DOMAIN, f"/listing/{n}").body.decode()
    assert sum(f'<a href="{url}">Visit ' in listing for url in relevant) == 1
    assert listing.count(f'href="http://{DOMAIN}/listing/') == 6
    assert web.respond(DOMAIN, f"/listing/{TOPICS.index(LOGGING)}").status == 404  # no logging page in this web
    assert web.respond(DOMAIN, "/category/http/0").status == 404
    assert on_hazard(f"http://{DOMAIN}/listing/{n}") and not on_hazard(relevant[0])


def test_a_sites_own_search_results_are_an_endless_space_linked_from_every_pages_tags(mini_web):
    from protego import Protego

    from testbed.docsweb.search import NO_RESULTS, search_url
    from testbed.docsweb.web import ROBOTS, DocsWeb, on_hazard

    web, host = DocsWeb(mini_web[0]), "docs.djangoproject.com"
    page_url = f"http://{host}/en/3.2/ref/request-response.html"
    entry = web.respond(host, "/en/3.2/ref/request-response.html").body.decode()
    tags = re.findall(r'/en/3\.2/search/\?q=(\w+)">', entry)
    assert len(tags) == 3 and "headers" in tags  # words frequent on the page, rare on its site
    results = web.respond(host, f"/en/3.2/search/?q={tags[0]}").body.decode()
    assert f'<a href="{page_url}">Request and response objects</a>' in results
    assert "HTTP client sends a request" in results  # a snippet of the page's text
    related = re.findall(r'/en/3\.2/search/\?q=(\w+)\+(\w+)">', results)
    assert related and all(first == tags[0] and second in tags[1:] for first, second in related)
    assert NO_RESULTS in web.respond(host, "/en/3.2/search/?q=zebra").body.decode()
    assert on_hazard(search_url(host, tags[:2], 3)) and not on_hazard(page_url)
    assert Protego.parse(ROBOTS.decode()).can_fetch(search_url(host, tags[:1]), "focused")  # left open
    assert "Tags:" not in web.respond("docs.python.org", "/3/library/os.html").body.decode()


def test_a_repository_browser_serves_every_pages_source_at_every_revision(mini_web):
    from protego import Protego

    from testbed.docsweb.repository import LOG_PAGE
    from testbed.docsweb.web import ROBOTS, DocsWeb, on_hazard

    web, page_url = DocsWeb(mini_web[0]), "http://docs.python.org/3/library/http.html"
    entry = web.respond("docs.python.org", "/3/library/http.html").body.decode()
    file, log = re.findall(r'<a href="(http://hg\.python\.org/cpython/\w+/tip/Doc/3/library/http\.rst)">', entry)
    source = web.repository.by_url[page_url]
    tip = web.respond("hg.python.org", urlsplit(file).path).body.decode()
    assert "HTTP client sends a request with headers; the server answers" in tip  # the page's text, as source
    first = web.respond("hg.python.org", f"/cpython/raw/0/{source.path}")
    assert first.content_type.startswith("text/plain") and set(first.body.decode().splitlines()) <= set(source.lines)
    history = web.respond("hg.python.org", urlsplit(log).path).body.decode()
    newest = source.revisions - 1
    assert history.count(">diff</a></td>") == min(LOG_PAGE, source.revisions)  # a row per revision
    assert f"/cpython/annotate/{newest}/{source.path}" in history
    assert ("/cpython/log/" in history.replace(f"/cpython/log/{newest}/", "")) == (source.revisions > LOG_PAGE)
    assert f"+{source.lines[0]}" in web.respond("hg.python.org", f"/cpython/diff/0/{source.path}").body.decode()
    for missing in (
        f"/cpython/file/{newest + 1}/{source.path}",
        f"/cpython/blame/0/{source.path}",
        "/cpython/file/0/x",
    ):
        assert web.respond("hg.python.org", missing).status == 404
    assert all(on_hazard(source.url_of(view, 0)) for view in ("file", "raw", "annotate", "diff", "log"))
    assert not on_hazard(page_url) and Protego.parse(ROBOTS.decode()).can_fetch(file, "focused")
    assert '"hg.python.org"' in (mini_web[0] / "profiles" / "http.toml").read_text()  # in the crawl's closed world
    assert "Show source" not in web.respond("docs.djangoproject.com", "/en/3.2/index.html").body.decode()


def test_a_mailing_list_archive_threads_about_the_manuals_pages(mini_web):
    from protego import Protego

    from testbed.docsweb.archives import ARCHIVES, MONTHS, PER_MONTH, Message
    from testbed.docsweb.web import ROBOTS, DocsWeb, on_hazard

    web = DocsWeb(mini_web[0])
    entry = web.respond("docs.python.org", "/3/library/http.html").body.decode()
    home, thread = re.findall(r'<a href="(http://mail\.python\.org/pipermail/python-list/[^"]*)">', entry)
    assert "Question about http" in entry  # the latest thread on the page, under its subject
    question = web.respond("mail.python.org", urlsplit(thread).path).body.decode()
    assert HTTP_TEXT.split(".")[0] in question  # the page's own words, quoted
    months = web.respond("mail.python.org", urlsplit(home).path).body.decode()
    view = re.findall(r'href="http://mail\.python\.org(/pipermail/python-list/2019-January/\w+\.html)"', months)
    assert len(view) == 4 and all(web.respond("mail.python.org", v).status == 200 for v in view)
    assert web.respond("mail.python.org", "/pipermail/python-list/2019-January/100999.html").status == 404
    for archive in ARCHIVES.values():  # each layout reads back the URLs it writes
        layout, last = archive.layout, Message(MONTHS * PER_MONTH - 1)
        assert layout.parse(layout.message(last)) == ("message", last.number, "")
        assert layout.parse(layout.view(last.month, "thread").split("?")[0]) == ("view", last.month, "thread")
        assert on_hazard(f"http://{layout.host}{layout.message(last)}") and on_hazard(
            f"http://{layout.host}{layout.root}"
        )
    assert not on_hazard("http://www.postgresql.org/docs/15/tutorial.html")
    assert Protego.parse(ROBOTS.decode()).can_fetch(thread, "focused")
    assert '"mail.python.org"' in (mini_web[0] / "profiles" / "http.toml").read_text()  # in the crawl's closed world
    assert "archives</a>" not in web.respond("docs.djangoproject.com", "/en/3.2/index.html").body.decode()
