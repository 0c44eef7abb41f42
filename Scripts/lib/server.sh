# Shared by the scripts that load a tessera-server on loopback (load-test.sh,
# listing-load.sh, tile-figures.sh): wrk, the binaries, a work folder removed
# on exit, the server started on a free port, wrk's report and its request
# scripts. Source it after `cd` to the package root and `set -euo pipefail`.

# tessera_binaries [PRODUCT…]: sets BIN to a folder holding release `tessera`,
# `tessera-server` and the products named. BIN_DIR=folder uses binaries built
# elsewhere (an A/B against another commit); otherwise they are built here.
tessera_binaries() {
    if [ -n "${BIN_DIR:-}" ]; then
        BIN=$BIN_DIR
    else
        for product in tessera tessera-server "$@"; do
            swift build -c release --product "$product" --scratch-path .build-release >/dev/null
        done
        BIN=.build-release/release
    fi
}

# require_wrk: wrk (Debian's package), installed when missing.
require_wrk() {
    if ! command -v wrk >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q && apt-get install -y -q wrk
    fi
}

# A work folder, and the server (if started) stopped, on exit.
WORK=$(mktemp -d)
SERVER=""
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_server STORE [server arguments…]: starts tessera-server on a free
# loopback port; sets SERVER (its pid) and URL.
start_server() {
    local store=$1
    shift
    "$BIN/tessera-server" --db "$store" --port 0 "$@" >"$WORK/server.out" 2>"$WORK/server.log" &
    SERVER=$!
    for _ in $(seq 100); do grep -q listening "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
    local port
    port=$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$WORK/server.out")
    [ -n "$port" ] || { echo "the server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }
    URL="http://127.0.0.1:$port"
}

# wrk's report, one line: RESULT requests/s p50-ms p99-ms max-ms non-2xx socket-errors.
cat >"$WORK/report.lua" <<'LUA'
done = function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format("RESULT %.0f %.2f %.2f %.2f %d %d\n", summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.status, e.connect + e.read + e.write + e.timeout))
end
LUA

# request_script FILE PATH-EXPRESSION: a wrk script sending 4,096 GETs made
# once per thread (so wrk spends its share of the cores sending, not building
# requests), each path the Lua expression (it may use `i` and math.random),
# followed by the report.
request_script() {
    cat "$WORK/report.lua" - >"$1" <<LUA
local requests = {}
local index = 0
setup = function(thread) thread:set("seed", math.random(1, 1000000)) end
init = function()
  math.randomseed(seed)
  for i = 1, 4096 do
    requests[i] = wrk.format("GET", $2)
  end
end
request = function()
  index = index % 4096 + 1
  return requests[index]
end
LUA
}
