#!/usr/bin/env bash
# Loopback load test of tessera-server with wrk (Debian's package), as the
# README's "Serving" section reports it. Everything stays on 127.0.0.1 and
# every run is bounded in time; the server and the store are removed at the end.
#
#   bash Scripts/load-test.sh            # 3 rounds of 10 s runs, a 60 s soak
#   DURATION=5 SOAK=20 ROUNDS=5 bash Scripts/load-test.sh
#   BIN_DIR=/other/.build-release/release bash Scripts/load-test.sh   # binaries built elsewhere
#
# wrk shares the machine's two cores with the server, and the same run
# varies by ±20 % from one minute to the next; so health, visible and errors
# run in ROUNDS alternating rounds, each ratio is taken within its round,
# and the summary gives the median of the rounds.
#
# Runs, each with wrk -t2 -c64:
#   health     GET /v1/health
#   visible    /visible of random 844-point viewports of a 1M-item feed, widths 390 and 430 in turn
#   computing  the same, while another client makes the server compute new widths of that feed, one after another
#   errors     a flood of 404s (unknown feed) and 400s (bad extent, bad rect)
#   soak       visible for SOAK seconds: RSS and open descriptors before and after
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}
SOAK=${SOAK:-60}
ROUNDS=${ROUNDS:-3}
LOAD=(-t2 -c64 --timeout 5s)

source Scripts/lib/server.sh
require_wrk
tessera_binaries

echo "load-test: a 1M-item feed at 390, 430 and 820 (tessera demo)"
"$BIN/tessera" demo --out-dir "$WORK" >/dev/null
STORE="$WORK/tessera-demo.sqlite"
# The shorter of the two widths' content heights bounds the random offsets.
MAX_Y=$("$BIN/tessera" list --db "$STORE" --format ndjson \
    | python3 -c 'import json,sys; print(int(min(json.loads(l)["contentSize"][1] for l in sys.stdin if json.loads(l)["extent"] in (390, 430)) - 844))')

start_server "$STORE" --max-extents 64

# Random 844-point viewports of the feed, widths 390 and 430 in turn.
request_script "$WORK/visible.lua" \
    '"/v1/feeds/demo-feed/layouts/" .. (390 + 40 * (i % 2)) .. "/visible?rect=0," .. math.random(0, '"$MAX_Y"') .. "," .. (390 + 40 * (i % 2)) .. ",844"'
cat "$WORK/report.lua" - >"$WORK/errors.lua" <<'LUA'
local paths = {
  "/v1/feeds/no-such-feed/layouts/390/visible?rect=0,0,390,844",
  "/v1/feeds/demo-feed/layouts/abc/visible?rect=0,0,390,844",
  "/v1/feeds/demo-feed/layouts/390/visible?rect=0,0,-1,844",
}
local counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[counter % 3 + 1])
end
LUA

# run NAME SECONDS [wrk arguments…]: one wrk run, its RESULT line kept as NAME.
declare -A RESULTS
run() {
    local name=$1 seconds=$2
    shift 2
    RESULTS[$name]=$(wrk "${LOAD[@]}" -d "${seconds}s" "$@" | sed -n 's/^RESULT //p')
}
# Resident memory: anonymous (the heap: what a leak would grow) and file
# pages (the store's memory-mapped pages the queries touched).
rss() { awk '/RssAnon|RssFile/ {printf "%s %s kB, ", $1, $2}' "/proc/$SERVER/status"; }
descriptors() { ls "/proc/$SERVER/fd" | wc -l; }

echo "load-test: warming up"
wrk -t2 -c64 -d3s -s "$WORK/visible.lua" "$URL" >/dev/null
wrk -t1 -c8 -d1s "$URL/v1/health" >/dev/null

echo "load-test: health, visible, errors (${DURATION}s each), $ROUNDS rounds"
for round in $(seq "$ROUNDS"); do
    run "health.$round" "$DURATION" -s "$WORK/report.lua" "$URL/v1/health"
    run "visible.$round" "$DURATION" -s "$WORK/visible.lua" "$URL"
    run "errors.$round" "$DURATION" -s "$WORK/errors.lua" "$URL"
done

echo "load-test: visible while new widths are computed (${DURATION}s)"
wrk "${LOAD[@]}" -d "${DURATION}s" -s "$WORK/visible.lua" "$URL" >"$WORK/computing.txt" &
WRK=$!
COMPUTED=0
COMPUTE_SECONDS=""
WIDTH=500
while kill -0 "$WRK" 2>/dev/null; do
    answer=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "$URL/v1/feeds/demo-feed/layouts/$WIDTH/visible?rect=0,0,$WIDTH,844")
    if [ "${answer%% *}" = 200 ]; then COMPUTED=$((COMPUTED + 1)); COMPUTE_SECONDS="$COMPUTE_SECONDS ${answer#* }"; fi
    WIDTH=$((WIDTH + 10))
done
wait "$WRK"
RESULTS[computing]=$(sed -n 's/^RESULT //p' "$WORK/computing.txt")

echo "load-test: soak (${SOAK}s)"
RSS_BEFORE=$(rss)
FDS_BEFORE=$(descriptors)
run soak "$SOAK" -s "$WORK/visible.lua" "$URL"
sleep 1
RSS_AFTER=$(rss)
FDS_AFTER=$(descriptors)
SERVER_ERRORS=$(curl -s "$URL/metrics" | grep -c '^tessera_http_requests_total{.*status="5' || true)

kill -TERM "$SERVER"
wait "$SERVER" && EXIT=0 || EXIT=$?
SERVER=""

field() { echo "${RESULTS[$1]}" | awk -v n="$2" '{print $n}'; }
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
# median FIELD NAME: the median over the rounds of one field of NAME.1, NAME.2, …
median() {
    local values=""
    for round in $(seq "$ROUNDS"); do values="$values $(field "$2.$round" "$1")"; done
    python3 -c "import statistics, sys; print(f'{statistics.median(float(v) for v in sys.argv[1:]):g}')" $values
}
# ratios A B: each round's A / B, then their median.
ratios() {
    local values=""
    for round in $(seq "$ROUNDS"); do values="$values $(ratio "$(field "$1.$round" 1)" "$(field "$2.$round" 1)")"; done
    python3 -c "import statistics, sys; print(f'median {statistics.median(float(v) for v in sys.argv[1:]):.2f} (rounds:' + ', '.join(sys.argv[1:]) + ')')" $values
}
echo
printf '%-34s %10s %9s %9s %9s %8s %8s\n' run requests/s "p50 ms" "p99 ms" "max ms" non-2xx "socket errors"
for round in $(seq "$ROUNDS"); do
    for name in health visible errors; do
        printf '%-34s %10s %9s %9s %9s %8s %8s\n' "$name, round $round" "$(field "$name.$round" 1)" "$(field "$name.$round" 2)" \
            "$(field "$name.$round" 3)" "$(field "$name.$round" 4)" "$(field "$name.$round" 5)" "$(field "$name.$round" 6)"
    done
done
for name in computing soak; do
    printf '%-34s %10s %9s %9s %9s %8s %8s\n' "$name" "$(field $name 1)" "$(field $name 2)" "$(field $name 3)" "$(field $name 4)" "$(field $name 5)" "$(field $name 6)"
done
echo
echo "medians of $ROUNDS rounds: health $(median 1 health) requests/s, visible $(median 1 visible) (p99 $(median 3 visible) ms), errors $(median 1 errors)"
echo "visible / health:            $(ratios visible health)  (target >= 0.7, p99 <= 10 ms)"
echo "computing / visible:         $(ratio "$(field computing 1)" "$(median 1 visible)")  (target >= 0.5; against the median visible); widths computed meanwhile: $COMPUTED, seconds each:$COMPUTE_SECONDS"
echo "errors / health:             $(ratios errors health)  (target >= 0.7; every answer of those runs is a 404 or 400)"
echo "soak: before ${RSS_BEFORE}after ${RSS_AFTER}open descriptors ${FDS_BEFORE} before, ${FDS_AFTER} after; 5xx series in /metrics: ${SERVER_ERRORS}"
echo "server exit status after SIGTERM: $EXIT; log lines: $(wc -l <"$WORK/server.log")"
