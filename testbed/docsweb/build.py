"""Build the benchmark web from Debian documentation packages.

Writes to the output folder:
- sites/HOST/PATH: each manual's HTML under its public name, links rewritten (sites.py),
  the hazard hosts linked from a few entry pages (hazards.py, farms.py, aggregators.py, bought.py);
- pages.jsonl: every page as the crawler's extraction sees it (URL, title, main text);
- graph.tsv: the links between the web's pages; seeds.txt: the front pages of the sites that
  are not left to be discovered (`discovered_sites`);
- labels/TOPIC.txt: the relevant URLs of each topic (topics.py), and training/TOPIC/ with
  a small share of them (and of the rest) as examples; profiles/TOPIC.toml;
- farm_text.json: sentences of the labeled pages, which the adversarial hosts recombine;
- stats.json: sites, pages, cross-site links, labeled pages per topic.
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from scrapy.http import HtmlResponse

from focused.frontier.urls import canonical_url, host_of
from focused.pages.extract import extract
from testbed.docsweb import aggregators, archives, bought, farms, hazards, parasites, repository
from testbed.docsweb.sites import SITES, PublicLinks, Site
from testbed.docsweb.topics import TOPICS, Topic
from testbed.docsweb.web import HAZARD_DOMAINS

TRAINING_SHARE = 0.05  # of each topic's relevant pages; at least MIN_POSITIVES
MIN_POSITIVES = 10
NEGATIVES_PER_POSITIVE = 10  # the web is mostly off-topic; so are realistic example sets
DISCOVERED_BY = 2  # a real site that at least this many other real sites link to is not a seed


class BuildError(RuntimeError):
    """The web cannot be built here; the message says what to install."""


def check_sources(sites: tuple[Site, ...]) -> None:
    missing = [site for site in sites if not site.source.is_dir()]
    if missing:
        packages = " ".join(site.package for site in missing)
        raise BuildError(
            f"documentation not installed: {packages} (make benchweb installs them, or: apt-get install -y --no-install-recommends {packages})"
        )


def _page(job: tuple[Site, Path, Path, PublicLinks]) -> dict[str, Any]:
    """Write one page under its public name; return what the crawler would extract from it."""
    site, file, out, public_links = job
    relative = file.relative_to(site.source).as_posix()
    url = canonical_url(site.url(relative))
    body = public_links(file.read_bytes())
    footer = hazards.community_links() if url in hazards.ENTRY_PAGES else b""
    footer += farms.entry_links(url) if url in hazards.FARM_ENTRY_PAGES else b""
    footer += aggregators.entry_links(url) if url in aggregators.ENTRY_PAGES else b""
    footer += bought.entry_links(url) + parasites.entry_links(url)
    body = body.replace(b"</body>", footer + b"</body>", 1)
    target = out / "sites" / site.host / site.prefix.lstrip("/") / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(body)
    page = extract(HtmlResponse(url=url, body=body), context_words=0)
    return {"url": url, "title": page.title, "text": page.text, "links": [link.url for link in page.links]}


def build(
    out: Path, sites: tuple[Site, ...] = SITES, topics: tuple[Topic, ...] = TOPICS, progress: bool = True
) -> dict[str, Any]:
    """Build the web of `sites` into `out`, labeled for `topics`; returns its stats."""
    check_sources(sites)
    out = out.resolve()  # profiles name their example folders by absolute path
    public_links = PublicLinks(sites)
    jobs = [(site, file, out, public_links) for site in sites for file in site.html_files()]
    with ProcessPoolExecutor() as pool:
        results = pool.map(_page, jobs, chunksize=32)
        if progress:
            from tqdm import tqdm

            results = tqdm(results, total=len(jobs), desc="building the benchmark web", unit="page")
        pages = list(results)
    pages.sort(key=lambda page: page["url"])
    urls = {page["url"] for page in pages}
    edges = sorted({(p["url"], link) for p in pages for link in p["links"] if link in urls and link != p["url"]})
    _write_lines(out / "graph.tsv", [f"{source}\t{target}" for source, target in edges])
    with (out / "pages.jsonl").open("w", encoding="utf-8") as f:
        for page in pages:
            f.write(json.dumps({k: page[k] for k in ("url", "title", "text")}, ensure_ascii=False) + "\n")
    discovered = discovered_sites(edges)
    seeds = [canonical_url(site.url("index.html")) for site in sites if site.host not in discovered]
    _write_lines(out / "seeds.txt", seeds)
    labels = {t.name: sorted(p["url"] for p in pages if t.relevant(p["url"], p["title"], p["text"])) for t in topics}
    farms.farm_text(pages, labels).save(out)
    for topic in topics:
        _write_lines(out / "labels" / f"{topic.name}.txt", labels[topic.name])
        examples = _write_examples(out / "training" / topic.name, pages, set(labels[topic.name]), out)
        hosts = [site.host for site in sites] + list(HAZARD_DOMAINS) + list(repository.HOSTS) + list(archives.HOSTS)
        _write_profile(out / "profiles" / f"{topic.name}.toml", topic, seeds, hosts, out / "training" / topic.name)
        labels[topic.name + "/examples"] = examples
    stats = {**_stats(pages, edges, labels, topics), "discovered_sites": sorted(discovered)}
    (out / "stats.json").write_text(json.dumps(stats, indent=2) + "\n")
    return stats


def discovered_sites(edges: list[tuple[str, str]]) -> set[str]:
    """The real sites a crawl must find by following links, as it finds a farm: those that at least
    DISCOVERED_BY other real sites link to (so each can be found). With every real site a seed, trust
    from the seeds told real sites from hazards by construction: each real site had a seed's trust."""
    linking: defaultdict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        linking[host_of(target)].add(host_of(source))
    return {host for host, sources in linking.items() if len(sources - {host}) >= DISCOVERED_BY}


def _write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _write_examples(folder: Path, pages: list[dict], relevant: set[str], out: Path) -> list[str]:
    """A few labeled pages for `scrapy train`: a small share of the relevant ones, and ten times
    as many others, half of them from the same sites as the positives (near misses, as a user
    would pick them, so the classifier learns the topic rather than the site). The crawl is
    still judged on all labels, these included."""
    rng = random.Random(0)
    positives = sorted(relevant)
    others = sorted(p["url"] for p in pages if p["url"] not in relevant)
    count = min(len(positives), max(MIN_POSITIVES, round(TRAINING_SHARE * len(positives))))
    chosen_positives = rng.sample(positives, count)
    hosts = {host_of(url) for url in chosen_positives}
    near = [url for url in others if host_of(url) in hosts]
    wanted = min(len(others), NEGATIVES_PER_POSITIVE * count)
    negatives = rng.sample(near, min(len(near), wanted // 2))
    rest = sorted(set(others) - set(negatives))
    negatives += rng.sample(rest, min(len(rest), wanted - len(negatives)))
    for label, urls in (("positive", chosen_positives), ("negative", negatives)):
        shutil.rmtree(folder / label, ignore_errors=True)  # a rebuild with new labels leaves no stale example
        (folder / label).mkdir(parents=True)
        for i, url in enumerate(sorted(urls)):
            host, path = url.split("://", 1)[1].split("/", 1)
            body = (out / "sites" / host / unquote(path)).read_bytes()
            (folder / label / f"{i:03d}.html").write_bytes(body)
    return chosen_positives


def _write_profile(path: Path, topic: Topic, seeds: list[str], hosts: list[str], examples: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Benchmark topic {topic.name!r} on the benchmark web (python -m testbed.docsweb serve).",
        f"name = {json.dumps(topic.name)}",
        f"description = {json.dumps(topic.description)}",
        f"keywords = {json.dumps(list(topic.keywords))}",
        f"seeds = {json.dumps(seeds)}",
        "",
        "[examples]",
        f"positive = [{json.dumps(str(examples / 'positive'))}]",
        f"negative = [{json.dumps(str(examples / 'negative'))}]",
        "",
        "[crawl]",
        "max_pages = 1000",
        "# The benchmark web is a closed world: links to other hosts lead nowhere here.",
        f"allowed_domains = {json.dumps(sorted(hosts))}",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _stats(
    pages: list[dict], edges: list[tuple[str, str]], labels: dict[str, list[str]], topics: tuple[Topic, ...]
) -> dict[str, Any]:
    per_host = Counter(host_of(page["url"]) for page in pages)
    cross = Counter((host_of(s), host_of(t)) for s, t in edges if host_of(s) != host_of(t))
    return {
        "sites": len(per_host),
        "pages": len(pages),
        "links": len(edges),
        "cross_site_links": sum(cross.values()),
        "pages_per_site": dict(sorted(per_host.items())),
        "cross_site_links_by_pair": {f"{s} -> {t}": n for (s, t), n in cross.most_common()},
        "hazard_hosts": list(HAZARD_DOMAINS),
        "labeled_relevant": {t.name: len(labels[t.name]) for t in topics},
        "training_positives": {t.name: len(labels[t.name + "/examples"]) for t in topics},
        "relevant_per_site": {
            t.name: dict(Counter(host_of(url) for url in labels[t.name]).most_common()) for t in topics
        },
    }
