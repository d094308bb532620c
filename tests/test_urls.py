from __future__ import annotations

import pytest
from scrapy import Request

from focused.frontier.urls import BadURL, CanonicalFingerprinter, canonical_url, site_of


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("HTTP://WWW.Example.COM:80/a/../b/%7euser?b=2&a=1#frag", "http://www.example.com/b/~user?a=1&b=2"),
        ("https://Ex.com:443/?utm_source=x&utm_medium=y&id=3", "https://ex.com/?id=3"),
        ("http://ex.com/a;jsessionid=123?x=1&PHPSESSID=4&fbclid=z", "http://ex.com/a?x=1"),
        ("http://ex.com:8080", "http://ex.com:8080/"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("http://ex.com/x y", "http://ex.com/x%20y"),
    ],
)
def test_canonical_url(raw, canonical):
    assert canonical_url(raw) == canonical
    assert canonical_url(canonical) == canonical  # idempotent


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("mailto:a@b.c", "scheme/mailto"),
        ("javascript:void(0)", "scheme/javascript"),
        ("file:///etc/passwd", "scheme/file"),
        ("ftp://ex.com/", "scheme/ftp"),
        ("data:text/html,hi", "scheme/data"),
        ("http://[oops/", "malformed"),
        ("http:///no-host", "malformed"),
        ("http://ex.com:99999/", "malformed"),
    ],
)
def test_unfetchable_urls_are_refused_with_a_reason(raw, reason):
    with pytest.raises(BadURL) as error:
        canonical_url(raw)
    assert error.value.reason == reason


def test_spellings_of_one_resource_share_a_fingerprint():
    fingerprint = CanonicalFingerprinter().fingerprint
    a = Request("http://Ex.com:80/page?b=2&a=1&utm_campaign=x#top")
    b = Request("http://ex.com/page?a=1&b=2")
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(b) != fingerprint(Request("http://ex.com/page?a=1&b=3"))


@pytest.mark.parametrize(
    "host, site",
    [
        ("docs.python.org", "python.org"),
        ("a.b.example.co.uk", "example.co.uk"),  # a public suffix of two labels
        ("requests.readthedocs.io", "requests.readthedocs.io"),  # a private suffix: each user is a site
        ("blog176.webring.example", "webring.example"),  # a suffix the list does not know: the last label
        ("webring.example", "webring.example"),
        ("127.0.0.1", "127.0.0.1"),
        ("::1", "::1"),
        ("localhost", "localhost"),
    ],
)
def test_a_site_is_the_registrable_domain_of_its_hosts(host, site):
    assert site_of(host) == site
