#!/usr/bin/env bash
# Loopback load of the listing against health: CLIENTS connections read the
# largest page of GET /v1/feeds (limit=10000) of a store of SPECS small specs
# for DURATION seconds, while GET /v1/health is probed every 50 ms. Prints
# health's latency, the pages read, and the server's peak resident memory
# (VmHWM). Everything stays on 127.0.0.1, every run is bounded in time, and
# the server and the store are removed at the end.
#
#   bash Scripts/listing-load.sh                          # 50,000 specs, 64 clients, 20 s
#   SPECS=10000 DURATION=5 bash Scripts/listing-load.sh
#   BIN_DIR=/other/.build-release/release bash Scripts/listing-load.sh   # binaries built elsewhere
#
# A server without paging answers the same request with every spec.
set -euo pipefail
cd "$(dirname "$0")/.."

SPECS=${SPECS:-50000}
DURATION=${DURATION:-20}
CLIENTS=${CLIENTS:-64}

source Scripts/lib/server.sh
require_wrk
tessera_binaries

echo "listing-load: $SPECS specs of one 3-item grid section, laid out at 390 (tessera precompute --specs)"
python3 - "$SPECS" >"$WORK/specs.ndjson" <<'PY'
import sys
for i in range(int(sys.argv[1])):
    print('{"format": 1, "name": "feed-%06d", "sections": [{"layout": {"kind": "grid", "fraction": 1}, "items": {"count": 3, "cycle": [{}]}}]}' % i)
PY
STORE="$WORK/listing.sqlite"
"$BIN/tessera" precompute --specs "$WORK/specs.ndjson" --db "$STORE" --width 390 >/dev/null

start_server "$STORE" --log-level warning
PAGE="$URL/v1/feeds?limit=10000"
echo "listing-load: one page is $(curl -s "$PAGE" | wc -c) bytes"

echo "listing-load: $CLIENTS clients on $PAGE for ${DURATION}s, /v1/health probed every 50 ms"
wrk -t2 -c"$CLIENTS" -d"${DURATION}s" --timeout 30s -s "$WORK/report.lua" "$PAGE" >"$WORK/pages.out" &
PAGES=$!
# Health is probed once the pages are under way, and stops before them: a
# new connection every 50 ms whether or not the ones before were answered
# (a stalled server shows as probes unanswered, not as fewer samples).
sleep 1
python3 - "$URL" "$((DURATION - 2))" <<'PY'
import http.client, sys, threading, time
from urllib.parse import urlsplit
url, seconds = urlsplit(sys.argv[1]), float(sys.argv[2])
latencies, lock = [], threading.Lock()
def probe():
    started = time.monotonic()
    try:
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        connection.request("GET", "/v1/health")
        answer = connection.getresponse()
        answer.read()
        ok = answer.status == 200
        connection.close()
    except OSError:
        ok = False
    with lock:
        latencies.append((time.monotonic() - started) * 1000 if ok else float("inf"))
probes = []
end = time.monotonic() + seconds
while time.monotonic() < end:
    probes.append(threading.Thread(target=probe, daemon=True))
    probes[-1].start()
    time.sleep(0.05)
for thread in probes:
    thread.join(max(0.0, end + 30 - time.monotonic()))
with lock:
    done = sorted(latencies) + [float("inf")] * (len(probes) - len(latencies))
def percentile(p):
    value = done[min(len(done) - 1, int(p / 100 * len(done)))]
    return "unanswered (30 s)" if value == float("inf") else "%.1f" % value
answered = sum(1 for value in done if value != float("inf"))
print("health p50 / p99 / max ms   %s / %s / %s (%d of %d probes answered)"
      % (percentile(50), percentile(99), percentile(100), answered, len(done)))
PY
wait "$PAGES"

read -r pages_rate _ pages_p99 _ pages_errors pages_socket <<<"$(sed -n 's/^RESULT //p' "$WORK/pages.out")"
# Pages in flight progress together: few may end within the run, the bytes say how fast they go.
transfer=$(awk '/^Transfer\/sec:/ {print $2}' "$WORK/pages.out")
peak=$(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$SERVER/status")
printf '%-28s %s\n' \
    "pages" "$pages_rate/s ended, $transfer/s sent, p99 $pages_p99 ms ($pages_errors non-2xx, $pages_socket socket errors)" \
    "server peak RSS (VmHWM)" "$peak MB"
