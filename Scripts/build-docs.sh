#!/usr/bin/env bash
# Builds the DocC documentation of every library with a catalog and fails on
# any warning (an unresolved symbol link, an undocumented parameter). CI runs it.
# The archives land in .build/plugins/Swift-DocC/outputs/.
#
# Usage: Scripts/build-docs.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
targets=(TesseraLayout TesseraClient TesseraStore TesseraTiles TesseraPrecompute TesseraSQLite TesseraPostgres TesseraHummingbird)
# One invocation for every catalog: the symbol graphs come from one build.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift package generate-documentation $(printf -- '--target %s ' "${targets[@]}") --warnings-as-errors > "$log" 2>&1; then
    grep -v "^\[" "$log" >&2
    echo "docs: failed" >&2
    exit 1
fi
# DocC's own diagnostics come after a catalog's "Building documentation for"
# line; the compiler's warnings before the first belong to the build (`swift
# build` shows them too).
warned=$(awk '/^Building documentation for/ { target = $4; gsub(/[.\x27]/, "", target) } target != "" && /warning:/ { print target }' "$log" | sort -u)
if [ -n "$warned" ]; then
    sed -n '/^Building documentation for/,$p' "$log" >&2
    echo "docs: warnings in $warned" >&2
    exit 1
fi
for target in "${targets[@]}"; do
    grep -q "^Building documentation for '$target'" "$log" || { echo "docs: $target was not built" >&2; exit 1; }
    echo "docs: $target built"
done
