"""Scrapy settings for focused. Every FOCUSED_ setting is defined and documented here.

Defaults are polite for the real web: one request at a time per host, at least a second
between requests, robots.txt obeyed. On a local web, lower them with -s.
"""

from focused import __version__

BOT_NAME = "focused"
SPIDER_MODULES = ["focused.spiders"]
NEWSPIDER_MODULE = "focused.spiders"
COMMANDS_MODULE = "focused.commands"

# --- identification and politeness (Scrapy's own settings keep their meaning) ---
USER_AGENT = f"focused/{__version__} (topical crawler; +https://github.com/focused-crawler/focused)"
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 1  # the per-host limit
DOWNLOAD_DELAY = 1.0  # seconds between requests to one host, at least
DOWNLOAD_DELAY_JITTER = 0.0  # a random delay below Crawl-delay would be impolite
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
RETRY_TIMES = 2
DEPTH_LIMIT = 50  # trap guard: links deeper than this are dropped (depth/request_ignored_count)
URLLENGTH_LIMIT = 1024  # trap guard (urllength/request_ignored_count)
AUTOTHROTTLE_ENABLED = False  # the scheduler adapts per-host delays itself
FEED_EXPORT_ENCODING = "utf-8"
# Local feeds are written unbuffered, one write per item, so a killed crawl loses no item (focused/output/feeds.py).
FEED_STORAGES = {"": "focused.output.feeds.UnbufferedFileStorage", "file": "focused.output.feeds.UnbufferedFileStorage"}
LOG_LEVEL = "INFO"

# --- focused's components, plugged in through Scrapy's settings ---
SCHEDULER = "focused.frontier.scheduler.FocusedScheduler"
REQUEST_FINGERPRINTER_CLASS = "focused.frontier.urls.CanonicalFingerprinter"
TWISTED_DNS_RESOLVER = "focused.fetching.dns.CountingCachingResolver"
DOWNLOADER_MIDDLEWARES = {
    "focused.fetching.addresses.AddressGuardMiddleware": 50,  # before robots.txt: a refused host gets no request at all
    "focused.fetching.rendering.RenderingMiddleware": 60,
    "focused.fetching.robots.UnreachableRobotsMiddleware": 540,  # after RetryMiddleware: a robots.txt still failing disallows all
    "focused.fetching.hosthealth.HostHealthMiddleware": 555,  # sees failures before RetryMiddleware
    # only with FOCUSED_REDIS_URL: robots.txt once for a shared crawl (its final answer, below the
    # two above); the shared per-host gate, last before the downloader
    "focused.frontier.sharedhosts.SharedRobotsMiddleware": 530,
    "focused.frontier.sharedhosts.SharedPolitenessMiddleware": 900,
}
SPIDER_MIDDLEWARES = {"focused.frontier.traps.TrapGuardMiddleware": 850}
EXTENSIONS = {
    "focused.output.progress.Progress": 500,
    "focused.fetching.dns.DnsCacheStats": 500,
    "focused.output.warc.WarcWriter": 500,
}

# --- FOCUSED_ settings ---
# Strategy name -> class; adding a strategy is one module and one entry here. Without
# `-a strategy=`, a crawl uses `focused` if the profile's classifier is trained.
FOCUSED_STRATEGIES = {
    "bfs": "focused.strategies.bfs.BreadthFirst",
    "lexical": "focused.strategies.lexical.Lexical",
    "focused": "focused.strategies.learned.Learned",
    "backlink": "focused.strategies.cho.Backlink",
    "pagerank": "focused.strategies.cho.PageRank",
    "hotqueue": "focused.strategies.cho.HotQueue",
}
# Where `scrapy train` writes, and crawls look for, classifiers/<profile name>.joblib and .json.
FOCUSED_CLASSIFIERS_DIR = "classifiers"
# Per-host delay = max(DOWNLOAD_DELAY, robots.txt Crawl-delay, FOCUSED_LATENCY_FACTOR x the
# host's smoothed response time), doubled per consecutive failure, capped at FOCUSED_MAX_DELAY
# (a Crawl-delay above the cap is still honored); it counts from the end of the host's last response.
FOCUSED_LATENCY_FACTOR = 2.0
FOCUSED_MAX_DELAY = 60.0
# Seconds the scheduler may leave a download slot idle rather than hand out a URL that scores
# below one waiting on a host that will be ready within this time. 0: never idle (more pages/s,
# more of the page budget spent on weaker URLs while the best hosts rest). A URL ranked within
# the frontier's best FOCUSED_PATIENCE_WINDOW never waits (in that ranking a host waking within
# FOCUSED_PATIENCE counts once, hosts resting longer not at all). A larger window trades harvest
# rate for pages/s.
FOCUSED_PATIENCE = 1.0
FOCUSED_PATIENCE_WINDOW = 2
# Pages downloaded whose verdict (relevance, scored links) the crawl has not learned from yet, beyond
# which the scheduler hands out nothing new. Every URL it picks is picked on what it knows: a crawl
# that fetches faster than it judges runs ahead of its knowledge (100 pages and more on real
# documentation), so a host whose first pages are spam or copies gets a burst of fetches before the
# first verdict comes back. 0: no limit (Scrapy's SCRAPER_SLOT_MAX_ACTIVE_SIZE, in bytes, still holds).
FOCUSED_MAX_UNJUDGED = 16
# Consecutive failures (DNS errors, refused connections, timeouts, 5xx) after which a host is
# given up on: its queued URLs are dropped and new ones refused.
FOCUSED_HOST_MAX_FAILURES = 5
# Trap guards (0 disables one): URLs admitted per host; times one path segment may repeat;
# distinct calendar-like URLs per host; distinct query strings per host and path.
FOCUSED_MAX_PAGES_PER_HOST = 5000
FOCUSED_MAX_SEGMENT_REPEAT = 2
FOCUSED_MAX_CALENDAR_URLS = 30
FOCUSED_MAX_QUERY_VARIANTS = 30
# Seconds a name that failed to resolve is answered from the negative DNS cache.
FOCUSED_DNS_NEGATIVE_TTL = 300.0
# Networks (CIDR) the crawl may fetch from although they are not globally routable; every
# other private, loopback or link-local address is refused (focused/refused/private_address),
# for IP literals in any spelling and for names that resolve to one. Names that can only mean
# a local network (localhost, *.local, *.internal, *.home.arpa, one label...) are refused before
# any request, proxy or not (focused/refused/private_name); localhost opens with 127.0.0.0/8.
# Through an HTTP proxy the proxy resolves names. The local web without a proxy needs ["127.0.0.0/8"].
FOCUSED_ALLOWED_NETWORKS: list[str] = []
# Names (patterns: "wiki", "*.corp.internal") fetched although they look local; their addresses
# are not checked either: for an intranet crawl.
FOCUSED_ALLOWED_NAMES: list[str] = []
# A WARC file (e.g. crawl.warc.gz: gzipped) to append every fetched response to, as request and
# response records (focused/output/warc.py); empty: none.
FOCUSED_WARC = ""
# JavaScript rendering (focused/fetching/rendering.py; only where it pays): hosts always rendered (a
# profile's [crawl] render_hosts adds to them); whether pages that look like script-built app
# shells are fetched again through the browser; pages rendered per crawl and per host; the browser.
FOCUSED_RENDER_HOSTS: list[str] = []
FOCUSED_RENDER_DETECT = False
FOCUSED_RENDER_BUDGET = 200
FOCUSED_RENDER_PER_HOST = 50
FOCUSED_CHROMIUM = "/usr/bin/chromium"
# One crawl across many processes (focused/frontier/distributed.py): the Redis server that holds its
# frontier, seen set and item stream (e.g. redis://host:6379/0; empty: a crawl of its own), the
# key prefix (default focused:<profile name>), and the seconds after which the URLs and host
# slots of a process that stopped answering go back to the others.
FOCUSED_REDIS_URL = ""
FOCUSED_REDIS_KEY = ""
FOCUSED_REDIS_CLAIM_TIMEOUT = 120.0
ITEM_PIPELINES = {"focused.frontier.distributed.RedisItemStream": 800}  # only with FOCUSED_REDIS_URL
# Words kept on each side of a link as its context.
FOCUSED_CONTEXT_WORDS = 10
# Processes that extract pages (focused.pages.workers); None: the cores this process may use, less one, at
# least one; 0: extract in the crawl's own process.
FOCUSED_WORKERS = None
# Seconds a worker may spend on one page before it is killed (and the page skipped).
FOCUSED_WORKER_TIMEOUT = 30.0
# Two pages whose text SimHashes differ in at most this many of 64 bits are near-duplicates.
FOCUSED_NEARDUP_DISTANCE = 3
# A page whose mean share of distinct words per 100-word window is below this is keyword
# stuffing (focused/pages/spam.py): relevance 0, its links inherit nothing (focused/keyword_stuffed). 0: off.
FOCUSED_MIN_WORD_DIVERSITY = 0.2
# A page whose content statistics (topic-word density, compressibility, share of common words)
# fall outside the range of the classifier's training examples is uncertain: its probability
# is halved toward the examples' share of positives for every FOCUSED_OOD_TOLERANCE x the
# range's width (at least a quarter of its bounds' sum) it lies outside (focused/pages/credibility.py). 0: off.
FOCUSED_OOD_TOLERANCE = 0.25
# Refresh crawls (-a mode=refresh, focused/refresh/): at most FOCUSED_REFRESH_RATE fetches per second for the
# whole crawl, revisits and new pages together (per-host politeness still applies); how each page's share of
# the rate is set: "optimal" (the most freshness for the rate, Cho & Garcia-Molina 2000), "uniform" or
# "proportional" (to the estimated change rate); and the weight of an irrelevant page's freshness beside a
# relevant page's 1 (a page's weight: floor + (1 - floor) x relevance).
FOCUSED_REFRESH_RATE = 1.0
FOCUSED_REFRESH_POLICY = "optimal"
FOCUSED_REFRESH_FLOOR = 0.1
# Seconds between progress lines (0 turns them off).
FOCUSED_PROGRESS_INTERVAL = 5.0
# Share of pages, chosen by a hash of the URL, that the auditor (the embedding model trained beside
# the classifier) judges: the crawl's harvest estimate is its verdicts', not those of the classifier
# the crawl follows (focused/relevance/audit.py). 0: no audit, the classifier's own share judged relevant.
FOCUSED_AUDIT_SHARE = 0.1
# Lexical strategy (shark-search): relevance inherited from the parent fades by
# FOCUSED_LEXICAL_DECAY per link; FOCUSED_LEXICAL_INHERIT is its share of the score, the rest
# is split between anchor, context and URL similarity by FOCUSED_LEXICAL_WEIGHTS.
FOCUSED_LEXICAL_DECAY = 0.5
FOCUSED_LEXICAL_INHERIT = 0.3
FOCUSED_LEXICAL_WEIGHTS = {"anchor": 0.5, "context": 0.2, "url": 0.3}
# Learned strategy (focused): each signal's weight in the score (see focused/strategies/learned.py;
# "context_graph" is what a link's page led to, learned from the crawl's paths; "explore" is the bonus
# of a link into a site not read from yet, halved per page read there), pages between model
# updates and frontier re-scoring, at most how many queued URLs one re-scoring touches (the best of
# each host first; the words of twice as many links are kept for it: focused/strategies/linkwords.py),
# and the outcomes of each class the link classifier (and the context graph) must have seen before it
# counts. The context graph is off (0): measured against 0.25 in session 80 (docs/benchmarks.md), without it the
# held-out topics read more of their pages early and fewer hazard pages, the tuning topics and the local web's
# demo as many or more; give it a weight to use it.
FOCUSED_WEIGHTS = {"link": 0.45, "parent": 0.15, "context_graph": 0.0, "hub": 0.15, "explore": 0.2}
FOCUSED_RESCORE_INTERVAL = 50
FOCUSED_RESCORE_LIMIT = 50000
FOCUSED_LINK_WARMUP = 10
# The budget a site (a registrable domain: all its hosts, focused.frontier.urls.site_of) earns in the focused
# strategy, in pages read (a broken link spends none of it): pages it gets to show what it holds, then
# pages per credible relevant page it gave; past that, scores into the site fade by the square of its share left.
FOCUSED_HOST_PROBE = 10
FOCUSED_HOST_YIELD = 5
# A site's trust from the seeds (focused/strategies/trust.py: a seed's site has 1, a site linked as one of 20
# links from every page of one, 0.04) at which its allowance is whole; below, it shrinks in proportion (what
# credible relevant pages earned, by the square root, where a site trusted in full links to it).
FOCUSED_TRUST_FLOOR = 0.01
# Cho et al.'s similarity crawler (hotqueue): a URL fewer than this many links from a relevant
# page goes to the hot queue (their distance_from_hotpage(u) < 3).
FOCUSED_HOTQUEUE_DISTANCE = 3
