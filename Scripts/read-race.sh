#!/usr/bin/env bash
# Reads beside a writer in another process: RUNS runs of `tessera check`,
# `query`, `list` and `export` (in turn) against a store that a loop of
# `precompute`, `invalidate` and `prune` writes meanwhile, on a store with
# no -wal or -shm beside it when the loop starts. The writer touches only
# the spec "churn"; the readers' answers about "stable" must not change.
# Prints the runs and the false reports (a failed read, a damage report, or
# an answer unlike the one read before the writer started).
#
#   bash Scripts/read-race.sh                      # 1,000 runs, .build/debug/tessera
#   CLI=/tmp/main-tessera RUNS=200 bash Scripts/read-race.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-1000}
CLI=${CLI:-.build/debug/tessera}
WORK=$(mktemp -d)
WRITER=""
cleanup() {
    [ -n "$WRITER" ] && kill "$WRITER" 2>/dev/null && wait "$WRITER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

STORE="$WORK/race.sqlite"
cat >"$WORK/stable.json" <<'JSON'
{"format": 1, "name": "stable", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 3000, "cycle": [{}]}}]}
JSON
cat >"$WORK/churn.json" <<'JSON'
{"format": 1, "name": "churn", "sections": [{"layout": {"kind": "staggered", "columns": 3},
 "items": {"count": 60000, "cycle": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}]}}]}
JSON
"$CLI" precompute "$WORK/stable.json" --db "$STORE" --width 390 --quiet
QUERY=(query --db "$STORE" --name stable --width 390 --rect 0,0,390,5000 --format json)
"$CLI" "${QUERY[@]}" >"$WORK/expected-query"
for side in -wal -shm; do [ ! -e "$STORE$side" ] || { echo "read-race: $STORE$side exists before the race" >&2; exit 2; }; done

# The writer: precompute, invalidate, prune, over and over.
(
    while :; do
        "$CLI" precompute "$WORK/churn.json" --db "$STORE" --width 390 --width 820 --quiet >/dev/null 2>&1 || true
        "$CLI" invalidate --db "$STORE" --name churn --width 820 >/dev/null 2>&1 || true
        "$CLI" prune --db "$STORE" >/dev/null 2>&1 || true
    done
) &
WRITER=$!

false_reports=0
for ((run = 0; run < RUNS; run++)); do
    case $((run % 4)) in
    0) command=(check --db "$STORE") ;;
    1) command=("${QUERY[@]}") ;;
    2) command=(list --db "$STORE") ;;
    3) rm -f "$WORK/copy.sqlite"; command=(export --db "$STORE" --out "$WORK/copy.sqlite") ;;
    esac
    status=0
    "$CLI" "${command[@]}" >"$WORK/out" 2>"$WORK/err" || status=$?
    wrong=""
    if [ "$status" -ne 0 ]; then
        wrong="exit $status: $(cat "$WORK/out" "$WORK/err" | tr '\n' ' ' | head -c 300)"
    elif [ "${command[0]}" = query ] && ! cmp -s "$WORK/out" "$WORK/expected-query"; then
        wrong="a different answer"
    elif [ "${command[0]}" = list ] && ! grep -q stable "$WORK/out"; then
        wrong="the list lacks stable"
    fi
    if [ -n "$wrong" ]; then
        false_reports=$((false_reports + 1))
        echo "run $run (${command[0]}): $wrong" >&2
    fi
done
echo "runs: $RUNS, false reports: $false_reports ($CLI, $(date -u +%FT%TZ))"
