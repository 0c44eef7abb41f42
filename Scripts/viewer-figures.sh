#!/usr/bin/env bash
# The viewer's figures (TesseraHummingbird's article "The viewer"), in a real
# browser (Debian's Chromium driven by Playwright), against tessera-server
# --viewer over the 1M-item demo feed at width 390, loopback only:
#   - frame times while the viewer scrolls on its own at 3,000 points/s for
#     SCROLL_SECONDS (default 60): requestAnimationFrame intervals, p50/p95/p99,
#     against the same browser's empty rAF loop measured first (the baseline);
#   - each frame's work (the visible() answer from tiles and the drawing);
#   - the JavaScript heap after a garbage collection, every 5 s (CDP
#     Performance.getMetrics): the first sample while scrolling against the last,
#     with the viewer's tile cache at CACHE_BYTES (default 262144, ?cache=): about
#     20 tiles, passed in the first seconds, so that the run shows the heap once
#     the cache is full (at the page's 8 MiB the cache would still be filling);
#   - then Scripts/viewer-check.py's checks, which write the three screenshots
#     of the docs into SCREENSHOTS (default the HTTP catalog, beside its articles).
#
#   bash Scripts/viewer-figures.sh                 release binaries built into .build-release
#   BIN_DIR=.build/debug bash Scripts/viewer-figures.sh    binaries built elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."

SCROLL_SECONDS=${SCROLL_SECONDS:-60}
CACHE_BYTES=${CACHE_BYTES:-262144}
SCREENSHOTS=${SCREENSHOTS:-Sources/TesseraHummingbird/TesseraHummingbird.docc}

source Scripts/lib/server.sh
tessera_binaries
bash Scripts/browser.sh install
PYTHON=$(bash Scripts/browser.sh python)
CHROMIUM=$(bash Scripts/browser.sh chromium)

"$BIN/tessera" demo --out-dir "$WORK" >/dev/null
STORE="$WORK/tessera-demo.sqlite"
"$BIN/tessera" precompute Examples/carousel-feed.json --db "$STORE" --width 390 --quiet
start_server "$STORE" --viewer --log-level warning

echo "viewer: scrolling at 3,000 points/s for $SCROLL_SECONDS s (commit $(git rev-parse --short HEAD), $(date -u +%F))"
(cd Scripts/lib && timeout $((SCROLL_SECONDS + 120)) "$PYTHON" viewer_figures.py --url "$URL/viewer/" --chromium "$CHROMIUM" --seconds "$SCROLL_SECONDS" --cache "$CACHE_BYTES")

mkdir -p "$SCREENSHOTS"
timeout 300 "$PYTHON" Scripts/viewer-check.py server --url "$URL/viewer/" --cli "$BIN/tessera" --db "$STORE" --name demo-feed --width 390 \
    --chromium "$CHROMIUM" --last 49/2379 --screenshots "$SCREENSHOTS" >"$WORK/check.json" || { cat "$WORK/check.json"; exit 1; }
echo "screenshots: $SCREENSHOTS/viewer-top.png, viewer-middle-rtl.png, viewer-end.png (checked against tessera render)"
