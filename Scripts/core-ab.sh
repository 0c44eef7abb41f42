#!/usr/bin/env bash
# Same-run A/B of the store between two commits: builds `tessera-bench` and
# `tessera` (release) at BASE and at the working tree, runs the same suites
# with both, alternating which goes first each round, and prints every
# figure's median for each with the ratio (above 1: the working tree is worse).
#
#   bash Scripts/core-ab.sh BASE                       # floor, serving, feeds; 3 rounds
#   bash Scripts/core-ab.sh BASE --build-base-only     # only build BASE (kept for later)
#   ROUNDS=5 bash Scripts/core-ab.sh 089cbeb
#   SUITES='floor --size 150000|feeds --feeds 20000' bash Scripts/core-ab.sh HEAD~3
#   PG=postgres://user@127.0.0.1:5433/bench SUITES='postgres --size 100000' bash Scripts/core-ab.sh BASE
#   BASE_PATCH=Scripts/ab-patches/089cbeb-postgres-async.patch PG=... bash Scripts/core-ab.sh 089cbeb
#
# BASE_PATCH, a patch applied to BASE before it is built, changes only how
# BASE's benchmark measures, so that both sides time the same calls in the
# same order (that patch: 089cbeb's postgres suite through its async API,
# which head's suite times, where 089cbeb timed its synchronous API first).
#
# SUITES is a |-separated list of `tessera-bench suites` arguments (each run
# with --json and --runs ${RUNS:-3}). Builds go to .build-ab/base-SHA (kept
# for the next A/B against the same BASE, which is checked out in a temporary
# worktree) and .build-ab/head; results to .build-ab/results. Figures named
# *PerSecond (rates) and loadQueries (queries served in a fixed time) are
# better higher; every other figure is a time or a size (lower is better).
set -euo pipefail
# BASE_PATCH as the caller named it, relative to where it was called from.
[ -n "${BASE_PATCH:-}" ] && BASE_PATCH=$(realpath -e "$BASE_PATCH")
cd "$(dirname "$0")/.."
BASE=${1:?usage: core-ab.sh BASE [--build-base-only]}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-3}
SUITES=${SUITES:-floor --size 150000|serving --size 150000|feeds --feeds 20000}
OUT=.build-ab
ROOT=$(pwd)
mkdir -p "$OUT/results"
rm -f "$OUT"/results/*.json

# The postgres suite needs both builds with the PostgreSQL trait (PG set).
traits=()
[ -n "${PG:-}" ] && traits=(--traits PostgreSQL)
build() { # scratch-path source-folder
    (cd "$2" && swift build -c release "${traits[@]}" --scratch-path "$1" --product tessera-bench >&2 \
        && swift build -c release "${traits[@]}" --scratch-path "$1" --product tessera >&2)
}

SHA=$(git rev-parse --short "$BASE")
BASEDIR="$OUT/base-$SHA${BASE_PATCH:+-$(basename "$BASE_PATCH" .patch)}"
# Built again when its traits differ from those it was built with (kept in $BASEDIR/traits).
if [ ! -x "$BASEDIR/release/tessera-bench" ] || [ ! -x "$BASEDIR/release/tessera" ] \
    || [ "$(cat "$BASEDIR/traits" 2>/dev/null)" != "${traits[*]}" ]; then
    WORKTREE=$(mktemp -d /tmp/tessera-ab-XXXXXX)
    trap 'git -C "$ROOT" worktree remove --force "$WORKTREE" >/dev/null 2>&1 || rm -rf "$WORKTREE"' EXIT
    git worktree add --detach "$WORKTREE" "$BASE" >/dev/null
    [ -n "${BASE_PATCH:-}" ] && git -C "$WORKTREE" apply "$BASE_PATCH"
    echo "core-ab: building BASE $SHA" >&2
    build "$ROOT/$BASEDIR" "$WORKTREE"
    echo "${traits[*]}" > "$BASEDIR/traits"
fi
[ "${2:-}" = "--build-base-only" ] && exit 0
echo "core-ab: building the working tree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', modified'))" >&2
build "$ROOT/$OUT/head" "$ROOT"

IFS='|' read -r -a suites <<< "$SUITES"
for round in $(seq 1 "$ROUNDS"); do
    order=(base head)
    [ $((round % 2)) -eq 0 ] && order=(head base)
    for index in "${!suites[@]}"; do
        for who in "${order[@]}"; do
            dir=$OUT/head
            [ "$who" = base ] && dir=$BASEDIR
            args=(suites --suite ${suites[$index]} --runs "$RUNS" --json --tessera "$dir/release/tessera")
            [ -n "${PG:-}" ] && args+=(--postgres "$PG")
            echo "core-ab: round $round, $who: tessera-bench ${args[*]}" >&2
            "$dir/release/tessera-bench" "${args[@]}" > "$OUT/results/$index-$who-$round.json"
        done
    done
done

python3 - "$OUT/results" "$SUITES" <<'PY'
import glob, json, os, statistics, sys
folder, suites = sys.argv[1], sys.argv[2].split("|")

def figures(value, prefix=""):
    # Every number in the suite's JSON, named by its path.
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from figures(inner, f"{prefix}{key}." if prefix or key else "")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield prefix.rstrip("."), float(value)

print("| suite | figure | base | head | worse by |")
print("|---|---|---|---|---|")
for index, suite in enumerate(suites):
    runs = {"base": {}, "head": {}}
    for who in runs:
        for path in sorted(glob.glob(os.path.join(folder, f"{index}-{who}-*.json"))):
            with open(path) as handle:
                for name, number in figures(json.load(handle)):
                    runs[who].setdefault(name, []).append(number)
    for name in sorted(runs["base"]):
        if name not in runs["head"]:
            continue
        base, head = statistics.median(runs["base"][name]), statistics.median(runs["head"][name])
        if base == 0 or head == 0:
            ratio = "—"
        else:
            # Rates and counts of work done in a fixed time: higher is better.
            higher_is_better = name.endswith("PerSecond") or name.endswith("loadQueries")
            worse = base / head if higher_is_better else head / base
            ratio = f"{worse:.2f}×"
        print(f"| {suite} | {name} | {base:.4g} | {head:.4g} | {ratio} |")
PY
