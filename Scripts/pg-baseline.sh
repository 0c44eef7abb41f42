#!/usr/bin/env bash
# The per-element baseline for the PostgreSQL benchmark: the naive design,
# one row and one GiST entry per element, that Tessera's layout rows are
# compared with.
#
#   bash Scripts/pg-baseline.sh postgres://postgres@127.0.0.1:PORT/postgres
#   bash Scripts/pg-baseline.sh DIR          # starts a cluster in DIR (Scripts/postgres.sh)
#   DURATION=30 CLIENT_INSERT=1 bash Scripts/pg-baseline.sh DIR
#
# In a fresh database tessera_baseline:
#   elements(layout_id int, item int, b box), 1,000,000 grid boxes (3 columns
#   390 wide, 126x126 cells, 6 spacing, rows downward) inserted by
#   INSERT ... SELECT generate_series (insertSeconds), then
#   CREATE INDEX ... USING gist (b) (indexSeconds), table+index size (bytes),
#   then viewports of 390x844 at random y, SELECT item, b ... WHERE b && box,
#   through pgbench -M prepared: 1 client for DURATION s (average latency) and
#   16 clients, 2 threads, for DURATION s (queries per second).
# CLIENT_INSERT=1 also times a client inserting the same 1M rows with COPY
#   FROM STDIN into a table that already has its GiST index
#   (clientInsertSeconds: the rows are generated into a file first, untimed).
# KEEP=1 keeps the database (and a cluster this script started in DIR).
#
# Prints one JSON object on stdout; progress goes to stderr.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

[ $# -eq 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
TARGET=$1
DURATION=${DURATION:-10}
CLIENT_INSERT=${CLIENT_INSERT:-0}
KEEP=${KEEP:-0}
N=1000000
DB=tessera_baseline

say() { printf 'pg-baseline: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[[ "$DURATION" =~ ^[1-9][0-9]*$ ]] || die "DURATION must be a whole number of seconds, not '$DURATION'."

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
[ -n "$BIN" ] && [ -x "$BIN/pgbench" ] || BIN=$(pg_config --bindir 2>/dev/null || true)
[ -n "$BIN" ] && [ -x "$BIN/pgbench" ] || BIN=$(dirname "$(command -v pgbench || echo /nonexistent/pgbench)")
[ -x "$BIN/pgbench" ] && [ -x "$BIN/psql" ] || die "no pgbench and psql found (bash Scripts/postgres.sh install)."

WORK=$(mktemp -d)
STARTED_DIR=""
DB_MADE=0
cleanup() {
    local rc=$?
    if [ "$KEEP" != 1 ]; then
        if [ "$DB_MADE" = 1 ]; then
            "$BIN/psql" -X -q -d "$URL" -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 \
                || say "could not drop database $DB"
        fi
        [ -n "$STARTED_DIR" ] && bash Scripts/postgres.sh stop "$STARTED_DIR" 2>/dev/null
    fi
    rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT

case $TARGET in
    postgres://*|postgresql://*)
        URL=$TARGET ;;
    *)
        if URL=$(bash Scripts/postgres.sh url "$TARGET" 2>/dev/null); then
            say "using the cluster running in $TARGET"
        else
            URL=$(bash Scripts/postgres.sh start "$TARGET")
            STARTED_DIR=$TARGET
        fi ;;
esac

# The same server, database tessera_baseline: the URL's path replaced.
rest=${URL#*://}
query=""
case $rest in *\?*) query="?${rest#*\?}"; rest=${rest%%\?*} ;; esac
hostpart=${rest%%/*}
DBURL="${URL%%://*}://$hostpart/$DB$query"

psql_admin() { PGOPTIONS="-c client_min_messages=warning" "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$URL" "$@"; }
psql_db() { "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$DBURL" "$@"; }

# Runs one SQL statement with \timing and prints its server round trip in seconds.
timed() {
    local out
    out=$(psql_db -c '\timing on' -c "$1")
    printf '%s\n' "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1 | awk '{printf "%.3f", $1 / 1000}'
}

now() { date +%s.%N; }

psql_admin -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
DB_MADE=1
psql_db -c "CREATE TABLE elements(layout_id int, item int, b box)"

# Item i of the 3-column grid: x = (i % 3) * 132, y = (i / 3) * 132, 126 x 126.
GRID="SELECT 1, i, box(point((i % 3) * 132, (i / 3) * 132), point((i % 3) * 132 + 126, (i / 3) * 132 + 126))
      FROM generate_series(0, $((N - 1))) AS i"

psql_db -c "CHECKPOINT"
say "inserting $N rows (INSERT ... SELECT generate_series)"
INSERT_S=$(timed "INSERT INTO elements $GRID")
psql_db -c "CHECKPOINT"
say "building the GiST index"
INDEX_S=$(timed "CREATE INDEX elements_b ON elements USING gist (b)")
# Statistics and the visibility map, as a table in use would have them (untimed).
psql_db -c "VACUUM ANALYZE elements"
BYTES=$(psql_db -At -c "SELECT pg_total_relation_size('elements')")
say "size: $(psql_db -At -c "SELECT 'table ' || pg_relation_size('elements') || ' B, GiST index ' || pg_relation_size('elements_b') || ' B'")"
COUNT=$(psql_db -At -c "SELECT count(*) FROM elements")
[ "$COUNT" = "$N" ] || die "elements holds $COUNT rows, not $N."

# A viewport 390 x 844 at a random y inside the content (333,334 rows of 132 = 44,000,088).
cat > "$WORK/viewport.sql" <<'EOF'
\set y random(0, 43999000)
SELECT item, b FROM elements WHERE b && box(point(0, :y), point(390, :y + 844));
EOF
ROWS=$(psql_db -At -c "SELECT count(*) FROM elements WHERE b && box(point(0, 22000000), point(390, 22000844))")
PLAN=$(psql_db -At -c "EXPLAIN SELECT item, b FROM elements WHERE b && box(point(0, 22000000), point(390, 22000844))" | head -1)
say "a viewport returns $ROWS rows; plan: $PLAN"

bench() {
    "$BIN/pgbench" -n -M prepared -f "$WORK/viewport.sql" -T "$DURATION" "$@" "$DBURL" 2>"$WORK/pgbench.err" \
        || { cat "$WORK/pgbench.err" >&2; die "pgbench failed."; }
}
say "pgbench: 1 client, $DURATION s"
ONE=$(bench -c 1 -j 1)
ONE_MS=$(printf '%s\n' "$ONE" | sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p')
[ -n "$ONE_MS" ] || { printf '%s\n' "$ONE" >&2; die "no average latency in pgbench's output."; }
say "pgbench: 16 clients, 2 threads, $DURATION s"
SIXTEEN=$(bench -c 16 -j 2)
TPS=$(printf '%s\n' "$SIXTEEN" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | head -1)
[ -n "$TPS" ] || { printf '%s\n' "$SIXTEEN" >&2; die "no tps in pgbench's output."; }

CLIENT_JSON=""
if [ "$CLIENT_INSERT" = 1 ]; then
    psql_db -c "CREATE TABLE elements_client(layout_id int, item int, b box)" \
            -c "CREATE INDEX elements_client_b ON elements_client USING gist (b)"
    # COPY's text form of box: (x2,y2),(x1,y1), generated untimed.
    awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++) { x = (i % 3) * 132; y = int(i / 3) * 132;
        printf "1\t%d\t(%d,%d),(%d,%d)\n", i, x + 126, y + 126, x, y } }' > "$WORK/elements.tsv"
    psql_db -c "CHECKPOINT"
    say "a client inserting $N rows with COPY FROM STDIN into a table with its GiST index"
    t0=$(now)
    psql_db -c "COPY elements_client FROM STDIN" < "$WORK/elements.tsv"
    t1=$(now)
    CLIENT_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    COUNT=$(psql_db -At -c "SELECT count(*) FROM elements_client")
    [ "$COUNT" = "$N" ] || die "elements_client holds $COUNT rows, not $N."
    CLIENT_JSON=",\"clientInsertSeconds\":$CLIENT_S"
fi

awk -v n="$N" -v ins="$INSERT_S" -v idx="$INDEX_S" -v bytes="$BYTES" -v ms="$ONE_MS" -v tps="$TPS" -v extra="$CLIENT_JSON" 'BEGIN {
    printf "{\"elements\":%d,\"insertSeconds\":%.3f,\"indexSeconds\":%.3f,\"bytes\":%d,\"bytesPerElement\":%.1f,\"oneClientAverageMicroseconds\":%.1f,\"sixteenClientQueriesPerSecond\":%.1f%s}\n",
        n, ins, idx, bytes, bytes / n, ms * 1000, tps, extra
}'
