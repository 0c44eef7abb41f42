#!/usr/bin/env bash
# The tile routes' figures (README, "The server", and their targets), on the
# 1M-item demo feed (tessera demo: section 26 is one staggered waterfall
# holding most items), loopback only, every run bounded in time:
#   - tiles an 844-point viewport needs, mean over random offsets, phone widths;
#   - bytes per element of a tile, gzip (the server's, level 6) and plain, staggered part, as JSON objects and as columns;
#   - requests/s of tile requests (plain and gzip) and of /visible against /v1/health under wrk (-t2 -c64),
#     in ROUNDS alternating rounds (the ratio within each round, then the median).
#
#   bash Scripts/tile-figures.sh          DURATION=5 ROUNDS=3 by default
#   TILE_CACHE_BYTES=0 bash Scripts/tile-figures.sh   every tile cut anew (what a CDN's origin meets
#                                          for tiles it asks once); by default the server keeps tile bodies
#                                          (--tile-cache-bytes), and each thread's 4,096 requests repeat
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-5}
ROUNDS=${ROUNDS:-3}
command -v wrk >/dev/null || { echo "tile-figures: wrk is needed (apt-get install wrk)" >&2; exit 1; }

source Scripts/lib/server.sh
tessera_binaries

"$BIN/tessera" demo --out-dir "$WORK" >/dev/null
STORE="$WORK/tessera-demo.sqlite"
start_server "$STORE" --max-extents 64 ${TILE_CACHE_BYTES:+--tile-cache-bytes "$TILE_CACHE_BYTES"}

python3 - "$URL" "$WORK" <<'PY'
import gzip, json, random, sys, urllib.request
sys.path.insert(0, "Scripts/lib")
import tiles
url, work = sys.argv[1], sys.argv[2]
def get(path, encoding=None):
    request = urllib.request.Request(url + path, headers={"Accept-Encoding": encoding} if encoding else {})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return answer.read(), answer.headers
print("tiles per 844-point viewport (vertical, phone widths), mean of 100,000 random offsets:")
random.seed(26)
for width in (320, 375, 390, 414, 430):
    manifest = json.loads(get(f"/v1/feeds/demo-feed/layouts/{width}/tiles")[0])
    length, count, content = manifest["tileLength"], manifest["tileCount"], manifest["contentSize"][1]
    total = 0
    for _ in range(100_000):
        y = random.uniform(0, content - 844)
        total += len(tiles.covering(y, 844, length, count))
    print(f"  width {width}: T = {length:g}, {count} tiles, {total / 100_000:.3f} tiles per viewport")
manifest = json.loads(get("/v1/feeds/demo-feed/layouts/390/tiles")[0])
base = "/v1/feeds/demo-feed/layouts/390/" + manifest["tiles"]
count = manifest["tileCount"]
# The staggered waterfall: the middle of the feed.
columns = "/v1/feeds/demo-feed/layouts/390/" + manifest["columnTiles"]
elements = 0
sizes = {"objects": [0, 0, 0], "columns": [0, 0, 0]}
for index in range(count // 2, count // 2 + 50):
    for name, template in (("objects", base), ("columns", columns)):
        body, headers = get(template.replace("{index}", str(index)), "gzip")
        assert headers["Content-Encoding"] == "gzip"
        text = gzip.decompress(body)
        tile = json.loads(text)
        if name == "objects":
            assert all(e["section"] == 26 for e in tile["elements"])
            elements += len(tile["elements"])
        else:
            assert set(tile["section"][1:]) <= {0} and tile["count"] == len(tile["kind"])
        for slot, size in enumerate((len(text), len(body), len(gzip.compress(text, 9, mtime=0)))):
            sizes[name][slot] += size
print(f"staggered tiles {count // 2}…{count // 2 + 49} at 390: {elements} elements, {elements / 50:.0f} per tile")
for name, (plain, compressed, best) in sizes.items():
    print(f"  bytes per element, {name}: plain {plain / elements:.1f}, gzip (server, level 6) {compressed / elements:.2f}, gzip level 9 {best / elements:.2f}")
with open(f"{work}/tiles.env", "w") as env:
    env.write(f'TILES="{base}"\nCOUNT={count}\nMAX_Y={int(manifest["contentSize"][1] - 844)}\n')
PY
source "$WORK/tiles.env"
request_script "$WORK/visible.lua" '"/v1/feeds/demo-feed/layouts/390/visible?rect=0," .. math.random(0, '"$MAX_Y"') .. ",390,844"'
request_script "$WORK/tiles.lua" '(string.gsub("'"$TILES"'", "{index}", tostring(math.random(0, '"$((COUNT - 1))"'))))'
wrk -t2 -c64 -d2s -s "$WORK/tiles.lua" "$URL" >/dev/null
echo "wrk -t2 -c64, ${DURATION}s each: requests/s, p50 ms, p99 ms, max ms, non-2xx, socket errors"
for round in $(seq "$ROUNDS"); do
    health=$(wrk -t2 -c64 -d "${DURATION}s" -s "$WORK/report.lua" "$URL/v1/health" | sed -n 's/^RESULT //p')
    tiles=$(wrk -t2 -c64 -d "${DURATION}s" -s "$WORK/tiles.lua" "$URL" | sed -n 's/^RESULT //p')
    gzipped=$(wrk -t2 -c64 -d "${DURATION}s" -H "Accept-Encoding: gzip" -s "$WORK/tiles.lua" "$URL" | sed -n 's/^RESULT //p')
    visible=$(wrk -t2 -c64 -d "${DURATION}s" -s "$WORK/visible.lua" "$URL" | sed -n 's/^RESULT //p')
    echo "  round $round: health $health | visible $visible | tiles $tiles | tiles gzip $gzipped" \
        "| visible ratio $(awk -v a="${visible%% *}" -v b="${health%% *}" 'BEGIN {printf "%.2f", a / b}')" \
        "| ratio $(awk -v a="${tiles%% *}" -v b="${health%% *}" 'BEGIN {printf "%.2f", a / b}')" \
        "gzip ratio $(awk -v a="${gzipped%% *}" -v b="${health%% *}" 'BEGIN {printf "%.2f", a / b}')"
done
echo "tiles answered (the server's /metrics): $(curl -s "$URL/metrics" | sed -n 's/^tessera_tiles_answered_total{body="\([a-z]*\)"} \([0-9]*\)$/\1 \2/p' | tr '\n' ' ')"
