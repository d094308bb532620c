"""Serving the built benchmark web: the sites' files, and the hazard hosts."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from testbed.docsweb import (
    aggregators,
    archives,
    bought,
    directory,
    facets,
    farms,
    hazards,
    parasites,
    pathinfo,
    repository,
    search,
    versions,
)
from testbed.localweb.web import Reply

CONTENT_TYPES = {".html": "text/html", ".txt": "text/plain; charset=utf-8"}  # HTML declares its charset
ROBOTS = b"User-agent: *\nDisallow: /search\n"
HAZARD_DOMAINS = (
    hazards.HOSTS
    + farms.HOSTS
    + aggregators.DOMAINS
    + bought.DOMAINS  # with their subdomains
    + (parasites.CLOAKED, directory.DOMAIN)
)


def on_hazard(url: str) -> bool:
    """Whether a URL is on one of the hazard or adversarial hosts, or a parasite page on a real one: never relevant."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return (
        parasites.is_parasite(url)
        or facets.is_facet(url)
        or versions.is_copy(host, parts.path)
        or pathinfo.is_copy(host, parts.path)
        or search.is_search(url)
        or repository.is_browsed(url)
        or archives.is_archived(url)
        or any(host == domain or host.endswith("." + domain) for domain in HAZARD_DOMAINS)
    )


class DocsWeb:
    """Answers for every host of the benchmark web built in `root` (by `build`)."""

    def __init__(self, root: Path):
        self.sites = (root / "sites").resolve()
        if not self.sites.is_dir():
            raise FileNotFoundError(f"{root}: no built benchmark web here (run: python -m testbed.docsweb build)")
        self.hosts = (
            frozenset(path.name for path in self.sites.iterdir())
            | set(hazards.HOSTS)
            | set(farms.HOSTS)
            | {parasites.CLOAKED, directory.DOMAIN, *repository.HOSTS, *archives.HOSTS}
        )
        text = farms.FarmText.load(root)
        self.farms = farms.Farms(text, self._file)
        self.aggregators = aggregators.Aggregators(text)
        self.bought = bought.BoughtDomains(text)
        self.parasites = parasites.Parasites(text)
        self.directory = directory.Directory(root, text)
        self.search = search.SiteSearch(root)
        self.repository = repository.Repository(root)
        self.archives = archives.Archives(root)

    def respond(self, host: str, target: str) -> Reply:
        if host not in self.hosts and not aggregators.serves(host) and not bought.serves(host):
            return Reply(502, b"Bad Gateway: unknown host", "text/plain")
        if target == "/robots.txt":
            return Reply(200, ROBOTS, "text/plain")
        if aggregators.serves(host):
            return self.aggregators.respond(host, target)
        if bought.serves(host):
            return self.bought.respond(host, target)
        if parasites.serves(host, target):
            return self.parasites.respond(host, target)
        if host in farms.HOSTS:
            return self.farms.respond(host, target)
        if host == directory.DOMAIN:
            return self.directory.respond(target)
        if host in hazards.HOSTS:
            mirrored = self._file(hazards.MIRRORED, target) if host == hazards.MIRROR else Reply(404)
            return hazards.respond(host, target, mirrored)
        path, _, query = target.partition("?")
        if search.serves(host, path):
            return self.search.respond(host, query)
        if repository.serves(host, path):
            return self.repository.respond(host, path)
        if archives.serves(host, path):
            return self.archives.respond(host, target)
        page = self._file(host, versions.built_path(host, pathinfo.file_path(host, path)) + target[len(path) :])
        page = self.archives.dress(host, path, self.repository.dress(host, path, self.search.dress(host, path, page)))
        page = directory.dress(f"http://{host}{path}", pathinfo.dress(host, path, page))
        return facets.dress(host, target, versions.dress(host, path, page))

    def _file(self, host: str, target: str) -> Reply:
        path = unquote(target.split("?", 1)[0].split("#", 1)[0])
        if path.endswith("/"):
            path += "index.html"
        file = (self.sites / host / path.lstrip("/")).resolve()
        if not file.is_relative_to(self.sites / host) or not file.is_file():
            return Reply(404, b"<html><head><title>Not found</title></head><body>Not found</body></html>")
        return Reply(200, file.read_bytes(), CONTENT_TYPES.get(file.suffix, "application/octet-stream"))
