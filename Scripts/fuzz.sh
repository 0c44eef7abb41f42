#!/usr/bin/env bash
# Fuzzes the JSON parser, the spec reader and the layout engine with libFuzzer.
#
#   Scripts/fuzz.sh                 # 5 minutes
#   Scripts/fuzz.sh 30              # 30 seconds (what .ci/run does)
#   Scripts/fuzz.sh 0               # until stopped (Ctrl-C) or a crash
#   Scripts/fuzz.sh --build         # only build .build/fuzz/tessera-fuzz
#   .build/fuzz/tessera-fuzz CRASH  # run one input again (a crash-* file)
#
# It compiles Sources/TesseraLayout with Fuzz/FuzzTarget.swift into one
# binary (swiftc -sanitize=fuzzer,address), outside the Swift package, and
# runs it on a copy of Fuzz/corpus in .build/fuzz/corpus, which keeps the
# inputs libFuzzer finds from run to run. A crash, a leak, an input that
# breaks the target's checks or one that takes more than 10 s stops the run
# and is saved as .build/fuzz/crash-* (leak-*, timeout-*); the exit status
# is then non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=300
build_only=false
case "${1:-}" in
    --build) build_only=true ;;
    "") ;;
    *) seconds=$1 ;;
esac

out=.build/fuzz
mkdir -p "$out/corpus"
sources=$(find Sources/TesseraLayout -name '*.swift' | sort)
# -parse-as-library: no top-level code; the module name lets the target see
# package symbols as the library's own files do.
# shellcheck disable=SC2086
swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -use-ld=lld \
    -module-name TesseraLayout -package-name tessera \
    $sources Fuzz/FuzzTarget.swift -o "$out/tessera-fuzz"
echo "fuzz: built $out/tessera-fuzz"
$build_only && exit 0

cp -n Fuzz/corpus/* "$out/corpus/" 2>/dev/null || true
cd "$out"
exec ./tessera-fuzz -dict=../../Fuzz/spec.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 corpus
