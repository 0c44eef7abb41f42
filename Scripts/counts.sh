#!/usr/bin/env bash
# The shape of the store in numbers, from the sources, to compare before
# and after a change. Run at any commit: `bash Scripts/counts.sh`; compare
# two with `git worktree add /tmp/old <commit> && bash Scripts/counts.sh /tmp/old`.
# Declarations are counted from the text (one per line, as the code is
# written), not from a compiler's symbol graph.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

count() { grep -rhE "$1" "${@:2}" --include=*.swift 2>/dev/null | grep -vE '^\s*//' | wc -l | tr -d ' '; }

store=Sources/TesseraStore
echo "LayoutStore public methods:        $(grep -rlE '^(public |package )?(final )?class LayoutStore|^extension LayoutStore' Sources --include=*.swift \
    | xargs grep -hE '^    public (static )?func ' | wc -l | tr -d ' ')"
# An operation with a sync and an async public form: the same name and first
# argument label with and without `async`, declarations read whole (they may
# span several lines, and may take no argument).
twins=$(grep -rlE '^extension LayoutStore|class LayoutStore' Sources --include=*.swift | xargs perl -0777 -ne '
    while (/^    public func (\w+)\(\s*(\w*)([^{]*)\{/mg) { my ($k, $rest) = ("$1($2)", $3); print "$k ", ($rest =~ /\)\s*async\b/ ? "async" : "sync"), "\n" } ' \
    | sort -u | awk '{ if ($2=="async") a[$1]=1; else s[$1]=1 } END { n=0; for (k in a) if (k in s) n++; print n }')
echo "sync/async twins:                  $twins"
port_files=$(grep -rlE 'protocol (StorageBackend|StorageReader|StorageWriter|CellSink|ReadSnapshot|WriteTransaction|SpecReads|LayoutReads|SectionReads|CellGroupReads|SpecWrites|LayoutWrites|CellWrites|SpecRows|LayoutRows|CellRows)\b' $store --include=*.swift || true)
echo "port requirements (func/var/init): $( [ -n "$port_files" ] && awk '/^package protocol (StorageBackend|StorageReader|StorageWriter|CellSink|ReadSnapshot|WriteTransaction|SpecReads|LayoutReads|SectionReads|CellGroupReads|SpecWrites|LayoutWrites|CellWrites|SpecRows|LayoutRows|CellRows)[^A-Za-z]/{p=1} p && /^}/{p=0} p && /^    (func|var|init|associatedtype)/' $port_files | wc -l | tr -d ' ' || echo 0)"
echo "@unchecked Sendable:               $(count '@unchecked Sendable' Sources)"
echo ".wait() in TesseraPostgres:        $(count '\.wait\(\)' Sources/TesseraPostgres)"
echo "TesseraStore files naming a backend: $(grep -rliE 'sqlite|postgres' $store --include=*.swift | wc -l | tr -d ' ')"
echo "@_exported imports:                $(count '@_exported' Sources)"
echo "README lines:                      $(wc -l < README.md | tr -d ' ')"
echo "public declarations per module:"
for module in Sources/*/; do
    name=$(basename "$module")
    printf '  %-20s %s\n' "$name" "$(count '^\s*(@[A-Za-z_]+(\([^)]*\))? )*public (final |static |convenience |mutating |nonisolated )*(func|var|let|init|class|struct|enum|protocol|typealias|case|subscript|actor)\b' "$module")"
done
echo "Swift lines per module:"
for module in Sources/*/; do
    printf '  %-20s %s\n' "$(basename "$module")" "$(find "$module" -name '*.swift' -print0 | xargs -0 cat | wc -l | tr -d ' ')"
done
