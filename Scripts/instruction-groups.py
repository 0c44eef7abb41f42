#!/usr/bin/env python3
"""Instructions of a callgrind profile by where they run: each module of the
package, the Swift runtime, SQLite and the C library, per call of the
profiled function.

    python3 Scripts/instruction-groups.py callgrind.out QUERIES

QUERIES divides every count (the queries the profile collected). A
function's own instructions count for the module that defines it; a
generic specialized in another module counts for the generic's module.
"""
import re
import subprocess
import sys

MODULES = ("TesseraStoreFormat", "TesseraStore", "TesseraSQLite", "SQLiteToolkit", "TesseraLayout", "Locking", "Swift")
LIBRARIES = {"libsqlite3": "SQLite", "libc.": "C library (malloc, free, memmove, mutexes)",
             "libswiftCore": "Swift runtime (retain, release, allocation, tasks)",
             "libswift_Concurrency": "Swift runtime (retain, release, allocation, tasks)", "ld-linux": "C library (malloc, free, memmove, mutexes)"}


def group(name, library):
    for prefix, title in LIBRARIES.items():
        if library.startswith(prefix):
            return title
    # Past the specialization's arguments: "generic specialization <A, B> of M.f".
    while name.startswith("generic specialization <"):
        depth, index = 0, len("generic specialization ")
        for index in range(index, len(name)):
            depth += {"<": 1, ">": -1}.get(name[index], 0)
            if depth == 0:
                break
        name = name[index + 1:].removeprefix(" of ")
    found = [(name.find(module + "."), module) for module in MODULES if name.find(module + ".") >= 0]
    if not found:
        return "other"
    module = min(found)[1]
    return "Swift standard library, specialized in the binary" if module == "Swift" else module


def main():
    path, queries = sys.argv[1], float(sys.argv[2])
    listing = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", "--show=Ir", path],
                             capture_output=True, text=True, check=True).stdout
    demangled = subprocess.run(["swift", "demangle"], input=listing, capture_output=True, text=True, check=True).stdout
    totals = {}
    for line in demangled.splitlines():
        match = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(\S*?):(.*?)\s*(?:\[([^\]]*)\])?\s*$", line)
        if not match or "PROGRAM TOTALS" in line:
            continue
        count, source, name = int(match.group(1).replace(",", "")), match.group(2), match.group(3)
        # glibc's inlined parts come without their library, under glibc's own source paths.
        library = (match.group(4) or ("libc." if source.startswith("./") else "")).rsplit("/", 1)[-1]
        title = group(name, library)
        totals[title] = totals.get(title, 0) + count
    whole = sum(totals.values())
    print("| where | instructions | share |")
    print("|---|---|---|")
    for title, count in sorted(totals.items(), key=lambda item: -item[1]):
        print(f"| {title} | {count / queries:,.0f} | {100 * count / whole:.0f} % |")
    print(f"| all | {whole / queries:,.0f} | |")


main()
