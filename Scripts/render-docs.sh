#!/usr/bin/env bash
# Regenerates docs/<example>.svg from every Examples/<example>.json: the layout
# at width 390 (height 390 for a horizontal spec), drawn by `tessera render`;
# also breakpoints.json at 1100 and rtl-feed.json right to left.
# The README embeds these pictures; run this after changing an example or the
# renderer, and commit the SVGs.
#
# Usage: Scripts/render-docs.sh            (from anywhere in the repository)
#        TESSERA=path/to/tessera Scripts/render-docs.sh   (use that binary, no build)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [ -z "${TESSERA:-}" ]; then
    swift build --product tessera >&2
    TESSERA="$(swift build --show-bin-path)/tessera"
fi

mkdir -p docs
for spec in Examples/*.json; do
    name="$(basename "$spec" .json)"
    axis="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("axis", "vertical"))' "$spec")"
    if [ "$axis" = "horizontal" ]; then flag=--height; else flag=--width; fi
    "$TESSERA" render "$spec" "$flag" 390 --out "docs/$name.svg"
done
# Breakpoints at a wider width, and right to left.
"$TESSERA" render Examples/breakpoints.json --width 1100 --out docs/breakpoints-1100.svg
"$TESSERA" render Examples/rtl-feed.json --width 390 --rtl --out docs/rtl-feed-rtl.svg
