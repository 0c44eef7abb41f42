#!/usr/bin/env python3
"""Figures of the JavaScript tile client in Chromium, on the 1M-item demo feed.

Serves Clients/JavaScript from a local static server (one origin), starts
tessera-server on the demo store with --cors-origin for it (another origin),
and measures in the page (bench/browser-bench.mjs):

  - visible() answered from cached tiles: median of batch means, µs;
  - the first viewport of a new client (manifest + tiles past the browser's
    cache, from the local server): median, ms;
  - the bytes a scroll of PAGES viewports fetches, beside the Swift TileClient's
    for the same scroll (`tessera-bench client-scroll`), in the same run: the
    URLs each fetched, each counted at the size the server sends it (gzip).

  bash Scripts/browser.sh install
  $(bash Scripts/browser.sh python) Clients/JavaScript/bench/browser-bench.py [--db STORE] [--pages 1000] [--runs 30]

Without --db, `tessera demo` writes the demo store into a temporary folder.
TESSERA_SERVER, TESSERA_CLI and TESSERA_BENCH name the executables (default:
.build/release when built, else .build/debug).
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.dont_write_bytecode = True  # the repository stays clean
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from servers import StaticServer, TesseraServer, repository  # noqa: E402


def built(variable, name):
    if os.environ.get(variable):
        return os.environ[variable]
    for configuration in ("release", "debug"):
        path = repository / ".build" / configuration / name
        if path.exists():
            os.environ[variable] = str(path)
            return str(path)
    raise SystemExit(f"browser-bench: no {name} in .build/release or .build/debug (swift build)")


def wire_bytes(url, cache={}):
    """The bytes the server sends for `url` when asked for gzip, as a browser does."""
    if url not in cache:
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            cache[url] = len(answer.read())
    return cache[url]


def chromium():
    return subprocess.run(["bash", str(repository / "Scripts" / "browser.sh"), "chromium"], check=True, capture_output=True, text=True).stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db")
    parser.add_argument("--name", default="demo-feed")
    parser.add_argument("--width", type=float, default=390)
    parser.add_argument("--height", type=float, default=844)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    server_path = built("TESSERA_SERVER", "tessera-server")
    cli = built("TESSERA_CLI", "tessera")
    bench = built("TESSERA_BENCH", "tessera-bench")
    chromium_path = chromium()

    work = Path(tempfile.mkdtemp(prefix="tessera-browser-bench-"))
    static = server = None
    try:
        db = args.db
        if not db:
            subprocess.run([cli, "demo", "--out-dir", str(work)], check=True, timeout=1800, stdout=subprocess.DEVNULL)
            db = work / "tessera-demo.sqlite"
        static = StaticServer(repository / "Clients" / "JavaScript")
        server = TesseraServer(db, ["--cors-origin", static.origin])
        width = f"{args.width:g}"
        manifest = f"{server.url}/v1/feeds/{args.name}/layouts/{width}/tiles"
        size = {"width": args.width, "height": args.height}

        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path, args=["--no-sandbox"] if os.getuid() == 0 else [])
            page = browser.new_page()
            page.goto(f"{static.origin}/browser/page.html")
            module = json.dumps(f"{static.origin}/bench/browser-bench.mjs")

            def call(function, options):
                return page.evaluate(f"async (o) => (await import({module})).{function}({json.dumps(manifest)}, o)", options)

            # The server's first read of the layout is not the client's cost.
            call("firstViewport", {**size, "runs": 1})
            cached = call("cachedViewports", size)
            first = call("firstViewport", {**size, "runs": args.runs})
            scrolled = call("scroll", {**size, "pages": args.pages})
            version = browser.version
            browser.close()

        swift = json.loads(subprocess.run(
            [bench, "client-scroll", manifest, "--viewport", f"{width}x{args.height:g}", "--pages", str(args.pages)],
            check=True, capture_output=True, text=True, timeout=1800).stdout)
        js_bytes = sum(wire_bytes(url) for url in scrolled["urls"])
        swift_bytes = sum(wire_bytes(url) for url in swift["urls"])
        commit = subprocess.run(["git", "-C", str(repository), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        print(f"{args.name} at {width}, {args.pages} viewports of {args.height:g} points; Chromium {version}; "
              f"{Path(server_path).parent.name} build; {datetime.date.today()}, commit {commit}")
        print("| figure | value |\n|---|---|")
        print(f"| visible() from cached tiles, p50 (median of 101 batch means of 200 calls) | {cached['p50']:.1f} µs |")
        print(f"| first viewport of a new client (manifest + {first['tilesPerRun']:g} tiles), p50 of {args.runs} | {first['p50']:.1f} ms |")
        print(f"| bytes per viewport scrolled, web client (gzip as served; Chromium counted {scrolled['bytesFetched'] / args.pages:.0f}) | {js_bytes / args.pages:.0f} B |")
        print(f"| bytes per viewport scrolled, Swift TileClient, same scroll | {swift_bytes / args.pages:.0f} B |")
        print(f"| ratio web / Swift | {js_bytes / swift_bytes:.3f} |")
        print(f"| requests: web, Swift | {len(scrolled['urls'])}, {len(swift['urls'])} |")
        if swift["elements"] != scrolled["elements"]:
            print(f"browser-bench: the clients answered {scrolled['elements']} and {swift['elements']} elements", file=sys.stderr)
            return 1
    finally:
        if server:
            server.stop()
        if static:
            static.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
