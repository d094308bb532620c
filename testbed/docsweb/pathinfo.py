"""A trap on two real, seeded sites: a page's URL used as a directory (Apache's AcceptPathInfo).

A server that accepts path info answers /docs/mod/mod_ssl.html/anything with mod_ssl.html: the
file is the first existing one along the path, the rest goes to the (absent) handler. Here every
page of HOSTS carries a "Printable version" link written relative to itself (`mod_ssl.html/print`),
a print view that was never built, and the server answers it with the page. Read there, the page's
own relative links resolve below it (`mod_ssl.html/core.html`), each answered with the same page
again under the anchors of the real links, and the print link of every copy goes one level deeper:
an endless space of exact copies of real pages, none of them labeled (the clean URL is the page).

Written in session 84 before any crawl met it, as a held-out hazard (docs/evaluation.md, "The
benchmark web"): no code of the crawler was tuned on it, and none names its hosts or paths.
"""

from __future__ import annotations

import html

from testbed.localweb.web import Reply, with_line

HOSTS = ("httpd.apache.org", "docs.pytest.org")
PAGE = ".html/"


def is_copy(host: str, path: str) -> bool:
    """A URL of the trap: a page of HOSTS with a path below it."""
    return host in HOSTS and PAGE in path


def file_path(host: str, path: str) -> str:
    """The path of the page a URL of HOSTS serves: the path up to its first page, the rest being path info."""
    if host not in HOSTS or PAGE not in path:
        return path
    return path[: path.index(PAGE) + len(PAGE) - 1]


def dress(host: str, path: str, reply: Reply) -> Reply:
    """A page of HOSTS with its print link (relative to the page, so below it); any other reply as it is."""
    if host not in HOSTS:
        return reply
    served = file_path(host, path)
    name = "index.html" if served.endswith("/") else served.rsplit("/", 1)[-1]
    return with_line(reply, f'<p class="page-tools"><a href="{html.escape(name)}/print">Printable version</a></p>')
