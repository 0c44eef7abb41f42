#!/usr/bin/env bash
# /visible of an app that mounts the routes (tessera-bench mounted: its own
# /hello, the routes under /layouts, served with TesseraServerSettings)
# against tessera-server, on the same store, with wrk on 127.0.0.1: ROUNDS
# alternating runs of DURATION seconds each, the medians and the median of
# each round's ratio. Every run is bounded in time; the servers and the
# store are removed at the end.
#
#   bash Scripts/mounted-load.sh                  # 5 rounds of 10 s runs
#   DURATION=5 ROUNDS=3 bash Scripts/mounted-load.sh
#   BIN_DIR=.build-release/release bash Scripts/mounted-load.sh   # binaries built already
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/lib/server.sh
require_wrk
tessera_binaries tessera-bench
LOAD=(-t2 -c64 --timeout 5s -d "${DURATION:-10}s")
ROUNDS=${ROUNDS:-5}

echo "mounted-load: a 1M-item feed at 390, 430 and 820 (tessera demo)"
"$BIN/tessera" demo --out-dir "$WORK" >/dev/null
STORE="$WORK/tessera-demo.sqlite"
MAX_Y=$("$BIN/tessera" list --db "$STORE" --format ndjson \
    | python3 -c 'import json,sys; print(int(min(json.loads(l)["contentSize"][1] for l in sys.stdin if json.loads(l)["extent"] in (390, 430)) - 844))')

start_server "$STORE"
"$BIN/tessera-bench" mounted --db "$STORE" --port 0 >"$WORK/mounted.out" 2>"$WORK/mounted.log" &
MOUNTED=$!
trap 'kill "$MOUNTED" 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do grep -q listening "$WORK/mounted.out" 2>/dev/null && break; sleep 0.1; done
MOUNTED_URL=$(sed -n 's/^listening on \(http:\/\/127.0.0.1:[0-9]*\)$/\1/p' "$WORK/mounted.out")
[ -n "$MOUNTED_URL" ] || { echo "the mounted app did not start" >&2; cat "$WORK/mounted.log" >&2; exit 1; }

VIEWPORT='(390 + 40 * (i % 2)) .. "/visible?rect=0," .. math.random(0, '"$MAX_Y"') .. "," .. (390 + 40 * (i % 2)) .. ",844"'
request_script "$WORK/server.lua" '"/v1/feeds/demo-feed/layouts/" .. '"$VIEWPORT"
request_script "$WORK/mounted.lua" '"/layouts/v1/feeds/demo-feed/layouts/" .. '"$VIEWPORT"

# Both answer the same viewport alike before anything is measured.
[ "$(curl -s "$URL/v1/feeds/demo-feed/layouts/390/visible?rect=0,1000,390,844")" = \
  "$(curl -s "$MOUNTED_URL/layouts/v1/feeds/demo-feed/layouts/390/visible?rect=0,1000,390,844")" ] \
    || { echo "the mounted app and tessera-server answer differently" >&2; exit 1; }

echo "mounted-load: warming up"
wrk -t2 -c64 -d3s -s "$WORK/server.lua" "$URL" >/dev/null
wrk -t2 -c64 -d3s -s "$WORK/mounted.lua" "$MOUNTED_URL" >/dev/null

declare -A RESULTS
echo "mounted-load: visible, tessera-server then mounted, ${DURATION:-10}s each, $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
    RESULTS[server.$round]=$(wrk "${LOAD[@]}" -s "$WORK/server.lua" "$URL" | sed -n 's/^RESULT //p')
    RESULTS[mounted.$round]=$(wrk "${LOAD[@]}" -s "$WORK/mounted.lua" "$MOUNTED_URL" | sed -n 's/^RESULT //p')
done

field() { echo "${RESULTS[$1]}" | awk -v n="$2" '{print $n}'; }
printf '%-26s %10s %9s %9s %8s %8s\n' run requests/s "p50 ms" "p99 ms" non-2xx "socket errors"
for round in $(seq "$ROUNDS"); do
    for name in server mounted; do
        printf '%-26s %10s %9s %9s %8s %8s\n' "$name, round $round" "$(field "$name.$round" 1)" "$(field "$name.$round" 2)" \
            "$(field "$name.$round" 3)" "$(field "$name.$round" 5)" "$(field "$name.$round" 6)"
    done
done
values() { for round in $(seq "$ROUNDS"); do echo -n "$(field "$1.$round" 1) "; done; }
python3 - "$(values server)" "$(values mounted)" <<'PY'
import statistics, sys
server = [float(v) for v in sys.argv[1].split()]
mounted = [float(v) for v in sys.argv[2].split()]
ratios = [m / s for m, s in zip(mounted, server)]
print(f"medians: tessera-server {statistics.median(server):.0f} requests/s, mounted {statistics.median(mounted):.0f} requests/s")
print(f"mounted / tessera-server: median {statistics.median(ratios):.2f} (rounds: {', '.join(f'{r:.2f}' for r in ratios)}; target >= 0.9)")
PY
