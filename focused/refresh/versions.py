"""Telling a page's new version from the one the collection holds, as cheaply as the server allows.

A 304 to a conditional GET (If-None-Match, If-Modified-Since) costs no parsing. Servers that ignore
validators are compared by digest: the body's first (no parsing when it is byte for byte the same), then
the page's text and links (unchanged when only markup around them moved, such as a rotating banner's).
"""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy.http import Response

    from focused.pages.extract import Page


def body_digest(body: bytes) -> str:
    """The body's SHA-1 as WARC's payload digest spells it, so a revisit record can name it."""
    return "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode()


def content_digest(page: Page) -> str:
    """A digest of what the collection keeps of the page: its title, text and links."""
    data = "\x00".join([page.title, page.text, *sorted(link.url for link in page.links)])
    return hashlib.blake2b(data.encode(), digest_size=16).hexdigest()


def validators(response: Response) -> tuple[str, str]:
    """The response's ETag and Last-Modified, for the next conditional GET ("" when absent)."""
    return tuple(  # type: ignore[return-value]
        (response.headers.get(name) or b"").decode("latin-1") for name in ("ETag", "Last-Modified")
    )
