import Locking
import CSQLite
import Synchronization

/// A database shared between threads: one writer connection, whose writes
/// are serialized, and read-only connections opened on demand and reused,
/// one per thread reading at once. The file is in WAL mode, so reads never
/// wait for the writer and the writer never waits for reads.
///
/// The writer is opened by the caller's `openWriter`, where a layer above
/// checks and migrates the file before the pool uses it.
///
/// Readers keep their WAL snapshot between reads while nothing is committed
/// (see `DatabasePool+Snapshots.swift`).
///
/// Nothing in the pool waits on a lock held across work: async writes wait
/// for the writer in an `AsyncGate`, a synchronous write that finds it taken
/// writes on a connection of its own (SQLite's busy timeout then orders the
/// two), and a read that finds no idle reader opens one. Do not call `write`
/// from inside `write`: the process traps (a precondition names the mistake)
/// instead of deadlocking. A `read` inside a `write` works but does not see
/// the uncommitted changes; a `read` inside a `read` takes a second reader.
package final class DatabasePool: Sendable {
    /// Settings of a pool.
    package struct Configuration: Sendable {
        /// The readers `readIfAvailable` opens at most; `read`, which runs
        /// where it may block, opens one more whenever none is idle.
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
    /// one thread at a time: the writer to the write `writerGate` let
    /// through, a reader after taking it from `idle` (under `idle`'s lock)
    /// until it puts it back there.
    final class Slot {
        let connection: Connection
        /// The WAL-index header read just before this reader's open read
        /// transaction began; nil when it has none.
        var snapshotStamp: WALIndexHeader.Stamp?
        /// When the reader last went back to the idle list.
        var idleSince = ContinuousClock.now
        init(_ connection: Connection) { self.connection = connection }
    }

    private let writer: Locked<Slot>
    /// Lets one write at a time use `writer`: an async write's body may go
    /// on on another thread than the one that took it, which a mutex would
    /// not allow.
    private let writerGate = AsyncGate(width: 1)
    /// Twice the reads, writes and header reads in flight, plus one once
    /// `close()` was called: then nothing new starts, and whoever brings it
    /// to 1 (`close()` itself when idle) closes the connections.
    private let usage = Atomic<Int>(0)
    /// The pool whose writer the current task or thread writes with, sync
    /// or async (an async write's body may go on on other threads after it
    /// awaits): a write inside it traps instead of waiting for itself.
    @TaskLocal private static var writing: ObjectIdentifier?
    let idle = Locked(IdleReaders())
    /// The shared-memory header that tells readers whether their snapshot is
    /// still the newest; nil when it cannot be mapped (every read then begins
    /// a new snapshot).
    package let walIndex: WALIndexHeader?
    /// Above zero while snapshots must not outlive a read (see
    /// `withoutHeldSnapshots(_:)`).
    let snapshotHoldsSuspended = Atomic<Int>(0)

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
    }

    /// Runs `body` on the writer connection inside an IMMEDIATE transaction, committed
    /// when `body` returns and rolled back when it throws. While an async write holds
    /// the writer, it runs on a connection of its own, which waits for that
    /// write up to the busy timeout, as other processes' writes do.
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
        try enter()
        defer { leave() }
        refuseNestedWrite()
        return try await writerGate.pass {
            let connection = writer.withLock { $0.connection }
            return try await Self.$writing.withValue(ObjectIdentifier(self)) {
                try await connection.transaction(.immediate) {
                    defer { connection.resetActiveStatements() }
                    return try await body(connection)
                }
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
        guard let result = try withReader(openingBeyondMaximum: true, { slot in try readInSnapshot(slot, body) }) else {
            preconditionFailure("a read that may open a reader always gets one")
        }
        return result
    }

    /// Like `read`, but nil at once when no reader is idle and
    /// `maximumReaderCount` are open: for callers that must not block
    /// (Swift concurrency's threads), which then read where they may.
    package func readIfAvailable<T>(_ body: (Connection) throws -> T) throws -> T? {
        try withReader(openingBeyondMaximum: false) { slot in try readInSnapshot(slot, body) }
    }

    private func readInSnapshot<T>(_ slot: Slot, _ body: (Connection) throws -> T) throws -> T {
        try renewSnapshot(of: slot)
        defer { finishRead(on: slot) }
        return try body(slot.connection)
    }

    /// Runs `body` on a reader taken from the idle list, or opened when
    /// none is idle (with fewer than `maximumReaderCount` open, or
    /// `openingBeyondMaximum`); nil when none may be opened.
    private func withReader<T>(openingBeyondMaximum: Bool, _ body: (Slot) throws -> T) throws -> T? {
        try enter()
        defer { leave() }
        let taken = idle.withLock { state -> (slot: Slot?, opens: Bool) in
            if let slot = state.readers.popLast() { return (slot, false) }
            guard openingBeyondMaximum || state.openCount < configuration.maximumReaderCount else { return (nil, false) }
            state.openCount += 1
            return (nil, true)
        }
        let slot: Slot
        if let idleSlot = taken.slot {
            slot = idleSlot
        } else if taken.opens {
            slot = try openReader()
        } else {
            return nil
        }
        // Only this thread touches the slot until it is back on the idle list.
        defer { returnToIdle(slot) }
        return try body(slot)
    }

    /// Runs `body` on the writer when no async write holds it, else on a
    /// connection of its own that SQLite makes wait for that write.
    private func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try enter()
        defer { leave() }
        refuseNestedWrite()
        return try Self.$writing.withValue(ObjectIdentifier(self)) {
            if let onWriter = try writerGate.passIfFree({ try body(writer.withLock { $0.connection }) }) { return onWriter }
            let connection = try Connection(
                path: path, mode: configuration.readOnly ? .readOnly : .readWriteCreate, options: configuration.connection)
            defer { connection.close() }
            return try body(connection)
        }
    }

    /// Traps on a write begun inside a write of this pool on the same
    /// thread or task: it would wait for itself.
    private func refuseNestedWrite() {
        precondition(Self.writing != ObjectIdentifier(self),
                     "Tessera: a write was started inside another write of the same store on the same thread; it would "
                     + "wait for itself. A progress callback or the body of a write must not write to the store.")
    }

    /// The WAL index's header when settled (``WALIndexHeader/settledStamp()``),
    /// read outside any read transaction; nil when there is no mapped
    /// header or once the pool is closed (the writer's close unmaps it).
    package func settledWALStamp() -> WALIndexHeader.Stamp? {
        guard let walIndex, (try? enter()) != nil else { return nil }
        defer { leave() }
        return walIndex.settledStamp()
    }

    /// Closes the pool: reads and writes begun after it fail with `closed`.
    /// Once those in flight have ended (at once when none is), every reader
    /// is closed, the WAL folded into the database file (a TRUNCATE
    /// checkpoint that waits at most `closingBusyTimeout` for other
    /// processes' readers) and the writer closed last: when no other
    /// connection has the file open, SQLite then removes the `-wal` and
    /// `-shm` files, and the database file alone is the whole database.
    /// Idempotent.
    package func close() {
        if usage.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue == 0 { closeConnections() }
    }

    /// Counts a read, write or header read in, unless the pool is closed.
    private func enter() throws {
        var current = usage.load(ordering: .relaxed)
        while true {
            guard current & 1 == 0 else { throw closedError() }
            let (exchanged, original) = usage.weakCompareExchange(expected: current, desired: current + 2, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Counts it out; the last one out of a closed pool closes it.
    private func leave() {
        if usage.subtract(2, ordering: .acquiringAndReleasing).newValue == 1 { closeConnections() }
    }

    /// Runs once, when the pool is closed and nothing is in flight: every
    /// reader is idle then, and no write holds the writer.
    private func closeConnections() {
        let readers = idle.withLock { state in
            defer { state = IdleReaders() }
            return state.readers
        }
        for slot in readers {
            endSnapshot(of: slot)
            slot.connection.close()
        }
        writer.withLock { slot in
            if !configuration.readOnly { slot.connection.checkpointBeforeClosing(busyTimeout: Self.closingBusyTimeout) }
            slot.connection.close()
        }
    }

    /// How long the checkpoint at `close()` waits for other processes'
    /// read transactions: they last microseconds, or are kept up to
    /// `snapshotIdleLifetime`; past it the WAL stays for their last closer.
    static let closingBusyTimeout = 0.2

    /// The error of a read or write after `close()`.
    private func closedError() -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: "the database was closed", operation: .useAfterClose, path: path)
    }

    /// A new reader, already counted in `openCount`.
    private func openReader() throws -> Slot {
        do {
            let slot = Slot(try Connection(path: path, mode: .readOnly, options: configuration.connection))
            slot.connection.remembersChangeCounter = true
            return slot
        } catch {
            idle.withLock { $0.openCount -= 1 }
            throw error
        }
    }

    /// The idle readers, how many are open, and whether a release of
    /// their snapshots is due.
    struct IdleReaders {
        var readers: [Slot] = []
        var openCount = 0
        var releaseScheduled = false
    }
}
