"""The viewer page in a real browser (Chromium driven by Playwright), for
Scripts/viewer-check.py (the tests' checks) and Scripts/viewer-figures.sh
(its frame times and memory): launching, opening the page, reading its
screenshots, and comparing them with `tessera render`'s SVG."""

import colorsys
import math
import os
import re
import struct
import subprocess
import zlib

# The viewer's canvas: one CSS pixel per device pixel, so that a point of
# the layout is a pixel of the screenshot.
VIEWPORT = {"width": 900, "height": 1000}


def launch(playwright, chromium):
    """Debian's Chromium (Playwright cannot download its own here); as root without its sandbox."""
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    return playwright.chromium.launch(executable_path=chromium, args=args, timeout=30_000)


class Page:
    """A page of the viewer, with the console errors and page errors it logged."""

    def __init__(self, browser, url):
        self.context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(f"console: {message.text}"))
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.set_default_timeout(30_000)
        self.page.goto(url)
        self.page.wait_for_function("window.tesseraViewer && window.tesseraViewer.state().drawn")

    def state(self):
        return self.page.evaluate("window.tesseraViewer.state()")

    def elements(self):
        return self.page.evaluate("window.tesseraViewer.elements()")

    def scroll_to(self, position):
        self.page.evaluate("(position) => window.tesseraViewer.scrollTo(position)", position)
        return self.state()

    def drawn(self):
        self.page.evaluate("window.tesseraViewer.drawn()")
        return self.state()

    def canvas_screenshot(self):
        return self.page.locator("#canvas").screenshot()

    def close(self):
        self.context.close()


def decode_png(data):
    """(width, height, rows) of an 8-bit RGB or RGBA PNG, rows as bytearrays of RGB(A)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, chunks = 8, []
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + (left + previous[i]) // 2) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, channels, rows


RECT = re.compile(
    r'<rect class="element (cell|header|footer|background)[^"]*" data-section="(\d+)"(?: data-item="(\d+)")? '
    r'x="([-\d.e+]+)" y="([-\d.e+]+)" width="([-\d.e+]+)" height="([-\d.e+]+)"'
)


def render(cli, db, name, extent, start, end, out, rtl=False):
    """`tessera render` of the range [start, end) along the scroll axis: its elements (kind, section, item, x, y, w, h)."""
    command = [cli, "render", "--db", db, "--name", name, "--width", str(extent), "--range", f"{start},{end}", "--out", out]
    if rtl:
        command.append("--rtl")
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    with open(out, encoding="utf-8") as file:
        svg = file.read()
    return [
        (kind, int(section), int(item) if item else None, float(x), float(y), float(w), float(h))
        for kind, section, item, x, y, w, h in RECT.findall(svg)
    ]


def cell_fill(section):
    """The RGB of a section's cells, hsl((section·137) mod 360, 60%, 72%), as render and the viewer draw them."""
    r, g, b = colorsys.hls_to_rgb(((section * 137) % 360) / 360, 0.72, 0.60)
    return (round(r * 255), round(g * 255), round(b * 255))


def compare_boxes(png, elements, drawn, occluders, shift=(0, 0), tolerance=4):
    """Checks the screenshot `png` of a canvas showing the content rect `drawn`
    against the cells of `elements` (from render), each moved by `shift`:
    the pixels one pixel inside each corner have the cell's section fill, and
    the pixels just outside it, in the gap, do not. A sample under an
    occluder (a header or footer as the viewer drew it) or off the canvas is
    skipped. Returns (samples checked, list of mismatches)."""
    width, height, channels, rows = decode_png(png)
    cells = [e for e in elements if e[0] == "cell"]
    by_section = {}
    for cell in cells:
        by_section.setdefault(cell[1], []).append(cell)

    def pixel(px, py):
        row = rows[py]
        return tuple(row[px * channels : px * channels + 3])

    def covered(px, py):
        # The pixel square [px, px+1) × [py, py+1) in content coordinates meets an occluder.
        cx, cy = px + drawn["x"], py + drawn["y"]
        return any(x - 1 < cx + 1 and cx < x + w + 1 and y - 1 < cy + 1 and cy < y + h + 1 for x, y, w, h in occluders)

    def in_other_cell(px, py, section, item):
        # In the layout as it is (unshifted), another cell of the section meets the pixel.
        cx, cy = px + drawn["x"], py + drawn["y"]
        return any(
            other != item and x < cx + 1 and cx < x + w and y < cy + 1 and cy < y + h for _, _, other, x, y, w, h in by_section[section]
        )

    checked, mismatches = 0, []
    for _, section, item, x, y, w, h in cells:
        if w < 6 or h < 6:
            continue
        fill = cell_fill(section)
        left, top = x - drawn["x"] + shift[0], y - drawn["y"] + shift[1]
        right, bottom = left + w, top + h
        inside_x = (math.ceil(left) + 1, math.floor(right) - 2)
        inside_y = (math.ceil(top) + 1, math.floor(bottom) - 2)
        gap_x = (math.floor(left) - 1, math.ceil(right))
        gap_y = (math.floor(top) - 1, math.ceil(bottom))
        for corner in range(4):
            ix, iy = inside_x[corner % 2], inside_y[corner // 2]
            samples = [(ix, iy, True), (gap_x[corner % 2], iy, False), (ix, gap_y[corner // 2], False)]
            for px, py, inside in samples:
                if not (0 <= px < width and 0 <= py < height) or covered(px, py):
                    continue
                # A gap pixel that another cell of the section reaches is no gap.
                if not inside and in_other_cell(px, py, section, item):
                    continue
                same = all(abs(a - b) <= tolerance for a, b in zip(pixel(px, py), fill))
                checked += 1
                if same != inside:
                    where = "inside" if inside else "just outside"
                    mismatches.append(f"cell {section}/{item}: pixel ({px}, {py}) {where} its corner is {pixel(px, py)}, its fill {fill}")
    return checked, mismatches
