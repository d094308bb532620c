"""Serve a web over real HTTP, as virtual hosts and as an HTTP proxy: the generated web, or
the benchmark web of real documents (testbed.docsweb).

Crawlers reach it with ``http_proxy=http://127.0.0.1:PORT``, so URLs keep their real
host names. Every request is logged as one JSON line: the server's view is the
ground truth for politeness checks.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from email.utils import parsedate_to_datetime
from typing import IO, Protocol, cast
from urllib.parse import urlsplit

from twisted.internet import reactor
from twisted.internet.address import IPv4Address
from twisted.web import http, resource, server

from testbed.localweb.web import Reply


class Web(Protocol):
    def respond(self, host: str, target: str) -> Reply: ...


class WebResource(resource.Resource):
    isLeaf = True

    def __init__(self, web: Web, log: IO[str] | None, latency: float = 0.0):
        super().__init__()
        self.web, self.log, self.latency = web, log, latency
        self.active: Counter[str] = Counter()
        self.pages_active: Counter[str] = Counter()  # the same, robots.txt left out

    def render_GET(self, request: server.Request) -> bytes | int:
        host, target = self._target(request)
        page = target != "/robots.txt"
        self.active[host] += 1
        self.pages_active[host] += page
        reply = not_modified(request, self.web.respond(host, target))
        self._log(request, host, target, reply.status)
        request.notifyFinish().addBoth(lambda _: self._done(host, page))
        delay = reply.delay + self.latency
        if delay or reply.drip:
            reactor.callLater(delay, self._write, request, reply)
            return server.NOT_DONE_YET
        return self._body(request, reply)

    render_HEAD = render_GET

    def _target(self, request: server.Request) -> tuple[str, str]:
        uri = request.uri.decode("latin-1")
        if uri.startswith(("http://", "https://")):  # proxy form
            parts = urlsplit(uri)
            host, target = parts.netloc, parts.path or "/"
            if parts.query:
                target += "?" + parts.query
        else:
            host, target = (request.getHeader("host") or ""), uri
        return urlsplit(f"//{host}").hostname or "", target

    def _body(self, request: server.Request, reply: Reply) -> bytes:
        request.setResponseCode(reply.status)
        request.setHeader("Content-Type", reply.content_type)
        for name, value in reply.headers.items():
            request.setHeader(name, value)
        return reply.body

    def _write(self, request: server.Request, reply: Reply) -> None:
        if reply.drip:
            self._drip(request, self._body(request, reply), reply.drip)
        elif not request._disconnected:
            request.write(self._body(request, reply))
            request.finish()

    def _drip(self, request: server.Request, body: bytes, interval: float) -> None:
        if request._disconnected:
            return
        if not body:
            request.finish()
            return
        request.write(body[:1])
        reactor.callLater(interval, self._drip, request, body[1:], interval)

    def _done(self, host: str, page: bool) -> None:
        self.active[host] -= 1
        self.pages_active[host] -= page

    def _log(self, request: server.Request, host: str, target: str, status: int) -> None:
        if self.log is None:
            return
        entry = {
            "t": round(time.time(), 4),
            "host": host,
            "path": target,
            "status": status,
            "concurrency": self.active[host],
            "page_concurrency": self.pages_active[host],
            "ua": (request.getHeader("user-agent") or ""),
            "conditional": bool(request.getHeader("if-none-match") or request.getHeader("if-modified-since")),
        }
        self.log.write(json.dumps(entry) + "\n")
        self.log.flush()


def not_modified(request: server.Request, reply: Reply) -> Reply:
    """304 for a conditional GET of a page the client has (RFC 9110: If-None-Match first, else If-Modified-Since)."""
    if reply.status != 200:
        return reply
    etag, modified = reply.headers.get("ETag"), reply.headers.get("Last-Modified")
    if_none_match, if_modified_since = request.getHeader("if-none-match"), request.getHeader("if-modified-since")
    if etag and if_none_match:
        same = etag in (tag.strip() for tag in if_none_match.split(","))
    elif modified and if_modified_since:
        same = parsedate_to_datetime(modified) <= parsedate_to_datetime(if_modified_since)
    else:
        same = False
    return Reply(304, headers=dict(reply.headers)) if same else reply


def serve(web: Web, port: int, log: IO[str] | None, latency: float = 0.0, interface: str = "127.0.0.1") -> int:
    """Listen on `port` (0 picks a free one) and return the bound port; call reactor.run() after."""
    site = QuietSite(WebResource(web, log, latency))
    listening = reactor.listenTCP(port, site, interface=interface)  # type: ignore[arg-type]  # Twisted's stubs: Site is no ServerFactory[...]
    return cast(IPv4Address, listening.getHost()).port


class QuietSite(server.Site):
    """A site without Twisted's access log: the JSON one replaces it."""

    noisy = False

    def log(self, request: http.Request) -> None:
        pass
