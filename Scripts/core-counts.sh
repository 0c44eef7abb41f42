#!/usr/bin/env bash
# The store core's counts, from the source alone (no build): how many lines
# TesseraStore has, the storage port's protocols and their requirements, the
# caches and their eviction rules, the executor types, and the blocking
# primitives in the libraries.
#
#   bash Scripts/core-counts.sh            # a table on stdout
#   bash Scripts/core-counts.sh --json     # one JSON object
#
# The port is every protocol in Sources/TesseraStore/Port; a
# requirement is a func, var, init, subscript or associatedtype line of one.
# Libraries are the targets that are not executables (tessera, tessera-server,
# tessera-bench), not the tools' own support (TesseraCommandSupport, where
# they bridge to async code at their top) and not C.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - "$@" <<'PY'
import json, os, re, sys

def swift_files(folder):
    for root, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".swift"):
                yield os.path.join(root, name)

def lines(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read().split("\n")

store = sorted(swift_files("Sources/TesseraStore"))
store_lines = sum(len(lines(p)) - 1 for p in store)

requirement = re.compile(r"^\s*(static\s+)?(mutating\s+)?(func|var|init|subscript|associatedtype)\b")
protocols = {}
port_files = [p for p in store if "/Port/" in p]
for path in port_files:
    text = lines(path)
    index = 0
    while index < len(text):
        match = re.match(r"^(public |package )?protocol (\w+)", text[index])
        if match:
            depth, count, opened, name = 0, 0, False, match.group(2)
            while index < len(text):
                line = text[index]
                if depth == 1 and requirement.match(line):
                    count += 1
                depth += line.count("{") - line.count("}")
                opened = opened or "{" in line
                index += 1
                if opened and depth == 0:
                    break
            protocols[name] = count
        else:
            index += 1

declaration = re.compile(r"^\s*(?:public |package |private |fileprivate |internal )?(?:final )?(?:struct|class|actor|enum) (\w+)")
types = set()
for path in store:
    for line in lines(path):
        match = declaration.match(line)
        if match:
            types.add(match.group(1))
# A cache is a type named for one (its entries, keys and statistics are
# not); an eviction rule is a file that drops entries to keep a budget and
# counts them (`evictions += 1`).
caches = sorted(t for t in types if t.endswith("Cache"))
evictions = sorted({os.path.basename(p) for p in store for line in lines(p) if "evictions += 1" in line.split("//")[0]})
executors = sorted(t for t in types if t.endswith("Executor") or t.endswith("Threads") or t.endswith("Lane"))

executables = {"tessera", "tessera-server", "tessera-bench", "TesseraCommandSupport"}
libraries = [os.path.join("Sources", d) for d in sorted(os.listdir("Sources"))
             if d not in executables and not d.startswith("C") and os.path.isdir(os.path.join("Sources", d))]
blocking = {"DispatchSemaphore": 0, "NSCondition": 0, "waitForAsync": 0, "@unchecked Sendable": 0}
for folder in libraries:
    for path in swift_files(folder):
        for line in lines(path):
            code = line.split("//")[0]
            for word in blocking:
                blocking[word] += code.count(word)

result = {
    "TesseraStore lines": store_lines,
    "TesseraStore files": len(store),
    "port protocols": len(protocols),
    "port requirements": sum(protocols.values()),
    "port": protocols,
    "caches": caches,
    "eviction rules": evictions,
    "executor types": executors,
    "in the libraries": blocking,
}
if "--json" in sys.argv[1:]:
    print(json.dumps(result, indent=2))
else:
    for key, value in result.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = f"{len(value)}: " + ", ".join(value)
        print(f"{key:22} {value}")
PY
