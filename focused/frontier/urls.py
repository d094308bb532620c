"""URL canonicalization: one spelling per resource, decided before the seen test."""

from __future__ import annotations

import hashlib
import re
import sys
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from tldextract import TLDExtract
from w3lib.url import canonicalize_url

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

# The Public Suffix List as tldextract ships it (no download), private suffixes included: each
# user site of github.io or readthedocs.io is a site of its own.
PUBLIC_SUFFIXES = TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)
FETCHABLE_SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}
# Query parameters that identify a visit, not a resource: trackers and session ids.
VOLATILE_PARAMS = re.compile(
    r"^(utm_\w+|fbclid|gclid|dclid|msclkid|yclid|mc_cid|mc_eid|_ga|igshid|ref_src"
    r"|jsessionid|phpsessid|aspsessionid\w*|sessionid|session_id|sid)$",
    re.IGNORECASE,
)
PATH_SESSION = re.compile(r";(jsessionid|phpsessid|sid)=[^/?#]*", re.IGNORECASE)


class BadURL(ValueError):
    """A link that must not be scheduled; `reason` names the stats bucket."""

    def __init__(self, reason: str, url: str):
        super().__init__(f"{reason}: {url[:200]}")
        self.reason = reason


@lru_cache(maxsize=2**16)
def canonical_url(url: str) -> str:
    """The URL the crawler fetches and remembers, or BadURL for unfetchable links. Cached: the same links recur on
    page after page (navigation), and the fingerprint of a request canonicalizes the URL it was built from."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise BadURL("malformed", url) from exc
    scheme = parts.scheme.lower()
    if scheme not in FETCHABLE_SCHEMES:
        raise BadURL(f"scheme/{scheme or 'none'}", url)
    host = (parts.hostname or "").rstrip(".")
    if not host or any(c in host for c in " <>\"'{}|\\^`"):
        raise BadURL("malformed", url)
    netloc = f"[{host}]" if ":" in host else host
    if port not in (None, DEFAULT_PORTS[scheme]):
        netloc = f"{netloc}:{port}"
    path = PATH_SESSION.sub("", parts.path) or "/"
    query = urlencode(
        [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not VOLATILE_PARAMS.match(k)]
    )
    try:
        return canonicalize_url(urlunsplit((scheme, netloc, path, query, "")))
    except ValueError as exc:
        raise BadURL("malformed", url) from exc


@lru_cache(maxsize=2**17)  # each re-scoring of the frontier meets up to FOCUSED_RESCORE_LIMIT (50,000) links again
def host_of(url: str) -> str:
    """Host of an already canonical URL, the unit of politeness."""
    return sys.intern(urlsplit(url).hostname or "")  # one string per host, however many URLs are cached


@lru_cache(maxsize=2**16)
def site_of(host: str) -> str:
    """The host's registrable domain (IRLbot's pay-level domain), the unit of a crawl's budget: whoever
    registers one name can make any number of hosts under it, so a farm spread over thousands of
    subdomains is one site. Under a suffix the list does not know (.example, .test), the last label
    is taken for one; an address or a single-label name is a site of its own."""
    parts = PUBLIC_SUFFIXES(host)
    if parts.top_domain_under_public_suffix:
        return parts.top_domain_under_public_suffix
    labels = host.split(".")
    if parts.ipv4 or parts.ipv6 or len(labels) < 3:
        return host
    return ".".join(labels[-2:])


class CanonicalFingerprinter:
    """REQUEST_FINGERPRINTER_CLASS: two spellings of one resource share a fingerprint."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls()

    def fingerprint(self, request: Request) -> bytes:
        try:
            url = canonical_url(request.url)
        except BadURL:
            url = request.url
        digest = hashlib.sha1(request.method.encode())
        digest.update(url.encode())
        digest.update(request.body or b"")
        return digest.digest()
