#!/usr/bin/env bash
# Runs the store's concurrency suites under ThreadSanitizer and fails on any
# report: the SQLite pool and its checkpoints (DatabasePoolTests,
# DatabasePoolWaitingTests, AsyncGateTests,
# CheckpointTests, CloseTests, SharedResolvedNames), and the store's suites
# whose readers, writers and tasks run on several threads at once
# (LayoutStoreConcurrencyTests, AsyncStoreTests, LayoutCacheTests,
# BatchPrecomputeTests, QueryResultTests, ExecutorTests, StoreConformanceTests;
# these run on every backend, PostgreSQL included,
# whose tests start their own throwaway server, see Scripts/postgres.sh),
# PostgreSQL's async reads (PostgresReadTests) and NIO's thread pool as the
# store's executor (ThreadPoolExecutorTests), and warm answers from memory
# beside writers and a closing store (MemoryAnswerTests), the server's
# replaceable store under leasing readers (StoreSlotTests), paged listings
# (ListingTests), names held twice (EquivalentNameStoreTests), and the one
# cache filled and emptied by threads at once (StoreCacheTests, FrameCarryTests),
# a batch's workers and a save's widths laid out at once (BatchWorkersTests,
# BatchChannelTests, HandOffTests), the package's lock itself (LockedTests), and merges
# reading shards inside a write (MergeTests).
#
#   bash Scripts/tsan.sh                 # the suites above
#   bash Scripts/tsan.sh --traits PostgreSQL   # extra arguments go to swift test
#   TSAN_FILTER='DatabasePoolTests' bash Scripts/tsan.sh   # other suites
#
# The build goes to its own scratch path (.build-tsan), so that it never
# replaces the usual .build: the first run builds everything instrumented
# (several minutes), later runs only what changed. The full output is kept
# in .build-tsan/tsan.log.
#
# At most 3 tests at a time: the suites are async, and instrumented code
# runs several times slower, so all of them at once time out.
#
# Exits 0 when every test passed and ThreadSanitizer printed no warning;
# 1 when it printed any (their number is said, the log keeps them); the
# status of `swift test` when a test failed.
set -uo pipefail
cd "$(dirname "$0")/.."

filter=${TSAN_FILTER:-'DatabasePoolTests|DatabasePoolWaitingTests|AsyncGateTests|CheckpointTests|CloseTests|SharedResolvedNames|LayoutStoreConcurrencyTests|AsyncStoreTests|LayoutCacheTests|BatchPrecomputeTests|QueryResultTests|ExecutorTests|StoreConformanceTests|PostgresReadTests|ThreadPoolExecutorTests|MemoryAnswerTests|StoreSlotTests|ListingTests|EquivalentNameStoreTests|StoreCacheTests|FrameCarryTests|BatchWorkersTests|BatchChannelTests|HandOffTests|LockedTests|MergeTests|TileTests'}
mkdir -p .build-tsan
log=.build-tsan/tsan.log
start=$(date +%s)
# halt_on_error=0: every race is listed, not only the first.
TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0} \
    swift test --sanitize=thread --scratch-path .build-tsan --experimental-maximum-parallelization-width 3 --filter "$filter" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
warnings=$(grep -c "WARNING: ThreadSanitizer" "$log")
echo "tsan.sh: swift test exited with $status; $warnings ThreadSanitizer warnings; $(( $(date +%s) - start ))s (log: $log)"
if [ "$warnings" -gt 0 ]; then
    grep -A3 "WARNING: ThreadSanitizer" "$log" | head -40
    exit 1
fi
exit "$status"
