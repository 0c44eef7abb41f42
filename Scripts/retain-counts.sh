#!/usr/bin/env bash
# Reference counting a warm query does, counted exactly: uprobes on the
# Swift runtime's swift_retain, swift_bridgeObjectRetain (strings) and
# swift_allocObject, recorded with frame-pointer stacks while the floor
# suite's warm figure runs (2 × 20,000 queries of one layout: an untimed
# pass, then the timed one); only calls under
# LayoutStore.visibleElements(name:…) count. Prints each per query, then
# the callers that make the most. Deterministic: use it to check a change
# to the warm path, beside the timings of `tessera-bench suites --suite floor`.
#
#   bash Scripts/retain-counts.sh [TESSERA_BENCH]     (root: uprobes; needs perf)
#
# TESSERA_BENCH defaults to the release build's (.build-release, see the README).
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH=${1:-.build-release/release/tessera-bench}
[ -x "$BENCH" ] || { echo "retain-counts: no $BENCH (build tessera-bench in release first)" >&2; exit 1; }
command -v perf >/dev/null || { echo "retain-counts: perf is needed (apt-get install linux-perf)" >&2; exit 1; }
RUNTIME=$(ldd "$BENCH" | awk '/libswiftCore.so/ { print $3 }')
[ -n "$RUNTIME" ] || { echo "retain-counts: $BENCH does not link libswiftCore.so dynamically" >&2; exit 1; }

EVENTS=()
for function in swift_retain swift_bridgeObjectRetain swift_allocObject; do
    perf probe -q -x "$RUNTIME" "$function" 2>/dev/null || true
    EVENTS+=("probe_libswiftCore:$function")
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; for e in "${EVENTS[@]}"; do perf probe -q -d "$e" 2>/dev/null || true; done' EXIT

QUERIES=40000
timeout 900 perf record -q -o "$WORK/perf.data" -e "$(IFS=,; echo "${EVENTS[*]}")" --call-graph fp \
    "$BENCH" suites --suite floor --size 5000 --runs 1 --figures warm --directory "$WORK" >/dev/null
perf script -i "$WORK/perf.data" -F event,ip,sym 2>/dev/null | python3 -c '
import collections, sys
queries = int(sys.argv[1])
needle = "15visibleElements4name11crossExtent8viewport"
per, callers = collections.Counter(), collections.Counter()
event, stack = None, []
def flush():
    if event and stack and any(needle in frame for frame in stack):
        per[event] += 1
        caller = stack[1].split(" ", 1)[-1] if len(stack) > 1 else "?"
        callers[(event, caller[:150])] += 1
for line in sys.stdin:
    if line.startswith("\t"):
        stack.append(line.strip())
    elif line.strip():
        flush()
        event, stack = line.strip().rstrip(":").split(":")[-1], []
flush()
for name, count in sorted(per.items()):
    print(f"{name}: {count / queries:.2f} a query")
print("callers (a query):")
for (name, caller), count in callers.most_common(16):
    print(f"  {count / queries:5.2f}  {name:26} {caller}")
' "$QUERIES" | { command -v swift >/dev/null && swift demangle --simplified || cat; }
