import Foundation
import Synchronization
import Testing
import TesseraLayout
import TesseraSQLite
@testable import TesseraStore

/// The one executor a store runs its blocking work on, handed in by its opener.
@Suite("store: an injected executor runs the store's blocking work")
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
}
