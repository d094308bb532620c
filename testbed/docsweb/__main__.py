"""`python -m testbed.docsweb build|serve|packages`: build the benchmark web of real documents, serve it.

Build once (needs the Debian documentation packages: `make benchweb` installs them), then
serve it like the generated web: on 127.0.0.1, as virtual hosts and as an HTTP proxy.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DEFAULT_ROOT = Path("benchweb")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m testbed.docsweb")
    sub = parser.add_subparsers(dest="command", required=True)
    build_cmd = sub.add_parser("build", help="build the web from /usr/share/doc into ROOT")
    build_cmd.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    sub.add_parser("packages", help="print the Debian packages the build reads")
    serve_cmd = sub.add_parser("serve", help="serve the built web on 127.0.0.1 (virtual hosts and HTTP proxy)")
    serve_cmd.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    serve_cmd.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    serve_cmd.add_argument("--log", help="JSON-lines access log file")
    serve_cmd.add_argument("--latency", type=float, default=0.0, help="seconds added to every answer")
    args = parser.parse_args(argv)
    if args.command == "packages":
        from testbed.docsweb.sites import PACKAGES

        print(" ".join(PACKAGES))
        return
    if args.command == "build":
        from testbed.docsweb.build import BuildError, build

        try:
            stats = build(args.root)
        except BuildError as exc:
            sys.exit(f"focused: {exc}")
        print(json.dumps({k: v for k, v in stats.items() if k != "cross_site_links_by_pair"}, indent=2))
        print(f"Built in {args.root}/: labels/, profiles/, training/, graph.tsv, seeds.txt, stats.json")
        return
    from twisted.internet import reactor

    from testbed.docsweb.web import DocsWeb
    from testbed.localweb.server import serve

    try:
        web = DocsWeb(args.root)
    except FileNotFoundError as exc:
        sys.exit(f"focused: {exc}")
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    port = serve(web, args.port, log, args.latency)
    print(f"serving the benchmark web on http://127.0.0.1:{port}/ (use it as http_proxy)", flush=True)
    reactor.run()


if __name__ == "__main__":
    main()
