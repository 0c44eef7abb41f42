import Foundation
import Synchronization
import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit

/// The pool has no lock held across work: a read that finds no idle reader
/// opens one, a synchronous write that finds the writer taken writes on a
/// connection of its own, and `close()` lets the work in flight finish.
@Suite("database pool: nothing waits on a lock")
struct DatabasePoolWaitingTests {
    @Test("a read inside a read opens a second reader; readIfAvailable answers nil only when the maximum is open and busy")
    func readInsideRead() throws {
        let directory = try TemporaryDirectory("read-in-read")
        let pool = try DatabasePool(path: directory.file("store.sqlite"), configuration: .init(maximumReaderCount: 1))
        try pool.write { try $0.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (7)") }
        let answers = try pool.read { outer -> [Int?] in
            // The one reader allowed is busy: the inner read opens a second.
            let inner = try pool.read { inner -> [Int?] in
                [try inner.int("SELECT v FROM t"), try pool.readIfAvailable { try $0.int("SELECT v FROM t") }]
            }
            // The inner reader is idle again: a read in place takes it.
            let inPlace = try pool.readIfAvailable { try $0.int("SELECT v FROM t") }
            return [try outer.int("SELECT v FROM t")] + inner + [inPlace]
        }
        #expect(answers == [7, 7, nil, 7])
        // Both readers are idle now: the next read in place takes one.
        #expect(try pool.readIfAvailable { try $0.int("SELECT v FROM t") } == 7)
    }

    @Test("a synchronous write while an async write holds the writer waits for it, then commits after it")
    func synchronousWriteBesideAsyncWrite() async throws {
        let directory = try TemporaryDirectory("sync-beside-async")
        // A long busy timeout: under the whole suite's load the async write's
        // task may resume seconds late, and the synchronous write must outwait it.
        let pool = try DatabasePool(path: directory.file("store.sqlite"), configuration: .init(connection: .init(busyTimeout: 120)))
        try pool.write { try $0.execute("CREATE TABLE t (who TEXT)") }
        let inside = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let asyncWrite = Task {
            try await pool.write { connection in
                try connection.execute("INSERT INTO t VALUES ('async')")
                inside.store(true, ordering: .releasing)
                while !release.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
        while !inside.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
        let started = ContinuousClock.now
        let synchronous = Thread.detachedResult {
            try pool.write { try $0.execute("INSERT INTO t VALUES ('sync')") }
        }
        try await Task.sleep(for: .milliseconds(300))
        release.store(true, ordering: .releasing)
        try await asyncWrite.value
        try await synchronous.value()
        #expect(ContinuousClock.now - started >= .milliseconds(250), "the synchronous write should have waited")
        let order = try pool.read { connection -> String in
            let statement = try connection.prepare("SELECT group_concat(who, ',') FROM t")
            return try statement.step() ? statement.text(at: 0) : ""
        }
        #expect(order == "async,sync")
    }

    @Test("close() during a read returns at once; the read finishes, later calls fail with closed, and the last one out leaves one file")
    func closeDuringRead() async throws {
        let directory = try TemporaryDirectory("close-during-read")
        let path = directory.file("store.sqlite")
        let pool = try DatabasePool(path: path)
        try pool.write { try $0.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (3)") }
        let reading = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let read = Thread.detachedResult {
            try pool.read { connection -> Int in
                reading.store(true, ordering: .releasing)
                while !release.load(ordering: .acquiring) { usleep(1_000) }
                return try connection.int("SELECT v FROM t")
            }
        }
        while !reading.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(2)) }
        pool.close()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the read in flight still holds the file")
        #expect(throws: SQLiteError.self) { try pool.read { _ in } }
        #expect(throws: SQLiteError.self) { try pool.write { _ in } }
        await #expect(throws: SQLiteError.self) { try await pool.write { _ in } }
        #expect(pool.settledWALStamp() == nil)
        release.store(true, ordering: .releasing)
        #expect(try await read.value() == 3)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        pool.close()
    }
}

/// A thread's result, awaited without holding a thread of Swift concurrency.
final class ThreadResult<T: Sendable>: Sendable {
    private let state = Mutex<(Result<T, any Error>?, CheckedContinuation<T, any Error>?)>((nil, nil))

    fileprivate func finish(_ result: Result<T, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<T, any Error>? in
            state.0 = result
            return state.1
        }
        waiting?.resume(with: result)
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { state -> Result<T, any Error>? in
                if state.0 == nil { state.1 = continuation }
                return state.0
            }
            if let result { continuation.resume(with: result) }
        }
    }
}

extension Thread {
    /// Runs `body` on a new thread, where it may block.
    static func detachedResult<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.finish(Result { try body() }) }
        return result
    }
}
