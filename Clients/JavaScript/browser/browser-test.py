#!/usr/bin/env python3
"""The JavaScript tile client in a real browser (Chromium, driven by Playwright).

A static server (nginx, started by the Swift test BrowserClientTests) serves
SITE on two loopback ports: two origins. This script puts the page, the client
and the examples into SITE, lays out the tests' specs with `tessera precompute`,
starts three tessera-servers on the store (one allowing the first origin and
taking writes, one without --cors-origin, one with '*'), and checks in the page:

  - random viewports (both axes, right to left, carousel offsets) answered by
    `TileClient.visible` equal `/visible`'s answers, compared here, before and
    after an append made by the page through the server (a preflighted POST);
  - the same from a static export (`tessera export --tiles`) on the page's origin;
  - a page of the second origin reads a server allowing '*', and the browser
    refuses the answers of a server that does not allow its origin, or has no flag.

Prints one JSON line of counts; exits 1 with the first difference or failure.

  python browser-test.py --site DIR --ports P1,P2 --chromium PATH [--seed N] [--timeout S]

TESSERA_SERVER and TESSERA_CLI name the executables (default: .build/debug).
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.dont_write_bytecode = True  # the repository stays clean
sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import TesseraServer, executable, repository  # noqa: E402

TOKEN = "browser-test-token"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def visible(server, url, rect, direction, offsets):
    """The server's /visible answer for the viewport a result names, as JSON."""
    manifest = urllib.parse.urlsplit(url).path
    layout = manifest[: -len("/tiles")]
    query = [("rect", ",".join(repr(rect[key]) for key in ("x", "y", "width", "height")))]
    if direction == "rtl":
        query.append(("direction", "rtl"))
    query += [("offset", f"{section}:{offset!r}") for section, offset in offsets.items()]
    with urllib.request.urlopen(f"{server.url}{layout}/visible?{urllib.parse.urlencode(query)}", timeout=30) as answer:
        return json.loads(answer.read())


def compare(server, results, label, counts):
    """Each browser answer equals /visible's: same elements, frames as doubles, same order."""
    for n, result in enumerate(results):
        expected = visible(server, result["url"], result["rect"], result["direction"], result["offsets"])
        for answer in result["answers"]:
            if answer != expected:
                raise Failure(
                    f"{label}, viewport {n}: {result['url']} rect {result['rect']} {result['direction']} offsets {result['offsets']}:\n"
                    f"  browser: {json.dumps(answer)[:1500]}\n  server:  {json.dumps(expected)[:1500]}"
                )
        counts["compared"] += 1
        counts["orthogonal"] += bool(expected.get("orthogonal"))
        counts["pinned"] += any(element["zIndex"] == 2 for element in expected["elements"])
        counts["horizontal"] += "shelf" in result["url"]
        counts["rtl"] += result["direction"] == "rtl"
        counts["offsets"] += bool(result["offsets"])
        counts["empty"] += not expected["elements"]


def copy_site(site):
    """The page and its modules at their paths in Clients/JavaScript, the examples under examples/."""
    client = repository / "Clients" / "JavaScript"
    for relative in ("tessera-tiles.mjs", "support/viewports.mjs", "browser/page.html", "browser/harness.mjs"):
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(client / relative, site / relative)
    (site / "examples").mkdir(exist_ok=True)
    for name in ("home-feed.json", "carousel-feed.json", "horizontal-shelf.json"):
        shutil.copyfile(repository / "Examples" / name, site / "examples" / name)


def precompute(cli, work, db, layouts):
    for layout in layouts:
        spec = work / f"{layout['name']}.json"
        spec.write_text(json.dumps(layout["spec"]))
        subprocess.run([cli, "precompute", str(spec), "--db", str(db), "--name", layout["name"], "--quiet", *layout["extents"]],
                       check=True, timeout=120, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", required=True)
    parser.add_argument("--ports", required=True, help="the two ports the static server serves SITE on")
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--seed", type=int, default=20261128)
    parser.add_argument("--timeout", type=int, default=100, help="seconds before everything is stopped and the run fails")
    args = parser.parse_args()

    def expired(*_):
        raise Failure(f"the browser test ran past {args.timeout} s")

    signal.signal(signal.SIGALRM, expired)
    signal.alarm(args.timeout)
    started = time.monotonic()
    site = Path(args.site)
    first_origin, second_origin = (f"http://127.0.0.1:{port}" for port in args.ports.split(","))
    cli = executable("TESSERA_CLI", "tessera")
    copy_site(site)
    work = Path(tempfile.mkdtemp(prefix="tessera-browser-"))
    servers = []
    counts = dict.fromkeys(("compared", "orthogonal", "pinned", "horizontal", "rtl", "offsets", "empty"), 0)
    summary = {}
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"] if os.getuid() == 0 else [])
            try:
                pages = {}
                for origin in (first_origin, second_origin):
                    pages[origin] = browser.new_page()
                    pages[origin].goto(f"{origin}/browser/page.html")

                def call(origin, function, *arguments):
                    # The harness module of the page's own origin.
                    return pages[origin].evaluate(
                        f"async (args) => (await import({json.dumps(origin + '/browser/harness.mjs')})).{function}(...args)", list(arguments))

                layouts = call(first_origin, "layouts", f"{first_origin}/examples/")
                db = work / "store.sqlite"
                precompute(cli, work, db, layouts)
                token = work / "token"
                token.write_text(TOKEN + "\n")
                writable = TesseraServer(db, ["--cors-origin", first_origin, "--token-file", str(token)])
                servers.append(writable)
                without_flag = TesseraServer(db, [])
                servers.append(without_flag)
                any_origin = TesseraServer(db, ["--cors-origin", "*"])
                servers.append(any_origin)

                def manifest(server, name, extent):
                    return f"{server.url}/v1/feeds/{urllib.parse.quote(name)}/layouts/{extent}/tiles"

                urls = [manifest(writable, layout["name"], extent) for layout in layouts for extent in layout["extents"][1::2]]
                call(first_origin, "open", urls)
                top = {"x": 0, "y": 0, "width": 390, "height": 844}
                lower = {"x": 0, "y": 2300, "width": 390, "height": 844}
                follower = call(first_origin, "startFollower", manifest(writable, "home", 390), top)
                check(follower["tiles"] == 1, f"the follower read {follower['tiles']} tiles for the top viewport")

                compare(writable, call(first_origin, "run", {"seed": args.seed, "count": 350}), "before the append", counts)
                before = call(first_origin, "refreshAll")
                check(before["etags"], "a manifest's ETag is not readable in the page (Access-Control-Expose-Headers)")
                check(before["notModified"] == 2 * len(urls), f"{before['notModified']} manifests revalidated with 304, not {2 * len(urls)}")

                appended = call(first_origin, "append", f"{writable.url}/v1/feeds/home/sections/3/items", TOKEN, 40)
                check(appended["status"] == 200, f"the page's append answered {appended}")
                followed = call(first_origin, "follow", lower)
                check(followed["revision"] != follower["revision"], "the follower did not follow the new revision")
                check(followed["answer"] == visible(writable, manifest(writable, "home", 390), lower, "ltr", {}), "the follower's answer after the append")
                check(any(e["section"] == 3 and e["item"] >= 12 for e in followed["answer"]["elements"]), "the appended items are not visible")
                after = call(first_origin, "refreshAll")
                changed = sum(a != b for a, b in zip(before["revisions"], after["revisions"]))
                check(changed == 4, f"{changed} clients saw a new revision after the append to home (its 2 layouts, 2 clients each)")
                compare(writable, call(first_origin, "run", {"seed": args.seed + 1, "count": 150}), "after the append", counts)
                summary["afterAppend"] = 150

                # A static export on the page's own origin.
                subprocess.run([cli, "export", "--db", str(db), "--name", "long-carousels", "--width", "390", "--tiles", str(site), "--gzip"],
                               check=True, timeout=120, stdout=subprocess.DEVNULL)
                static = f"{first_origin}/v1/feeds/long-carousels/layouts/390/tiles"
                first = call(first_origin, "open", [static])
                results = call(first_origin, "run", {"seed": args.seed + 2, "count": 100, "first": first})
                for result in results:
                    result["url"] = manifest(writable, "long-carousels", 390)
                compare(writable, results, "static export", counts)
                summary["export"] = len(results)

                # Other origins.
                rect = {"x": 0, "y": 1000, "width": 390, "height": 844}
                expected = visible(writable, manifest(writable, "long-home", 390), rect, "ltr", {})
                reads = {
                    "anyOrigin": call(second_origin, "tryRead", manifest(any_origin, "long-home", 390), rect),
                    "notListed": call(second_origin, "tryRead", manifest(writable, "long-home", 390), rect),
                    "noFlag": call(second_origin, "tryRead", manifest(without_flag, "long-home", 390), rect),
                    "noFlagFirstOrigin": call(first_origin, "tryRead", manifest(without_flag, "long-home", 390), rect),
                }
                star = reads["anyOrigin"]
                check(star.get("answer") == expected and star.get("fetchStatus") == 200, f"a page of another origin could not read a server allowing '*': {star}")
                check(star.get("etag") and star.get("notModified") == 1, f"'*': no ETag read or no 304 on revalidation: {star}")
                for name in ("notListed", "noFlag", "noFlagFirstOrigin"):
                    read = reads[name]
                    check("answer" not in read and "Failed to fetch" in read.get("error", ""), f"{name}: the client was not refused: {read}")
                    check(read.get("fetchError", "").startswith("TypeError"), f"{name}: fetch did not reject: {read}")
                summary["crossOrigin"] = {name: read.get("error", "read") for name, read in reads.items()}
            finally:
                browser.close()
    except (Failure, subprocess.SubprocessError, urllib.error.URLError, OSError) as error:
        print(f"browser-test: {error}", file=sys.stderr)
        return 1
    finally:
        signal.alarm(0)
        for server in servers:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
    summary.update(counts)
    summary["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
