#!/usr/bin/env bash
# Counts each library's public symbols (from the compiler's symbol graphs):
# how big the API a user sees is. Extensions of other modules' types count
# under the module that declares them.
#
# Usage: Scripts/public-symbols.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift package dump-symbol-graph --minimum-access-level public > /dev/null
python3 - "$(find .build -type d -name symbolgraph | head -1)" <<'PY'
import glob, json, os, sys
counts = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.symbols.json")):
    module = os.path.basename(path).split(".")[0].split("@")[0]
    if module not in ("TesseraLayout", "TesseraStore", "TesseraSQLite"):
        continue
    symbols = json.load(open(path))["symbols"]
    counts[module] = counts.get(module, 0) + sum(1 for s in symbols if s["accessLevel"] in ("public", "open"))
for module in ("TesseraLayout", "TesseraStore", "TesseraSQLite"):
    print(f"{module}: {counts.get(module, 0)}")
PY
