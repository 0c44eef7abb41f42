import Dispatch
import Foundation
import Locking
import Synchronization
import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("database pool and concurrency")
struct DatabasePoolTests {
    @Test("a read keeps its snapshot while the writer commits; the next read sees the change")
    func snapshotIsolation() throws {
        let directory = try TemporaryDirectory("snapshot")
        let pool = try DatabasePool(path: directory.file("store.sqlite"))
        try pool.write { db in
            try db.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)")
        }
        try pool.read { db throws in
            #expect(try db.int("SELECT sum(v) FROM t") == 1)
            try pool.write { db in
                try db.execute("UPDATE t SET v = 2; INSERT INTO t VALUES (40)")
            }
            // Same read transaction: still the old snapshot.
            #expect(try db.int("SELECT sum(v) FROM t") == 1)
            #expect(try db.int("SELECT count(*) FROM t") == 1)
        }
        try pool.read { db throws in
            #expect(try db.int("SELECT sum(v) FROM t") == 42)
        }
    }

    /// The "busy" column of a TRUNCATE checkpoint: 1 when it could not finish.
    private func checkpointBusy(_ connection: Connection) throws -> Int {
        let checkpoint = try connection.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try checkpoint.step())
        return checkpoint.int(at: 0)
    }

    private func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    @Test("an idle reader keeps its snapshot until anyone commits; the next read then sees the commit")
    func keptSnapshotRenewedByAnyCommit() throws {
        let directory = try TemporaryDirectory("kept-snapshot")
        let path = directory.file("store.sqlite")
        // Long enough that no release happens during the test.
        let pool = try DatabasePool(path: path, configuration: .init(maximumReaderCount: 1, snapshotIdleLifetime: 60))
        #expect(pool.walIndex != nil)
        try pool.write { db in try db.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)") }
        #expect(try pool.read { try $0.int("SELECT sum(v) FROM t") } == 1)
        #expect(pool.idleSnapshotCount == 1)
        #expect(try pool.read { try $0.int("SELECT sum(v) FROM t") } == 1)

        // A commit by this pool's writer.
        try pool.write { db in try db.execute("INSERT INTO t VALUES (10)") }
        #expect(try pool.read { try $0.int("SELECT sum(v) FROM t") } == 11)
        // A commit by a connection that is not the pool's, as another process's.
        let other = try Connection(path: path)
        try other.execute("INSERT INTO t VALUES (100)")
        #expect(try pool.read { try $0.int("SELECT sum(v) FROM t") } == 111)
        try other.execute("DELETE FROM t")
        #expect(try pool.read { try $0.int("SELECT count(*) FROM t") } == 0)
        #expect(pool.idleSnapshotCount == 1)
    }

    @Test("kept snapshots are given up after the idle lifetime, so another connection can reset the WAL")
    func idleSnapshotsReleased() throws {
        let directory = try TemporaryDirectory("released-snapshot")
        let path = directory.file("store.sqlite")
        // A lifetime a loaded machine does not pass between the read and the first checkpoint below.
        let pool = try DatabasePool(path: path, configuration: .init(snapshotIdleLifetime: 1))
        try pool.write { db in try db.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)") }
        let other = try Connection(path: path, options: Connection.Options(busyTimeout: 0))
        try other.execute("INSERT INTO t VALUES (2)")
        #expect(try pool.read { try $0.int("SELECT sum(v) FROM t") } == 3)
        #expect(pool.idleSnapshotCount == 1)
        // While the snapshot is kept, a TRUNCATE checkpoint cannot finish (busy = 1).
        #expect(try checkpointBusy(other) == 1)
        let deadline = Clock.monotonic() + 15
        while pool.idleSnapshotCount > 0 && Clock.monotonic() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(pool.idleSnapshotCount == 0)
        #expect(try checkpointBusy(other) == 0)
        #expect(fileSize(path + "-wal") == 0)
    }

    @Test("with no idle lifetime, or while the writer checkpoints, every read ends its transaction")
    func snapshotsNotKept() throws {
        let directory = try TemporaryDirectory("unkept-snapshot")
        let unkept = try DatabasePool(path: directory.file("a.sqlite"), configuration: .init(snapshotIdleLifetime: 0))
        try unkept.write { db in try db.execute("CREATE TABLE t (v INTEGER)") }
        #expect(try unkept.read { try $0.int("SELECT count(*) FROM t") } == 0)
        #expect(unkept.idleSnapshotCount == 0)

        let pool = try DatabasePool(path: directory.file("b.sqlite"), configuration: .init(snapshotIdleLifetime: 60))
        try pool.write { db in try db.execute("CREATE TABLE t (v INTEGER)") }
        #expect(try pool.read { try $0.int("SELECT count(*) FROM t") } == 0)
        #expect(pool.idleSnapshotCount == 1)
        try pool.withoutHeldSnapshots { () throws in
            #expect(pool.idleSnapshotCount == 0)
            #expect(try pool.read { try $0.int("SELECT count(*) FROM t") } == 0)
            #expect(pool.idleSnapshotCount == 0)
        }
    }

    @Test("readers on other threads see whole generations while the writer replaces the data")
    func noMixedReads() throws {
        let directory = try TemporaryDirectory("mixed")
        let pool = try DatabasePool(path: directory.file("store.sqlite"),
                                    configuration: .init(maximumReaderCount: 2))
        let rows = 500
        @Sendable func replace(with generation: Int) throws {
            try pool.write { db in
                try db.execute("DELETE FROM t")
                let insert = try db.cachedStatement("INSERT INTO t (generation, i) VALUES (?, ?)")
                for i in 0..<rows {
                    try insert.bind(generation, i)
                    try insert.execute()
                }
            }
        }
        try pool.write { db in try db.execute("CREATE TABLE t (generation INTEGER, i INTEGER)") }
        try replace(with: 0)
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                if worker == 0 {
                    for generation in 1...30 { try replace(with: generation) }
                } else {
                    for _ in 0..<150 {
                        let (count, low, high) = try pool.read { db in
                            let statement = try db.cachedStatement(
                                "SELECT count(*), min(generation), max(generation) FROM t")
                            _ = try statement.step()
                            return (statement.int(at: 0), statement.int(at: 1), statement.int(at: 2))
                        }
                        if count != rows || low != high {
                            problems.withLock { $0.append("saw \(count) rows of generations \(low)...\(high)") }
                        }
                    }
                }
            } catch {
                problems.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        let seen = problems.withLock { $0 }
        #expect(seen.isEmpty, "\(seen.count) bad reads, first: \(seen.prefix(5))")
        #expect(try pool.read { try $0.int("SELECT min(generation) FROM t") } == 30)
    }

    @Test("two connections (as two processes) writing one file: the second waits, then succeeds")
    func busyTimeoutWaits() throws {
        let directory = try TemporaryDirectory("busy")
        let path = directory.file("store.sqlite")
        _ = try Migrator().openDatabase(at: path)
        let setup = try Connection(path: path)
        try setup.execute("CREATE TABLE t (who TEXT)")

        let (held, elapsed) = try writeWhileAnotherConnectionHoldsTheLock(
            path: path, holdFor: 0.3, options: Connection.Options())
        #expect(held == nil)
        #expect(elapsed >= 0.2, "the second writer should have waited for the first")
        #expect(try setup.int("SELECT count(*) FROM t") == 2)
        let order = try setup.prepare("SELECT group_concat(who, ',') FROM t")
        #expect(try order.step() && order.text(at: 0) == "first,second")
    }

    @Test("without a busy timeout the second writer fails with SQLITE_BUSY")
    func noBusyTimeoutFails() throws {
        let directory = try TemporaryDirectory("busy0")
        let path = directory.file("store.sqlite")
        _ = try Migrator().openDatabase(at: path)
        try Connection(path: path).execute("CREATE TABLE t (who TEXT)")
        let (error, _) = try writeWhileAnotherConnectionHoldsTheLock(
            path: path, holdFor: 0.3, options: Connection.Options(busyTimeout: 0))
        #expect(error?.isBusy == true)
    }

    /// Thread A opens its own connection, takes the write lock (BEGIN IMMEDIATE) and
    /// holds it for `holdFor` seconds; meanwhile this thread's connection runs its own
    /// IMMEDIATE transaction. Returns the second writer's error (if any) and how long
    /// it took.
    private func writeWhileAnotherConnectionHoldsTheLock(
        path: String, holdFor: Double, options: Connection.Options
    ) throws -> (SQLiteError?, Double) {
        let locked = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let firstError = Mutex<String?>(nil)
        Thread.detachNewThread {
            do {
                let first = try Connection(path: path)
                try first.transaction(.immediate) {
                    try first.execute("INSERT INTO t VALUES ('first')")
                    locked.signal()
                    Thread.sleep(forTimeInterval: holdFor)
                }
            } catch {
                firstError.withLock { $0 = "\(error)" }
                locked.signal()
            }
            done.signal()
        }
        locked.wait()
        let second = try Connection(path: path, options: options)
        let start = DispatchTime.now()
        var secondError: SQLiteError?
        do {
            try second.transaction(.immediate) { try second.execute("INSERT INTO t VALUES ('second')") }
        } catch let error as SQLiteError {
            secondError = error
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        done.wait()
        #expect(firstError.withLock { $0 } == nil)
        return (secondError, elapsed)
    }
}
