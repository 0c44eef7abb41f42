#!/usr/bin/env bash
# What a warm viewport query goes through: the types and source files of
# Tessera whose code runs in `tessera-bench warm-path`'s warm queries, as
# Valgrind's callgrind records them (a debug build, so that nothing is
# inlined away and every type the source calls is counted).
#
#   bash Scripts/warm-path.sh [BENCH]       # BENCH: .build/debug/tessera-bench by default
#   bash Scripts/warm-path.sh --list [BENCH]  # and every type with its files
#
# It stores Examples/home-feed.json at width 390 in a temporary SQLite store
# with the `tessera` beside BENCH, runs 200 warm queries under callgrind
# (recording only inside `warmQueries`), and prints the counts. Types are
# those of the package's own modules; closures count for the type they are in.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

LIST=0
if [ "${1:-}" = "--list" ]; then LIST=1; shift; fi
BENCH=${1:-.build/debug/tessera-bench}
TESSERA=$(dirname "$BENCH")/tessera
command -v valgrind >/dev/null || { echo "warm-path.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
[ -x "$BENCH" ] && [ -x "$TESSERA" ] || { echo "warm-path.sh: build first: swift build --product tessera-bench --product tessera" >&2; exit 1; }

WORK=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
"$TESSERA" precompute Examples/home-feed.json --db "$WORK/store.sqlite" --width 390 >/dev/null
# Valgrind 3.19 cannot read the DWARF 5 that Swift writes: it runs a copy
# without it, and the functions' files come from the original (addr2line).
objcopy --strip-debug "$BENCH" "$WORK/tessera-bench"
timeout 600 valgrind --tool=callgrind --toggle-collect='*warmQueries*' --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$WORK/callgrind.out" "$WORK/tessera-bench" warm-path --db "$WORK/store.sqlite" --name home-feed --extent 390 --queries 200 \
    2>"$WORK/valgrind.log" >&2 || { cat "$WORK/valgrind.log" >&2; exit 1; }

# Every function with a cost, its source file (from its address in the
# original binary), and its demangled name.
sed -n 's/^c\?fn=//p' "$WORK/callgrind.out" | sort -u > "$WORK/functions.txt"
nm --defined-only "$BENCH" | awk '{print $3 "\t" $1}' | sort -u > "$WORK/addresses.tsv"
join -t $'\t' "$WORK/functions.txt" "$WORK/addresses.tsv" > "$WORK/found.tsv"
cut -f2 "$WORK/found.tsv" | sed 's/^/0x/' | addr2line -e "$BENCH" > "$WORK/files.txt"
cut -f1 "$WORK/found.tsv" | swift demangle > "$WORK/demangled.txt"
paste <(sed 's/:[0-9?]*\( (discriminator [0-9]*)\)\?$//' "$WORK/files.txt") "$WORK/demangled.txt" > "$WORK/named.tsv"

python3 - "$WORK/named.tsv" "$LIST" "$PWD" <<'PY'
import re, sys
path, listing, root = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
modules = ("TesseraStore", "TesseraStoreFormat", "TesseraSQLite", "SQLiteToolkit", "TesseraLayout", "Locking", "TesseraBackends")
types, files = {}, set()
for line in open(path, encoding="utf-8"):
    file, name = line.rstrip("\n").split("\t", 1)
    # The function a closure, a specialization or a thunk belongs to.
    name = re.split(r" (?:in|of) (?=[A-Za-z_]+\.)", name)[-1]
    name = re.sub(r"^(?:(?:protocol witness|dispatch thunk|merged|reabstraction thunk helper|type metadata accessor|outlined \w+) (?:for|of) )+", "", name)
    match = re.match(r"(\w+)\.((?:[A-Z]\w*\.)*[A-Z]\w*)?", name)
    if not match or match.group(1) not in modules:
        continue
    source = file.split(root + "/", 1)[-1] if file.startswith(root + "/Sources/") else None
    if source:
        files.add(source)
    if match.group(2):
        type_name = match.group(1) + "." + match.group(2).split("(")[0]
        types.setdefault(type_name, set()).update([source] if source else [])
print(f"warm viewport query: {len(types)} types in {len(files)} files of the package")
for module in modules:
    named = [t for t in types if t.startswith(module + ".")]
    in_files = [f for f in files if f.startswith(f"Sources/{module}/")]
    if named or in_files:
        print(f"  {module}: {len(named)} types in {len(in_files)} files")
if listing:
    for type_name in sorted(types):
        print(f"  {type_name}: {', '.join(sorted(types[type_name]))}")
PY
