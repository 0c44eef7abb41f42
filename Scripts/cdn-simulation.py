#!/usr/bin/env python3
"""A CDN in front of tessera-server, simulated.

Many simulated people scroll a feed (random widths, starts, scroll speeds and
flings); each phone keeps its own small LRU of tiles and asks a shared CDN
(an LRU bounded in bytes) for the tiles it lacks; the CDN asks the origin,
a real tessera-server, for the ones it lacks. Manifests are `no-cache`: the
CDN revalidates one with the origin (If-None-Match, a 304) at most once per
REVALIDATE simulated seconds, as a CDN's minimum revalidation interval does.
Tile bodies are the server's real gzip answers, in the format TesseraClient
reads (column tiles, the manifest's `columnTiles`; `--format objects` for the
JSON tiles of `tiles`), fetched once per distinct tile (what the CDN would have stored) and cached here, so the figures
count real bytes. Reports, over the measured phase (after a warm-up phase):
client requests per viewport, origin requests per client request, bytes per
viewport and the CDN's hit rate.

    python3 Scripts/cdn-simulation.py URL [--feed NAME] [--users N] ...

Scripts/cdn-figures.sh starts the server on the 1M-item demo feed and runs it.
"""
import argparse
import collections
import json
import os
import random
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import tiles  # noqa: E402

PHONE_WIDTHS = (320, 375, 390, 414, 430)
VIEWPORT_HEIGHT = 844.0


class LRU:
    """An LRU of keys to sizes, bounded by a total size (bytes, or 1 per entry)."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.entries = collections.OrderedDict()
        self.size = 0

    def get(self, key):
        if key not in self.entries:
            return False
        self.entries.move_to_end(key)
        return True

    def put(self, key, size):
        if key in self.entries:
            self.size -= self.entries.pop(key)
        self.entries[key] = size
        self.size += size
        while self.size > self.capacity and self.entries:
            _, evicted = self.entries.popitem(last=False)
            self.size -= evicted


class Origin:
    """tessera-server: every request the CDN forwards is a real one."""

    def __init__(self, url, feed, max_body, template):
        self.url, self.feed, self.max_body = url, feed, max_body
        # The manifest's member naming the tiles' URLs: "columnTiles" or "tiles".
        self.template = template
        self.requests = 0
        self.manifests = {}
        self.tiles = {}

    def get(self, path, headers=None):
        self.requests += 1
        request = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                body = answer.read(self.max_body + 1)
                if len(body) > self.max_body:
                    sys.exit(f"cdn-simulation: {path} answered more than {self.max_body} bytes")
                return answer.status, body, answer.headers
        except urllib.error.HTTPError as error:
            if error.code == 304:
                return 304, b"", error.headers
            sys.exit(f"cdn-simulation: {path} answered {error.code}: {error.read()[:300]!r}")

    def manifest(self, width, etag=None):
        """The manifest of a width (a revalidation when etag is given)."""
        path = f"/v1/feeds/{self.feed}/layouts/{width}/tiles"
        status, body, headers = self.get(path, {"If-None-Match": etag} if etag else None)
        if status == 304:
            return self.manifests[width], 0
        manifest = json.loads(body)
        for key in ("revision", "tileLength", "tileCount", "contentSize", self.template):
            if key not in manifest:
                sys.exit(f"cdn-simulation: the manifest of {width} has no {key!r}")
        manifest["etag"] = headers["ETag"]
        self.manifests[width] = manifest
        return manifest, len(body)

    def tile(self, width, index):
        """The gzip body's size of a tile, fetched from the server."""
        manifest = self.manifests[width]
        path = f"/v1/feeds/{self.feed}/layouts/{width}/" + manifest[self.template].replace("{index}", str(index))
        status, body, headers = self.get(path, {"Accept-Encoding": "gzip"})
        if headers.get("Content-Encoding") != "gzip":
            sys.exit(f"cdn-simulation: {path} was not gzip-compressed")
        return len(body)


class Person:
    """One phone scrolling one feed: a position, a speed, and the phone's own LRU of tiles."""

    def __init__(self, rng, manifest, width, phone_tiles):
        self.rng, self.width = rng, width
        self.length, self.count = manifest["tileLength"], manifest["tileCount"]
        self.end = max(0.0, manifest["contentSize"][1] - VIEWPORT_HEIGHT)
        # Most sessions start at the top of the feed; some deep in it (a shared link, a restored position).
        self.y = 0.0 if rng.random() < 0.7 else rng.uniform(0, self.end)
        self.cache = LRU(phone_tiles)

    def step(self):
        """The next viewport, a frame later: reading (slow), scrolling, or flinging (fast), mostly downwards."""
        mode = self.rng.random()
        if mode < 0.6:
            delta = self.rng.uniform(0, 0.3) * VIEWPORT_HEIGHT
        elif mode < 0.9:
            delta = self.rng.uniform(0.3, 1.0) * VIEWPORT_HEIGHT
        else:
            delta = self.rng.uniform(2, 12) * VIEWPORT_HEIGHT
        if self.rng.random() < 0.1:
            delta = -delta
        self.y = min(self.end, max(0.0, self.y + delta))

    def tiles(self):
        return tiles.covering(self.y, VIEWPORT_HEIGHT, self.length, self.count)


def simulate(arguments):
    rng = random.Random(arguments.seed)
    origin = Origin(arguments.url, arguments.feed, arguments.max_body, "columnTiles" if arguments.format == "columns" else "tiles")
    cdn = LRU(arguments.cdn_bytes)
    sizes = {}  # (width, revision, index) -> gzip bytes, from the origin's answer
    validated = {}  # width -> the simulated second the CDN last revalidated its manifest
    totals = collections.Counter()
    clock = 0.0
    for width in arguments.widths:
        origin.manifest(width)
        validated[width] = 0.0

    def session(measured):
        nonlocal clock
        width = rng.choice(arguments.widths)
        # The phone asks for the manifest when a session starts: the CDN answers it,
        # revalidating with the origin when its copy is older than the interval.
        before = origin.requests
        if clock - validated[width] >= arguments.revalidate:
            origin.manifest(width, origin.manifests[width]["etag"])
            validated[width] = clock
        manifest = origin.manifests[width]
        person = Person(rng, manifest, width, arguments.phone_tiles)
        counts = collections.Counter(sessions=1, manifests=1, origin_manifests=origin.requests - before)
        for _ in range(rng.randint(arguments.viewports // 2, arguments.viewports * 3 // 2)):
            counts["viewports"] += 1
            clock += 1.0 / arguments.rate
            wanted = list(person.tiles())
            # Prefetch the next tile in the scroll direction (what TesseraClient does).
            ahead = wanted[-1] + 1
            if ahead < person.count:
                wanted.append(ahead)
            for index in wanted:
                key = (width, manifest["revision"], index)
                if person.cache.get(key):
                    continue
                counts["client_requests"] += 1
                if not cdn.get(key):
                    counts["origin_tiles"] += 1
                    if key not in sizes:
                        sizes[key] = origin.tile(width, index)
                    cdn.put(key, sizes[key])
                counts["bytes"] += sizes[key]
                person.cache.put(key, 1)
            person.step()
        if measured:
            totals.update(counts)

    for _ in range(arguments.warmup):
        session(False)
    for _ in range(arguments.users):
        session(True)
    return totals, len(sizes), cdn


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--feed", default="demo-feed")
    parser.add_argument("--widths", type=int, nargs="+", default=list(PHONE_WIDTHS))
    parser.add_argument("--users", type=int, default=20_000, help="measured sessions")
    parser.add_argument("--warmup", type=int, default=20_000, help="sessions before measuring")
    parser.add_argument("--viewports", type=int, default=120, help="mean viewports per session")
    parser.add_argument("--rate", type=float, default=200.0, help="viewports per simulated second, all people together")
    parser.add_argument("--revalidate", type=float, default=60.0, help="seconds between the CDN's revalidations of a manifest")
    parser.add_argument("--phone-tiles", type=int, default=8, help="tiles a phone keeps")
    parser.add_argument("--cdn-bytes", type=int, default=256 << 20, help="the CDN's cache of tiles, in bytes")
    parser.add_argument("--max-body", type=int, default=64 << 20, help="the largest answer read from the origin")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--format", choices=("columns", "objects"), default="columns",
                        help="column tiles (what TesseraClient reads) or the JSON objects of `tiles`")
    arguments = parser.parse_args()
    for name in ("users", "viewports", "phone_tiles", "cdn_bytes", "max_body"):
        if getattr(arguments, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if arguments.users + arguments.warmup > 1_000_000:
        parser.error("--users and --warmup: at most 1,000,000 sessions together")

    totals, distinct, cdn = simulate(arguments)
    viewports = totals["viewports"]
    requests = totals["client_requests"] + totals["manifests"]
    origin = totals["origin_tiles"] + totals["origin_manifests"]
    print(f"{totals['sessions']} measured sessions after {arguments.warmup} warm-up ones, widths {arguments.widths}, "
          f"{viewports} viewports; {distinct} distinct tiles fetched from the origin in all, the CDN holding {len(cdn.entries)} "
          f"({cdn.size / 1e6:.1f} MB of {arguments.cdn_bytes / 1e6:.0f})")
    print(f"client requests per viewport:   {requests / viewports:.3f} (tiles {totals['client_requests'] / viewports:.3f}, "
          f"manifests {totals['manifests'] / viewports:.4f})")
    print(f"origin requests:                {origin} = {100 * origin / requests:.2f} % of client requests "
          f"(tiles {totals['origin_tiles']}, manifest revalidations {totals['origin_manifests']}; target <= 2 %)")
    print(f"CDN hit rate:                   {100 * (1 - origin / requests):.2f} %")
    kind = "column" if arguments.format == "columns" else "JSON"
    print(f"bytes per viewport (gzip {kind} tiles): {totals['bytes'] / viewports:.0f}")


if __name__ == "__main__":
    main()
