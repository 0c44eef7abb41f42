#!/usr/bin/env bash
# The PostgreSQL backend's benchmark (README, "PostgreSQL"), with its
# baselines measured in the same run on the same throwaway cluster:
#   - the per-element design (one row per element, a GiST index on its box),
#     by Scripts/pg-baseline.sh: insert + index build inside the server, the
#     same rows sent from a client (COPY), viewport queries through pgbench
#     from 1 and 16 clients;
#   - Tessera on PostgreSQL: `tessera-bench --suite postgres` (precompute and
#     persist from the client, bytes on the server, warm viewport queries from
#     1 client and 16 threads);
#   - Tessera on SQLite, the same precompute and queries.
# Prints the three reports as JSON, then the comparison.
#
# Usage: bash Scripts/bench-postgres.sh            (SIZE=1m RUNS=3 DURATION=10)
#        TESSERA_POSTGRES_URL=postgres://… bash Scripts/bench-postgres.sh   (an existing server)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
size="${SIZE:-1m}"
runs="${RUNS:-3}"
export DURATION="${DURATION:-10}"

echo "bench-postgres: building tessera-bench (release, trait PostgreSQL)" >&2
swift build -c release --traits PostgreSQL --product tessera-bench --scratch-path .build-release-pg >&2
bench="$root/.build-release-pg/release/tessera-bench"

url="${TESSERA_POSTGRES_URL:-}"
if [ -z "$url" ]; then
    cluster="${TMPDIR:-/tmp}/tessera-bench-pg-$$"
    # A durable cluster (fsync on), as a deployment runs.
    url="$(bash Scripts/postgres.sh start "$cluster")"
    trap 'bash Scripts/postgres.sh stop "$cluster" >/dev/null 2>&1 || true; rm -rf "$cluster"' EXIT
fi

echo "bench-postgres: per-element baseline (1M boxes, GiST)" >&2
baseline="$(CLIENT_INSERT=1 bash Scripts/pg-baseline.sh "$url")"
echo "bench-postgres: Tessera on PostgreSQL and SQLite ($size, $runs runs)" >&2
ours="$("$bench" --suite postgres --postgres "$url" --size "$size" --runs "$runs" --json)"

python3 - "$baseline" "$ours" <<'PY'
import json, sys
base, ours = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(json.dumps({"baseline": base, "tessera": ours}, indent=1))
per_element = base["insertSeconds"] + base["indexSeconds"]
rows = [
    ("precompute + persist, s", ours["precomputeSeconds"], f"per-element insert+index {per_element:.2f} s: {per_element / ours['precomputeSeconds']:.1f}x faster; "
        f"per-element from a client {base.get('clientInsertSeconds', float('nan')):.2f} s; SQLite {ours['sqlitePrecomputeSeconds']:.2f} s"),
    ("bytes per element", ours["bytesPerElement"], f"per-element {base['bytesPerElement']:.0f}"),
    ("viewport p50, µs (1 client)", ours["viewportP50Microseconds"], f"per-element average {base['oneClientAverageMicroseconds']:.0f} µs (pgbench); SQLite p50 {ours['sqliteViewportP50Microseconds']:.1f} µs"),
    ("viewport p99, µs (1 client)", ours["viewportP99Microseconds"], f"SQLite p99 {ours['sqliteViewportP99Microseconds']:.1f} µs"),
    ("  frames not cached: p50, µs", ours["uncachedViewportP50Microseconds"], f"p99 {ours['uncachedViewportP99Microseconds']:.0f} µs (frame cache off: every query fetches its frames)"),
    (f"queries/s ({ours['clients']} clients)", ours["concurrentQueriesPerSecond"], f"per-element {base['sixteenClientQueriesPerSecond']:.0f}/s: ratio {ours['concurrentQueriesPerSecond'] / base['sixteenClientQueriesPerSecond']:.2f}"),
    ("freshness=notified: p50, µs", ours["notifiedViewportP50Microseconds"], f"p99 {ours['notifiedViewportP99Microseconds']:.1f} µs (warm queries send nothing)"),
    (f"  queries/s ({ours['clients']} clients)", ours["notifiedConcurrentQueriesPerSecond"], f"ratio to per-element {ours['notifiedConcurrentQueriesPerSecond'] / base['sixteenClientQueriesPerSecond']:.2f}"),
    ("  commit seen elsewhere after, µs", ours["notificationDelayP50Microseconds"], f"p50; p99 {ours['notificationDelayP99Microseconds']:.0f} µs (save returned -> another process's reader answers the new version)"),
]
print()
for name, value, note in rows:
    print(f"{name:32} {value:12.1f}   {note}")
PY
