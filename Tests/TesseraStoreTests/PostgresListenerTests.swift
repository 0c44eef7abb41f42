import Dispatch
import Foundation
import Locking
import Testing
import TesseraLayout
@_spi(Testing) import TesseraPostgres
import TesseraTestSupport
@testable import TesseraStore

/// The connection that listens for commits (`freshness=notified`) comes
/// back by itself after it was lost, whatever the application does with
/// Swift concurrency's cooperative threads.
@Suite("store: PostgreSQL listener reconnects")
struct PostgresListenerTests {
    @Test("a lost listener reconnects while every thread of the cooperative pool is blocked")
    func reconnectsWithThePoolBlocked() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        // In a process of its own: it blocks that process's cooperative pool.
        await #expect(processExitsWith: .success) { [url = url as String] in
            // A hang ends the process after 120 s instead of the whole run, its exit
            // status the step it hung in: 10 the store, 11 the pool, 12 ending the
            // listener, 13 waiting for it to be lost, 14 waiting for it to come back.
            let step = Locked<Int32>(10)
            Thread.detachNewThread {
                sleep(120)
                exit(step.withLock { $0 })
            }
            let writer = try await LayoutStore(url: url)
            try await writer.save(try PostgresReadTests.spec(), as: "feed", crossExtents: [390])
            let reader = try await PostgresReadTests.notified(writer)
            let near = PostgresReadTests.viewport(at: 1000)
            _ = try await PostgresReadTests.counted(reader, near)
            guard try await PostgresReadTests.counted(reader, near).statements == 0 else { exit(2) }

            // Every thread the pool has, and the ones it adds for blocked
            // ones, blocked until the end (this test's own included, once
            // the test goes on on threads of its own below).
            step.withLock { $0 = 11 }
            let release = DispatchSemaphore(value: 0)
            let blocked = Locked(0)
            for _ in 0..<64 {
                Task.detached {
                    blocked.withLock { $0 += 1 }
                    release.wait()
                }
            }
            usleep(500_000)
            // The queries are async: the test goes on on threads that are
            // not the pool's (every one of which is blocked), as the task
            // executor of the reads and of what follows them.
            try await withTaskExecutorPreference(StoreThreads()) {
                step.withLock { $0 = 12 }
                let schema = try PostgresURL(parsing: writer.location).schema
                try await writer.executePostgres("""
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE query = 'LISTEN tessera_' || (SELECT oid FROM pg_namespace WHERE nspname = '\(schema)')::text
                    """)
                // Lost: warm queries read the layout's row.
                step.withLock { $0 = 13 }
                var lost = false
                for _ in 0..<500 where !lost {
                    lost = try await PostgresReadTests.counted(reader, near).statements == 1
                    usleep(10_000)
                }
                guard lost else { exit(3) }
                // About a second later it listens again: warm queries send nothing.
                step.withLock { $0 = 14 }
                var back = false
                for _ in 0..<1_000 where !back {
                    back = try await PostgresReadTests.counted(reader, near).statements == 0
                    usleep(10_000)
                }
                let startedBlocked = blocked.withLock { $0 }
                // Some of the 64 never started: the pool was full.
                guard startedBlocked < 64 else { exit(4) }
                exit(back ? 0 : 5)
            }
        }
    }
}
