#!/usr/bin/env bash
# The CDN simulation's figures (README, "The server", and their targets), on
# the 1M-item demo feed (tessera demo) served by a real tessera-server on
# loopback: Scripts/cdn-simulation.py replays simulated people scrolling
# through phone caches and a shared CDN cache in front of it.
#
#   bash Scripts/cdn-figures.sh                     # defaults of cdn-simulation.py
#   bash Scripts/cdn-figures.sh --users 5000 --cdn-bytes 67108864
#   BIN_DIR=/other/.build-release/release bash Scripts/cdn-figures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/lib/server.sh
tessera_binaries

"$BIN/tessera" demo --out-dir "$WORK" >/dev/null
start_server "$WORK/tessera-demo.sqlite" --max-extents 64
timeout 3600 python3 Scripts/cdn-simulation.py "$URL" "$@"
