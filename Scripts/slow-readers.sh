#!/usr/bin/env bash
# Memory and health latency of tessera-server under slow readers of a huge
# rect: CLIENTS curls read /rect?rect=RECT (default 0,0,1e308,1e308: the
# whole layout) of a 1M-item feed at
# RATE for SECONDS (each client asks again when its answer ends), while
# /v1/health is timed once a second and the server's VmRSS and VmHWM are
# read from /proc. Loopback only; every wait is bounded; the server, the
# clients and the store made here are gone at the end.
#
#   bash Scripts/slow-readers.sh                        # debug build, a demo store made in a temp folder
#   SERVER=/tmp/main-server STORE=/tmp/demo.sqlite bash Scripts/slow-readers.sh
#   CLIENTS=30 RATE=1k DURATION=30 bash Scripts/slow-readers.sh
#   RECT=0,0,390,2400000 bash Scripts/slow-readers.sh   # an answer within --max-answer-elements
#
# SERVER: the tessera-server binary (default .build/debug/tessera-server);
# STORE: a store holding the feed NAME at EXTENT (default: `tessera demo`'s,
# made with .build/debug/tessera); EXTRA: more flags for the server.
set -euo pipefail
cd "$(dirname "$0")/.."

CLIENTS=${CLIENTS:-12}
RATE=${RATE:-1k}
DURATION=${DURATION:-30}
NAME=${NAME:-demo-feed}
EXTENT=${EXTENT:-390}
SERVER=${SERVER:-.build/debug/tessera-server}
CLI=${CLI:-.build/debug/tessera}
EXTRA=${EXTRA:-}
RECT=${RECT:-0,0,1e308,1e308}

WORK=$(mktemp -d)
PID=""
CURLS=()
cleanup() {
    for curl in "${CURLS[@]}"; do kill "$curl" 2>/dev/null || true; done
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

if [ -z "${STORE:-}" ]; then
    echo "slow-readers: making a 1M-item demo store with $CLI demo" >&2
    "$CLI" demo --out-dir "$WORK" >/dev/null
    STORE="$WORK/tessera-demo.sqlite"
fi

# shellcheck disable=SC2086
"$SERVER" --db "$STORE" --port 0 --log-level warning $EXTRA >"$WORK/server.out" 2>"$WORK/server.log" &
PID=$!
for _ in $(seq 300); do grep -q listening "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$WORK/server.out")
[ -n "$PORT" ] || { echo "slow-readers: the server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }
URL="http://127.0.0.1:$PORT"

memory() { awk '/^VmRSS|^VmHWM/ { printf "%s %d MB  ", $1, $2 / 1024 }' "/proc/$PID/status"; }
health() { curl -s -o /dev/null -m 5 -w '%{http_code} %{time_total}' "$URL/v1/health" || echo "000 5.000"; }

# The feed's layout is read once, so that the attack starts from a warm server.
curl -s -o /dev/null -m 120 "$URL/v1/feeds/$NAME/layouts/$EXTENT/visible?rect=0,0,$EXTENT,844"
echo "before: $(memory) health $(health)"

END=$(( $(date +%s) + DURATION ))
for i in $(seq "$CLIENTS"); do
    (
        while [ "$(date +%s)" -lt "$END" ]; do
            curl -s -o /dev/null --limit-rate "$RATE" -m $(( END - $(date +%s) + 1 )) \
                -w '%{http_code}\n' "$URL/v1/feeds/$NAME/layouts/$EXTENT/rect?rect=$RECT" >>"$WORK/statuses" || true
        done
    ) &
    CURLS+=($!)
done

: >"$WORK/latencies"
while [ "$(date +%s)" -lt "$END" ]; do
    sleep 1
    line="$(health)"
    echo "$line" >>"$WORK/latencies"
    echo "t+$(( DURATION - (END - $(date +%s)) ))s: $(memory) health $line"
done
# Each client's last curl ends by its -m, a second after the end at most.
wait "${CURLS[@]}" 2>/dev/null || true
CURLS=()

echo "after: $(memory)"
echo "health: $(sort -k2 -n "$WORK/latencies" | awk '{ t[NR] = $2; if ($1 != "200") failed++ } END { printf "%d probes, median %.3f s, max %.3f s, %d not 200", NR, t[int((NR + 1) / 2)], t[NR], failed }')"
echo "rect answers: $(sort "$WORK/statuses" 2>/dev/null | uniq -c | awk '{ printf "%s×%s ", $2, $1 }') (000: cut at the end)"
