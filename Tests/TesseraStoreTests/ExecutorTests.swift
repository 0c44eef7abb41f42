import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TesseraLayout
import TesseraSQLite
@testable import TesseraStore
import TesseraPrecompute

/// The one executor a store runs its blocking work on, handed in by its opener.
@Suite("store: an injected executor runs the store's blocking work", .timeLimit(.minutes(1)))
struct ExecutorTests {
    /// Counts the jobs it runs, on threads of its own.
    final class CountingExecutor: BlockingExecutor {
        let threads = StoreThreads(threads: 2, backgroundThreads: 1)
        let jobs = Mutex(0)
        let backgroundJobs = Mutex(0)

        func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            jobs.withLock { $0 += 1 }
            return try await threads.run(body)
        }

        func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            backgroundJobs.withLock { $0 += 1 }
            return try await threads.runInBackground(body)
        }

        /// Parts of async work that may block (a write's body) run here.
        let submitted = Mutex(0)

        func submit(_ work: @escaping @Sendable () -> Void) {
            submitted.withLock { $0 += 1 }
            threads.submit(work)
        }
    }

    @Test("async writes and computations run on the executor given to LayoutStore(path:executor:), a computation in the background")
    func injected() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-executor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let executor = CountingExecutor()
        let store = try LayoutStore(path: directory.appendingPathComponent("s.sqlite").path, executor: executor)
        defer { store.close() }
        _ = try await store.save(AsyncStoreTests.grid(), as: "feed", crossExtents: [300])
        // One job that finds the executor running, then the write's body on its threads.
        #expect(executor.jobs.withLock { $0 } == 1)
        #expect(executor.submitted.withLock { $0 } >= 1)
        #expect(executor.backgroundJobs.withLock { $0 } == 0)
        guard case .found(_, true) = try await store.query(.viewport(Rect(x: 0, y: 0, width: 300, height: 300)), name: "feed", crossExtent: 310) else {
            Issue.record("the missing layout was not computed")
            return
        }
        #expect(executor.backgroundJobs.withLock { $0 } == 1)
        let report = try await store.saveBatch([try AsyncStoreTests.grid()].map { var spec = $0; spec.name = "other"; return spec }, crossExtents: [300])
        #expect(report.saved == 1)
        // The batch's reading and writing stages both ran their work on it.
        #expect(executor.jobs.withLock { $0 } >= 3)
    }

    @Test("the store's own threads run background work at nice value 10, the rest as the process")
    func backgroundPriority() async throws {
        #if os(Linux)
        @Sendable func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        let threads = StoreThreads(threads: 2, backgroundThreads: 1)
        let process = niceness()
        let computing = try await threads.runInBackground(niceness)
        let answering = try await threads.run(niceness)
        let submitted = await withCheckedContinuation { continuation in threads.submit { continuation.resume(returning: niceness()) } }
        #expect(computing == 10)
        #expect(answering == process && submitted == process)
        #endif
    }

    @Test("the store's own threads run as many jobs at once as they have threads, the others in order after them")
    func width() async throws {
        let threads = StoreThreads(threads: 2, backgroundThreads: 1)
        let running = Locked((now: 0, most: 0, order: [Int]()))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for job in 0..<6 {
                group.addTask {
                    try await threads.run {
                        running.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.order.append(job) }
                        // Blocks its thread: the next job needs another one.
                        usleep(30_000)
                        running.withLock { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        let observed = running.withLock { $0 }
        #expect(observed.most == 2)
        #expect(observed.order.sorted() == Array(0..<6))
    }

    @Test("a job runs while every thread of Swift concurrency's cooperative pool is blocked")
    func offTheCooperativePool() async throws {
        let threads = StoreThreads(threads: 1, backgroundThreads: 1)
        let width = ProcessInfo.processInfo.activeProcessorCount
        let started = Locked(0)
        let released = Locked(false)
        // Every cooperative thread blocked (at most 5 s each wait) until the
        // job runs: submitted once all are blocked, it can only run elsewhere.
        let blockers = (0..<width).map { index in
            Task.detached { () -> Bool in
                started.withLock { $0 += 1 }
                var begin = ContinuousClock.now
                func waiting(_ condition: () -> Bool) -> Bool { condition() && ContinuousClock.now - begin < .seconds(5) }
                if index == 0 {
                    // Under load the others may start late: the job's own wait has its 5 s after.
                    while waiting({ started.withLock { $0 } < width }) { usleep(1_000) }
                    threads.submit { released.withLock { $0 = true } }
                    begin = ContinuousClock.now
                }
                while waiting({ !released.withLock { $0 } }) { usleep(1_000) }
                return released.withLock { $0 }
            }
        }
        var allReleased = true
        for blocker in blockers { allReleased = await blocker.value && allReleased }
        #expect(allReleased, "the job waited for a cooperative thread")
    }
}
