import Locking
import CSQLite
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A database shared between threads: one writer connection, whose writes
/// are serialized, and up to `maximumReaderCount` read-only connections, opened on
/// demand and reused. The file is in WAL mode, so reads never wait for the writer
/// and the writer never waits for reads.
///
/// The writer is opened by the caller's `openWriter`, where a layer above
/// checks and migrates the file before the pool uses it.
///
/// Readers keep their WAL snapshot between reads while nothing is committed
/// (see `DatabasePool+Snapshots.swift`).
///
/// Both `read` and `write` run their closure synchronously on the calling thread.
/// Do not call `write` from inside `write`: the lock is not recursive, and the
/// process traps (a precondition names the mistake) instead of deadlocking. A `read`
/// inside a `write` works but does not see the uncommitted changes; a `read` inside
/// a `read` takes a second reader (and waits forever if none can be opened).
package final class DatabasePool: Sendable {
    /// Settings of a pool.
    package struct Configuration: Sendable {
        /// The most read-only connections open at once; more concurrent `read`
        /// calls wait for one to be free.
        package var maximumReaderCount: Int
        /// Settings of every connection of the pool.
        package var connection: Connection.Options
        /// Seconds an idle reader keeps its read snapshot, so that the next
        /// read on it begins no transaction when nothing was committed
        /// meanwhile; 0 ends every read's transaction. A kept snapshot stops
        /// other connections' checkpoints from resetting the WAL, hence short.
        package var snapshotIdleLifetime: Double
        /// Whether the pool only reads: its `openWriter` opens the file
        /// read-only (readers then open it the same way as it),
        /// and nothing checkpoints it at close.
        package var readOnly = false

        package init(
            maximumReaderCount: Int = 4,
            connection: Connection.Options = Connection.Options(),
            snapshotIdleLifetime: Double = 0.05
        ) {
            precondition(maximumReaderCount >= 1, "a pool needs at least one reader")
            self.maximumReaderCount = maximumReaderCount
            self.connection = connection
            self.snapshotIdleLifetime = max(0, snapshotIdleLifetime)
        }
    }

    /// The database file.
    package let path: String
    /// The settings given at open.
    package let configuration: Configuration

    /// A connection and what the pool knows of it. The pool hands each to
    /// one thread at a time: the writer under `writer`'s lock, a reader
    /// after taking it from `idle` (under `idle`'s lock) until it puts it
    /// back there.
    final class Slot {
        let connection: Connection
        /// The WAL-index header read just before this reader's open read
        /// transaction began; nil when it has none.
        var snapshotStamp: WALIndexHeader.Stamp?
        /// When the reader last went back to the idle list.
        var idleSince = ContinuousClock.now
        /// The thread using this reader, or 0 while it is idle: read and
        /// written under `idle`'s lock only.
        var holder: UInt = 0
        init(_ connection: Connection) { self.connection = connection }
    }

    private let writer: Locked<Slot>
    /// Held by the write in flight, from `takeWriter()` to `releaseWriter()`:
    /// an async write's body may go on on another thread than the one that
    /// took it, which a mutex would not allow.
    private let writerPermit = DispatchSemaphore(value: 1)
    /// Set once by `close()`: reads and writes then fail with `closed`.
    private let isClosed = Atomic<Bool>(false)
    /// Callers of ``settledWALStamp()`` reading the header now: `close()`
    /// waits for them before closing the writer unmaps it.
    private let headerReaders = Atomic<Int>(0)
    /// The thread inside a synchronous `write`, or 0: a write inside a write traps.
    private let writerThread = Atomic<UInt>(0)
    /// The pool whose writer the current task's async write holds: its body
    /// may go on on other threads after it awaits, so it is told by its
    /// task, and a write inside it traps too.
    @TaskLocal private static var asyncWriter: ObjectIdentifier?
    let idle = Locked(IdleReaders())
    /// The shared-memory header that tells readers whether their snapshot is
    /// still the newest; nil when it cannot be mapped (every read then begins
    /// a new snapshot).
    package let walIndex: WALIndexHeader?
    /// Above zero while snapshots must not outlive a read (see
    /// `withoutHeldSnapshots(_:)`).
    let snapshotHoldsSuspended = Atomic<Int>(0)
    // Counts readers in use or openable: `read` waits here when all are busy.
    private let readerPermits: DispatchSemaphore

    /// Opens the database at `path`: `openWriter` opens the writer
    /// connection (read-only when `configuration.readOnly`) with the
    /// options it is given, and may check or migrate the file first.
    ///
    /// - Throws: what `openWriter` throws.
    package init(
        path: String, configuration: Configuration = Configuration(),
        openWriter: (_ path: String, _ options: Connection.Options) throws -> Connection
    ) throws {
        self.path = path
        var configuration = configuration
        let connection = try openWriter(path, configuration.connection)
        if configuration.readOnly {
            // Readers open the file the way the writer did.
            configuration.connection.readOnlyOpen = connection.readOnlyOpen ?? .shared
            walIndex = nil
        } else {
            // After the writer's open (and a migration), SQLite has mapped the index.
            walIndex = configuration.snapshotIdleLifetime > 0 ? WALIndexHeader(mappedBy: connection) : nil
        }
        self.configuration = configuration
        writer = Locked(Slot(connection))
        readerPermits = DispatchSemaphore(value: configuration.maximumReaderCount)
    }

    /// Runs `body` on the writer connection inside an IMMEDIATE transaction, committed
    /// when `body` returns and rolled back when it throws. Writes from all threads
    /// (of this pool) run one at a time; other processes wait up to the busy timeout.
    package func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { connection in
            try connection.transaction(.immediate) {
                defer { connection.resetActiveStatements() }
                return try body(connection)
            }
        }
    }

    /// `write(_:)` for an async body (one the caller runs on threads where
    /// it may block: the writer is this write's until the body ends,
    /// whichever thread that is on).
    package func write<T>(_ body: (Connection) async throws -> T) async throws -> T {
        let connection = try takeWriter(onThread: false)
        defer { releaseWriter() }
        return try await Self.$asyncWriter.withValue(ObjectIdentifier(self)) {
            try await connection.transaction(.immediate) {
                defer { connection.resetActiveStatements() }
                return try await body(connection)
            }
        }
    }

    /// Runs `body` on the writer connection with no transaction around it, for
    /// statements that cannot run inside one (VACUUM, `PRAGMA wal_checkpoint`) or
    /// that manage their own transactions.
    package func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { connection in
            defer { connection.resetActiveStatements() }
            return try body(connection)
        }
    }

    /// Runs `body` on a read-only connection inside a read transaction: every
    /// query in `body` sees the same committed state (one WAL snapshot), whatever
    /// the writer commits meanwhile, and that state includes every commit that
    /// finished, in any process, before `read` began.
    ///
    /// An idle reader keeps its snapshot while nothing is committed (see
    /// `Configuration.snapshotIdleLifetime`), so a warm read begins no
    /// transaction. `body` must not BEGIN or COMMIT itself.
    package func read<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let result = try withReader(waiting: true, { slot in try readInSnapshot(slot, body) }) else {
            preconditionFailure("a read that waits always gets a reader")
        }
        return result
    }

    /// Like `read`, but nil at once instead of waiting when every reader is
    /// in use: for callers that must not block (Swift concurrency's threads).
    package func readIfAvailable<T>(_ body: (Connection) throws -> T) throws -> T? {
        try withReader(waiting: false) { slot in try readInSnapshot(slot, body) }
    }

    private func readInSnapshot<T>(_ slot: Slot, _ body: (Connection) throws -> T) throws -> T {
        try renewSnapshot(of: slot)
        defer { finishRead(on: slot) }
        return try body(slot.connection)
    }

    /// Runs `body` on a reader taken from the idle list (or opened), waiting
    /// for one when all are in use, or answering nil then when `waiting` is false.
    private func withReader<T>(waiting: Bool, _ body: (Slot) throws -> T) throws -> T? {
        let thread = Self.currentThread()
        if readerPermits.wait(timeout: .now()) != .success {
            guard waiting else { return nil }
            // Every reader is taken: if this thread holds one, it would wait for itself.
            let holdsOne = idle.withLock { state in state.opened.contains { $0.holder == thread } }
            precondition(!holdsOne, "Tessera: a read was started inside another read on the same thread while every reader "
                + "connection is in use; it would wait forever. Finish the first read before starting another.")
            readerPermits.wait()
        }
        defer { readerPermits.signal() }
        guard !isClosed.load(ordering: .acquiring) else { throw closedError() }
        let slot = try idle.withLock { state in
            let slot = state.readers.popLast()
            slot?.holder = thread
            return slot
        } ?? openReader(for: thread)
        // Only this thread touches the slot until it is back on the idle list.
        defer { returnToIdle(slot) }
        return try body(slot)
    }

    private func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try takeWriter(onThread: true)
        defer { releaseWriter() }
        return try body(connection)
    }

    /// Takes the writer connection, waiting for the write in flight (on
    /// the calling thread: a write's caller runs where it may block); it is
    /// this caller's until `releaseWriter()`, whichever thread that runs on
    /// (`onThread`: the calling thread's, for a synchronous write).
    private func takeWriter(onThread: Bool) throws -> Connection {
        let thread = Self.currentThread()
        precondition(writerThread.load(ordering: .relaxed) != thread && Self.asyncWriter != ObjectIdentifier(self),
                     "Tessera: a write was started inside another write of the same store on the same thread; it would "
                     + "wait for itself. A progress callback or the body of a write must not write to the store.")
        writerPermit.wait()
        guard !isClosed.load(ordering: .acquiring) else {
            writerPermit.signal()
            throw closedError()
        }
        if onThread { writerThread.store(thread, ordering: .relaxed) }
        return writer.withLock { $0.connection }
    }

    private func releaseWriter() {
        writerThread.store(0, ordering: .relaxed)
        writerPermit.signal()
    }

    /// The WAL index's header when settled (``WALIndexHeader/settledStamp()``),
    /// read outside any read transaction; nil when there is no mapped
    /// header or once the pool is closed (the writer's close unmaps it).
    package func settledWALStamp() -> WALIndexHeader.Stamp? {
        guard let walIndex else { return nil }
        headerReaders.add(1, ordering: .sequentiallyConsistent)
        defer { headerReaders.subtract(1, ordering: .sequentiallyConsistent) }
        guard !isClosed.load(ordering: .sequentiallyConsistent) else { return nil }
        return walIndex.settledStamp()
    }

    /// Waits for the reads and writes in flight, closes every reader, then
    /// folds the WAL into the database file (a TRUNCATE checkpoint that
    /// waits at most `closingBusyTimeout` for other processes' readers)
    /// and closes the writer last: when no other connection has the file
    /// open, SQLite then removes the `-wal` and `-shm` files, and the
    /// database file alone is the whole database. Idempotent.
    package func close() {
        guard !isClosed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // A header read that began before the flag was set ends first (it
        // takes nanoseconds); any later one sees the flag.
        while headerReaders.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
        // Every permit taken: no read is in flight, and none starts.
        for _ in 0..<configuration.maximumReaderCount { readerPermits.wait() }
        let readers = idle.withLock { state in
            defer { state = IdleReaders() }
            return state.opened
        }
        for slot in readers {
            endSnapshot(of: slot)
            slot.connection.close()
        }
        for _ in 0..<configuration.maximumReaderCount { readerPermits.signal() }
        // The write in flight ends first.
        writerPermit.wait()
        defer { writerPermit.signal() }
        writer.withLock { slot in
            if !configuration.readOnly { slot.connection.checkpointBeforeClosing(busyTimeout: Self.closingBusyTimeout) }
            slot.connection.close()
        }
    }

    /// How long the checkpoint at `close()` waits for other processes'
    /// read transactions: they last microseconds, or are kept up to
    /// `snapshotIdleLifetime`; past it the WAL stays for their last closer.
    static let closingBusyTimeout = 0.2

    /// The calling thread's identity (never 0).
    static func currentThread() -> UInt {
        UInt(bitPattern: Int(bitPattern: pthread_self()))
    }

    /// The error of a read or write after `close()`.
    private func closedError() -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: "the database was closed", operation: .useAfterClose, path: path)
    }

    /// A new reader, held by `thread`.
    private func openReader(for thread: UInt) throws -> Slot {
        let slot = Slot(try Connection(path: path, mode: .readOnly, options: configuration.connection))
        slot.connection.remembersChangeCounter = true
        idle.withLock { state in
            slot.holder = thread
            state.opened.append(slot)
        }
        return slot
    }

    /// The idle readers, and whether a release of their snapshots is due.
    struct IdleReaders {
        var readers: [Slot] = []
        var releaseScheduled = false
        /// Every reader opened, idle or not, to find whether a thread holds
        /// one when none is free (a read inside a read would wait for itself).
        var opened: [Slot] = []
    }
}
