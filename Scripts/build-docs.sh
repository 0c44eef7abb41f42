#!/usr/bin/env bash
# Builds the DocC documentation of every library with a catalog and fails on
# any warning (an unresolved symbol link, an undocumented parameter). CI runs it.
# The archives land in .build/plugins/Swift-DocC/outputs/.
#
# Usage: Scripts/build-docs.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for target in TesseraLayout TesseraClient TesseraStore TesseraSQLite TesseraPostgres TesseraHummingbird; do
    log="$(mktemp)"
    if ! swift package generate-documentation --target "$target" --warnings-as-errors > "$log" 2>&1; then
        grep -v "^\[" "$log" >&2
        echo "docs: $target failed" >&2
        exit 1
    fi
    # DocC's own diagnostics come after this line; the compiler's warnings
    # before it belong to the build (`swift build` shows them too).
    if sed -n '/^Building documentation for/,$p' "$log" | grep -q "warning:"; then
        sed -n '/^Building documentation for/,$p' "$log" >&2
        echo "docs: $target has warnings" >&2
        exit 1
    fi
    rm -f "$log"
    echo "docs: $target built"
done
