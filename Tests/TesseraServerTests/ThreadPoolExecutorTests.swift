import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NIOPosix
import Synchronization
import Testing
import TesseraHummingbird
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// NIO's thread pool as a store's executor (what `tessera-server` hands its store).
@Suite("server: NIO's thread pool runs the store's blocking work", .timeLimit(.minutes(2)))
struct ThreadPoolExecutorTests {
    /// A started pool of `threads`, shut down after `body`.
    static func withPool(threads: Int = 2, _ body: (NIOThreadPool) async throws -> Void) async throws {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        do {
            try await body(pool)
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
        try await pool.shutdownGracefully()
    }

    @Test("a store's writes and queries run on the pool's threads and answer as with the store's own threads")
    func storeOnPool() async throws {
        try await Self.withPool { pool in
            let executor = ThreadPoolExecutor(pool, background: pool)
            let name = try await executor.run { Thread.current.name ?? "" }
            #expect(name.hasPrefix("TP-"), "ran on \(name)")
            let fixture = try await ServerFixture()
            let store = try LayoutStore(path: fixture.directory.appendingPathComponent("pool.sqlite").path, executor: executor)
            defer { store.close() }
            try await store.save(try Spec(jsonText: ServerFixture.feed), as: "feed", crossExtents: [390])
            // 430 is computed on the background pool by the query.
            for (extent, viewport) in [(390.0, Rect(x: 0, y: 600, width: 390, height: 844)), (430, Rect(x: 0, y: 0, width: 430, height: 900))] {
                let onPool = try await store.visibleElements(name: "feed", crossExtent: extent, viewport: viewport)
                let expected = try await fixture.store.visibleElements(name: "feed", crossExtent: extent, viewport: viewport)
                #expect(onPool == expected)
                #expect(onPool.count > 10)
            }
        }
    }

    @Test("background work on a pool of its own runs at nice value 10; on the one pool, as the process")
    func backgroundPriority() async throws {
        try await Self.withPool(threads: 1) { pool in
            try await Self.withPool(threads: 1) { background in
                @Sendable func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
                let own = ThreadPoolExecutor(pool, background: background)
                let computing = try await own.runInBackground(niceness)
                let answering = try await own.run(niceness)
                let shared = try await ThreadPoolExecutor(pool).runInBackground(niceness)
                #expect(computing == 10 && answering == 0 && shared == 0)
            }
        }
    }

    @Test("a pool that is not running runs nothing: the store's calls throw closed")
    func poolNotRunning() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        let fixture = try await ServerFixture()
        let store = try LayoutStore(path: fixture.directory.appendingPathComponent("idle.sqlite").path, executor: ThreadPoolExecutor(pool))
        defer { store.close() }
        do {
            try await store.save(try Spec(jsonText: ServerFixture.feed), as: "feed", crossExtents: [390])
            Issue.record("a save ran without a thread")
        } catch let error as StoreError {
            #expect(error.code == .closed)
        }
        #expect(try await store.specs().isEmpty, "nothing was written")
    }

    @Test("work whose task is cancelled before a thread takes it never runs and throws cancelled")
    func cancelledBeforeRun() async throws {
        try await Self.withPool(threads: 1) { pool in
            let executor = ThreadPoolExecutor(pool)
            let busy = DispatchSemaphore(value: 0)
            let started = DispatchSemaphore(value: 0)
            let occupying = Task { try await executor.run { started.signal(); busy.wait() } }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { started.wait(); continuation.resume() }
            }
            let ran = Atomic<Bool>(false)
            let waiting = Task { try await executor.run { ran.store(true, ordering: .relaxed) } }
            waiting.cancel()
            busy.signal()
            try await occupying.value
            do {
                try await waiting.value
                Issue.record("cancelled work ran")
            } catch let error as StoreError {
                #expect(error.code == .cancelled)
            }
            let workRan = ran.load(ordering: .relaxed)
            #expect(!workRan)
        }
    }
}
