"""Checks the viewer page in a real browser (Debian's Chromium driven by
Playwright), against `tessera-server --viewer` or a static export of tiles.
The tests run it (Tests/TesseraServerTests/ViewerBrowserTests.swift);
Scripts/viewer-figures.sh runs it with --screenshots to refresh the images
of the docs.

  python viewer-check.py server --url http://HOST:PORT/viewer/ --cli tessera --db STORE --name NAME --width W
         --chromium PATH --last SECTION/ITEM [--jump SECTION/ITEM] [--carousel NAME/SECTION] [--screenshots DIR]
  python viewer-check.py export --url http://HOST:PORT/index.html --cli tessera --db STORE --name NAME --width W --chromium PATH

Prints one JSON object, {"checks": [{"name", "ok", "detail"}], "seconds": s},
and exits 1 when a check failed."""

import argparse
import json
import os
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.dont_write_bytecode = True  # nothing written into the repository
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import viewer_page  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

# A 2-point shift of every box must be seen: the check is run on the moved boxes too.
SHIFTS = [(2, 0), (-2, 0), (0, 2), (0, -2)]


class Checks:
    def __init__(self):
        self.results = []

    def add(self, name, ok, detail=""):
        self.results.append({"name": name, "ok": bool(ok), "detail": detail})
        return ok

    def run(self, name, body):
        """Runs `body`, which returns (ok, detail); an exception is a failure."""
        try:
            ok, detail = body()
        except Exception as error:  # noqa: BLE001 - a check that throws failed, with what it threw
            ok, detail = False, f"{type(error).__name__}: {error}"
        return self.add(name, ok, detail)


def has_cell(elements, section, item):
    return any(e["kind"] == "cell" and e["section"] == section and e.get("item") == item for e in elements)


def pair(text):
    first, second = text.split("/")
    return first, second


def compare_with_render(page, args, label, screenshots, rtl):
    """The canvas as drawn now against `tessera render` of the same rect."""
    state = page.drawn()
    drawn = state["drawnRect"]
    png = page.canvas_screenshot()
    if screenshots:
        with open(os.path.join(screenshots, f"viewer-{label}.png"), "wb") as file:
            file.write(png)
    with tempfile.TemporaryDirectory() as folder:
        elements = viewer_page.render(
            args.cli, args.db, args.name, args.width, drawn["y"], drawn["y"] + drawn["height"], os.path.join(folder, "r.svg"), rtl=rtl
        )
    occluders = [e["frame"] for e in page.elements() if e["kind"] in ("header", "footer")]
    checked, mismatches = viewer_page.compare_boxes(png, elements, drawn, occluders)
    caught = []
    for shift in SHIFTS:
        _, moved = viewer_page.compare_boxes(png, elements, drawn, occluders, shift=shift)
        caught.append(len(moved) > 0)
    cells = sum(1 for e in elements if e[0] == "cell")
    ok = checked >= 40 and not mismatches and all(caught)
    detail = f"y {drawn['y']}: {cells} cells of render, {checked} pixels checked, {len(mismatches)} wrong"
    detail += f"; 2-point shifts seen: {caught}" + ("".join("\n  " + m for m in mismatches[:10]))
    return ok, detail


def drag_thumb(page, to_end, steps=30):
    """Drags the scrollbar's thumb to the end (or the start) in `steps` moves, each drawn before the next."""
    box = page.page.locator("#thumb").bounding_box()
    track = page.page.locator("#track").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    target = track["y"] + track["height"] + 40 if to_end else track["y"] - 40
    page.page.mouse.move(x, y)
    page.page.mouse.down()
    positions = []
    for step in range(1, steps + 1):
        page.page.mouse.move(x, y + (target - y) * step / steps)
        state = page.drawn()
        positions.append((state["scroll"], len(page.elements())))
    page.page.mouse.up()
    return positions


def server_checks(checks, page, args):
    state = page.state()
    checks.add("opens the feed from the server", state["source"] == "server" and state["feed"] == args.name and state["extent"] == args.width
               and len(page.elements()) > 0, json.dumps({k: state[k] for k in ("source", "feed", "extent", "axis", "revision")}))
    feeds = page.page.eval_on_selector_all("#feed option", "options => options.map(o => o.value)")
    checks.add("lists the feeds of /v1/feeds", args.name in feeds, f"feeds: {feeds}")

    last_section, last_item = map(int, pair(args.last))

    def to_end_and_back():
        down = drag_thumb(page, to_end=True)
        end = page.state()
        reached = end["scroll"] == end["maxScroll"] and has_cell(page.elements(), last_section, last_item)
        up = drag_thumb(page, to_end=False)
        top = page.state()
        back = top["scroll"] == 0 and has_cell(page.elements(), 0, 0)
        monotone = all(a[0] <= b[0] for a, b in zip(down, down[1:])) and all(a[0] >= b[0] for a, b in zip(up, up[1:]))
        drawn = all(count > 0 for _, count in down + up)
        detail = f"down through {len(down)} positions to {end['scroll']:.0f} of {end['maxScroll']:.0f} (last cell {args.last} drawn: {reached}), back to {top['scroll']}"
        return reached and back and monotone and drawn, detail

    checks.run("scrolls from the top to the last item and back (scrollbar)", to_end_and_back)

    def keys_and_wheel():
        page.page.focus("#canvas")
        page.page.keyboard.press("End")
        end = page.drawn()
        page.page.keyboard.press("Home")
        top = page.drawn()
        box = page.page.locator("#canvas").bounding_box()
        page.page.mouse.move(box["x"] + 100, box["y"] + 300)
        page.page.mouse.wheel(0, 1500)
        page.page.wait_for_function("window.tesseraViewer.state().scroll > 0")
        wheeled = page.drawn()
        page.page.keyboard.press("PageDown")
        paged = page.drawn()
        ok = end["scroll"] == end["maxScroll"] and top["scroll"] == 0 and wheeled["scroll"] == 1500 and paged["scroll"] > wheeled["scroll"]
        return ok, f"End {end['scroll']:.0f}, Home {top['scroll']}, wheel 1500 → {wheeled['scroll']}, PageDown → {paged['scroll']}"

    checks.run("End, Home, the wheel and PageDown scroll", keys_and_wheel)

    if args.jump:
        section, item = map(int, pair(args.jump))

        def jump():
            page.page.fill("#jump-section", str(section))
            page.page.fill("#jump-item", str(item))
            page.page.click("#jump")
            page.page.wait_for_function(f"window.tesseraViewer.elements().some(e => e.section === {section} && e.item === {item})")
            state = page.drawn()
            url = urllib.parse.urljoin(args.url, f"../v1/feeds/{urllib.parse.quote(args.name)}/layouts/{args.width}/items/{section}/{item}")
            with urllib.request.urlopen(url, timeout=30) as answer:
                frame = json.load(answer)["elements"][0]["frame"]
            shown = next(e for e in page.elements() if e["section"] == section and e.get("item") == item)
            inside = state["scroll"] <= frame[1] and frame[1] + frame[3] <= state["scroll"] + state["size"]["height"]
            return shown["frame"] == frame and inside, f"item at {frame}, viewer shows it at {shown['frame']}, scroll {state['scroll']}"

        checks.run(f"jumps to item {args.jump} (the server's items route)", jump)

    def other_width():
        page.page.select_option("#width", str(args.other_width))
        page.page.wait_for_function(f"window.tesseraViewer.state().extent === {args.other_width} && window.tesseraViewer.state().drawn")
        width = page.page.eval_on_selector("#canvas", "canvas => canvas.getBoundingClientRect().width")
        page.page.select_option("#width", str(args.width))
        page.page.wait_for_function(f"window.tesseraViewer.state().extent === {args.width} && window.tesseraViewer.state().drawn")
        return width == args.other_width, f"canvas {width} points wide at width {args.other_width}"

    if args.other_width:
        checks.run(f"switches to the stored width {args.other_width} and back", other_width)

    screenshots = args.screenshots
    page.page.set_viewport_size({"width": 900, "height": 1000})
    page.drawn()
    height = page.state()["size"]["height"]
    positions = [("top", 0, False), ("middle-rtl", round(page.state()["maxScroll"] * 0.4), True), ("end", page.state()["maxScroll"], False)]
    for label, position, rtl in positions:
        def screenshot(label=label, position=position, rtl=rtl):
            if page.page.is_checked("#rtl") != rtl:
                page.page.click("#rtl")
            page.scroll_to(position)
            return compare_with_render(page, args, label, screenshots, rtl)

        checks.run(f"the screenshot at {label} has render's boxes within a pixel ({height:.0f} points tall)", screenshot)
    if page.page.is_checked("#rtl"):
        page.page.click("#rtl")

    if args.carousel:
        name, section = pair(args.carousel)
        section = int(section)

        def carousel():
            page.page.select_option("#feed", name)
            page.page.wait_for_function(f"window.tesseraViewer.state().feed === {json.dumps(name)} && window.tesseraViewer.state().drawn")
            cell = next(e for e in page.elements() if e["kind"] == "cell" and e["section"] == section)
            box = page.page.locator("#canvas").bounding_box()
            x, y = box["x"] + cell["frame"][0] + 20, box["y"] + cell["frame"][1] + cell["frame"][3] / 2
            page.page.mouse.move(x, y)
            page.page.mouse.down()
            for step in range(1, 11):
                page.page.mouse.move(x - 15 * step, y + 1)
            page.page.mouse.up()
            state = page.drawn()
            offset = state["offsets"].get(str(section), 0)
            rect = state["drawnRect"]
            query = urllib.parse.urlencode({"rect": f"{rect['x']},{rect['y']},{rect['width']},{rect['height']}", "offset": f"{section}:{offset}"})
            url = urllib.parse.urljoin(args.url, f"../v1/feeds/{urllib.parse.quote(name)}/layouts/{state['extent']}/visible?{query}")
            with urllib.request.urlopen(url, timeout=30) as answer:
                expected = json.load(answer)["elements"]
            same = page.elements() == expected
            return offset > 100 and same, f"dragged 150 points left: offset {offset}, the viewer's elements equal /visible's: {same}"

        checks.run(f"a carousel (section {section} of {name}) scrolls sideways by drag", carousel)

        def new_width():
            page.page.fill("#new-width", "500")
            page.page.press("#new-width", "Enter")
            page.page.wait_for_function("window.tesseraViewer.state().extent === 500 && window.tesseraViewer.state().drawn")
            url = urllib.parse.urljoin(args.url, f"../v1/feeds/{urllib.parse.quote(name)}")
            with urllib.request.urlopen(url, timeout=30) as answer:
                extents = [layout["extent"] for layout in json.load(answer)["layouts"]]
            return 500 in extents and len(page.elements()) > 0, f"{name}'s stored extents now {extents}"

        checks.run(f"a new width (500) of {name}, computed by the server", new_width)


def export_checks(checks, page, args):
    state = page.state()
    contents = page.page.inner_text("#contents")
    checks.add("opens the export's feed", state["source"] == "export" and state["feed"] == args.name and state["extent"] == args.width
               and len(page.elements()) > 0, json.dumps({k: state[k] for k in ("source", "feed", "extent", "revision")}))
    checks.add("lists what the export holds", args.name in contents and str(args.width) in contents, contents)
    checks.run("the screenshot of the export's top has render's boxes within a pixel", lambda: compare_with_render(page, args, "export-top", None, False))

    def scrolled():
        page.scroll_to(page.state()["maxScroll"] / 2)
        return len(page.elements()) > 0, f"{len(page.elements())} elements at {page.state()['scroll']:.0f}"

    checks.run("scrolls the export's feed", scrolled)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["server", "export"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--other-width", type=int)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--last", default="0/0")
    parser.add_argument("--jump")
    parser.add_argument("--carousel")
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    started = time.monotonic()
    checks = Checks()
    with sync_playwright() as playwright:
        browser = viewer_page.launch(playwright, args.chromium)
        page = None
        try:
            page = viewer_page.Page(browser, f"{args.url}?feed={urllib.parse.quote(args.name)}&width={args.width}")
            (server_checks if args.mode == "server" else export_checks)(checks, page, args)
            state = page.state()
            checks.add("no error on the console or in the page", not page.errors and not state["errors"], "; ".join(page.errors + state["errors"]))
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            checks.add("the page opens and draws", False, f"{type(error).__name__}: {error}" + ("; " + "; ".join(page.errors) if page else ""))
        finally:
            browser.close()
    print(json.dumps({"checks": checks.results, "seconds": round(time.monotonic() - started, 1)}, indent=1))
    sys.exit(0 if all(check["ok"] for check in checks.results) else 1)


if __name__ == "__main__":
    main()
