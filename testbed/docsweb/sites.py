"""The real sites of the benchmark web: Debian documentation packages under their public names.

Debian installs each manual under /usr/share/doc and points cross-references between
manuals (Django -> Python, say) at those local paths. Served under the public host name
and path prefix, with those links rewritten back to public URLs, the manuals form a
multi-site web whose cross-site links resolve. Links to one of these hosts over https
become http: the local web server speaks plain HTTP (as a proxy, it sees the full URL).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DOC = Path("/usr/share/doc")
SKIPPED_DIRS = {"_static", "_images", "_sources", "_modules", "_downloads", "images"}


@dataclass(frozen=True)
class Site:
    host: str
    prefix: str  # path prefix on the public site, ending in /
    source: Path  # where Debian installs the manual
    package: str  # the Debian package that installs it
    aliases: tuple[str, ...] = ()  # other local paths other manuals use for it

    def url(self, relative: str) -> str:
        return f"http://{self.host}{self.prefix}{relative}"

    def html_files(self) -> list[Path]:
        return sorted(
            path
            for path in self.source.rglob("*.html")
            if not SKIPPED_DIRS & set(path.relative_to(self.source).parts[:-1]) and path.is_file()
        )


SITES = (
    Site(
        "docs.python.org",
        "/3/",
        DOC / "python3.11-doc/html",
        "python3.11-doc",
        (str(DOC / "python3-doc/html"), str(DOC / "python3.11/html")),
    ),
    Site("www.postgresql.org", "/docs/15/", DOC / "postgresql-doc-15/html", "postgresql-doc-15"),
    Site("www.sqlite.org", "/", DOC / "sqlite3", "sqlite3-doc"),
    Site("docs.djangoproject.com", "/en/3.2/", DOC / "python-django-doc/html", "python-django-doc"),
    Site("docs.sqlalchemy.org", "/en/14/", DOC / "python-sqlalchemy-doc/html", "python-sqlalchemy-doc"),
    Site("httpd.apache.org", "/docs/2.4/", DOC / "apache2-doc/manual/en", "apache2-doc"),
    Site("git-scm.com", "/docs/", DOC / "git-doc", "git-doc"),
    Site("flask.palletsprojects.com", "/en/2.2.x/", DOC / "python-flask-doc/html", "python-flask-doc"),
    Site("requests.readthedocs.io", "/en/latest/", DOC / "python-requests-doc/html", "python-requests-doc"),
    Site("pandas.pydata.org", "/docs/", DOC / "python-pandas-doc/html", "python-pandas-doc"),
    Site("scikit-learn.org", "/stable/", DOC / "python-sklearn-doc/html", "python-sklearn-doc"),
    Site("docs.scipy.org", "/doc/scipy/", DOC / "python-scipy-doc/html", "python-scipy-doc"),
    Site("docs.dask.org", "/en/stable/", DOC / "python-dask-doc/html", "python-dask-doc"),
    Site("docs.xarray.dev", "/en/stable/", DOC / "python-xarray-doc/html", "python-xarray-doc"),
    Site("docs.celeryq.dev", "/en/stable/", DOC / "python-celery-doc/html", "python-celery-doc"),
    Site("www.tornadoweb.org", "/en/stable/", DOC / "python-tornado-doc/html", "python-tornado-doc"),
    Site("docs.aiohttp.org", "/en/stable/", DOC / "python-aiohttp-doc/html", "python-aiohttp-doc"),
    Site("docs.pytest.org", "/en/7.2.x/", DOC / "python-pytest-doc/html", "python-pytest-doc"),
    Site("cmake.org", "/cmake/help/v3.25/", DOC / "cmake-doc/html", "cmake-doc"),
    Site("cryptography.io", "/en/latest/", DOC / "python-cryptography-doc/html", "python-cryptography-doc"),
    Site("www.psycopg.org", "/docs/", DOC / "python-psycopg2-doc/html", "python-psycopg2-doc"),
    Site("www.sphinx-doc.org", "/en/master/", DOC / "sphinx-doc/html", "sphinx-doc"),
    Site("jinja.palletsprojects.com", "/en/3.1.x/", DOC / "python-jinja2-doc/html", "python-jinja2-doc"),
    Site("werkzeug.palletsprojects.com", "/en/2.2.x/", DOC / "python-werkzeug-doc/html", "python-werkzeug-doc"),
    Site("click.palletsprojects.com", "/en/8.1.x/", DOC / "python-click-doc/html", "python-click-doc"),
    Site("bind9.readthedocs.io", "/en/latest/", DOC / "bind9-doc/arm", "bind9-doc"),
)
PACKAGES = tuple(site.package for site in SITES)
ATTRIBUTE = re.compile(rb'(href|src)=(["\'])(.*?)\2', re.IGNORECASE | re.DOTALL)


class PublicLinks:
    """Rewrites a page's links as they would read on the public web: local paths of the
    `sites` manuals to their public URLs, https links to one of `sites` to http."""

    def __init__(self, sites: tuple[Site, ...] = SITES):
        pairs = [(str(site.source), site) for site in sites] + [(a, site) for site in sites for a in site.aliases]
        self.prefixes = sorted(pairs, key=lambda pair: len(pair[0]), reverse=True)
        self.hosts = tuple(site.host for site in sites)

    def __call__(self, html: bytes) -> bytes:
        def replace(match: re.Match[bytes]) -> bytes:
            href = match[3].decode("utf-8", "replace")
            new = self.link(href)
            return match[0] if new == href else match[1] + b"=" + match[2] + new.encode() + match[2]

        return ATTRIBUTE.sub(replace, html)

    def link(self, href: str) -> str:
        path = href[len("file://") :] if href.startswith("file://") else href
        for prefix, site in self.prefixes:
            if path.startswith(prefix + "/"):
                return site.url(path[len(prefix) + 1 :])
        for host in self.hosts:
            if href.startswith(f"https://{host}/"):
                return "http://" + href[len("https://") :]
        return href
