"""`python -m testbed.localweb serve|labels|seeds|graph`: run the local web (or a WARC archive's), or print
its ground truth."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from testbed.localweb.web import LocalWeb, write_examples

# The motion of --dynamic: option -> (default, meaning)
MOTION = {
    "--fastest": (5.0, "mean seconds between changes of the fastest-changing pages"),
    "--slowest": (5000.0, "mean seconds between changes of the slowest-changing pages"),
    "--births": (0.05, "new articles per second"),
    "--deaths": (0.05, "the share of articles that go away within the horizon"),
    "--horizon": (3600.0, "seconds of changes planned"),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m testbed.localweb")
    sub = parser.add_subparsers(dest="command", required=True)
    serve_cmd = sub.add_parser("serve", help="serve the web on 127.0.0.1 (virtual hosts and HTTP proxy)")
    serve_cmd.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    serve_cmd.add_argument("--log", help="JSON-lines access log file")
    serve_cmd.add_argument("--latency", type=float, default=0.0, help="seconds added to every answer")
    serve_cmd.add_argument(
        "--crawl-delay",
        type=float,
        default=0.0,
        help="a Crawl-delay (seconds) in every host's robots.txt of the generated web",
    )
    serve_cmd.add_argument(
        "--warc",
        action="append",
        type=Path,
        default=[],
        help="serve these WARC files (a crawl's FOCUSED_WARC) instead of the generated web",
    )
    serve_cmd.add_argument("--hostile", action="store_true", help="serve the web of broken and hostile answers")
    serve_cmd.add_argument(
        "--adversarial",
        action="store_true",
        help="add two link farms (stuffed and spun) reached from two articles' footers",
    )
    serve_cmd.add_argument(
        "--dynamic",
        metavar="TRUTH",
        type=Path,
        help="serve the web in motion (testbed.localweb.dynamic) and write its ground truth to this JSON file",
    )
    serve_cmd.add_argument("--seed", type=int, default=7, help="with --dynamic: the web's seed")
    for flag, (default, meaning) in MOTION.items():
        serve_cmd.add_argument(flag, type=float, default=default, help=f"with --dynamic: {meaning}")
    sub.add_parser("labels", help="print the URLs of relevant pages, one a line")
    sub.add_parser("seeds", help="print the seed URLs")
    sub.add_parser("graph", help="print the links between pages, `source<TAB>target` a line")
    examples = sub.add_parser("examples", help="write training examples drawn from another web of the same kind")
    examples.add_argument("directory", help="gets positive/ and negative/ folders of HTML files")
    examples.add_argument("--seed", type=int, default=1234, help="the other web's seed (the crawled web uses 7)")
    args = parser.parse_args(argv)
    if args.command == "labels":
        print("\n".join(sorted(LocalWeb().relevant_urls())))
    elif args.command == "graph":
        print("\n".join(f"{source}\t{target}" for source, target in LocalWeb().edges()))
    elif args.command == "seeds":
        print("\n".join(LocalWeb().seeds()))
    elif args.command == "examples":
        write_examples(LocalWeb(args.seed), Path(args.directory))
    else:
        from twisted.internet import reactor

        from testbed.localweb.adversarial import AdversarialWeb
        from testbed.localweb.hostile import HostileWeb
        from testbed.localweb.server import serve
        from testbed.localweb.warcweb import WarcWeb

        log = open(args.log, "a", encoding="utf-8") if args.log else None
        web = (
            _dynamic(args)
            if args.dynamic
            else WarcWeb(args.warc)
            if args.warc
            else HostileWeb()
            if args.hostile
            else AdversarialWeb()
            if args.adversarial
            else LocalWeb(crawl_delay=args.crawl_delay)
        )
        port = serve(web, args.port, log, args.latency)
        print(f"serving {type(web).__name__} on http://127.0.0.1:{port}/ (use it as http_proxy)", flush=True)
        reactor.run()
        sys.exit(0)


def _dynamic(args: argparse.Namespace) -> LocalWeb:
    from testbed.localweb.dynamic import DynamicWeb

    web = DynamicWeb(args.seed, None, args.horizon, args.fastest, args.slowest, args.births, args.deaths)
    args.dynamic.write_text(json.dumps(web.truth()), encoding="utf-8")
    return web


if __name__ == "__main__":
    main()
