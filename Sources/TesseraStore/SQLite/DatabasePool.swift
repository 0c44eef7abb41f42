import Dispatch
import Synchronization

/// A Tessera database shared between threads: one writer connection, whose writes
/// are serialized, and up to `maximumReaderCount` read-only connections, opened on
/// demand and reused. The file is in WAL mode, so reads never wait for the writer
/// and the writer never waits for reads.
///
/// Opening migrates the file to the current schema (see `Migrator`), refusing
/// files that are not Tessera stores without changing them.
///
/// Both `read` and `write` run their closure synchronously on the calling thread.
/// Do not call `write` from inside `write`: the lock is not recursive and the
/// process traps ("Recursive call to lock Mutex") instead of deadlocking. A `read`
/// inside a `write` works but does not see the uncommitted changes; a `read` inside
/// a `read` takes a second reader (and waits forever if none can be opened).
public final class DatabasePool: Sendable {
    /// Settings of a pool.
    public struct Configuration: Sendable {
        /// The most read-only connections open at once; more concurrent `read`
        /// calls wait for one to be free.
        public var maximumReaderCount: Int
        /// Settings of every connection of the pool.
        public var connection: Connection.Options

        public init(maximumReaderCount: Int = 4, connection: Connection.Options = Connection.Options()) {
            precondition(maximumReaderCount >= 1, "a pool needs at least one reader")
            self.maximumReaderCount = maximumReaderCount
            self.connection = connection
        }
    }

    /// The database file.
    public let path: String
    /// The settings given at open.
    public let configuration: Configuration

    // Connections are not Sendable; the pool hands each to one thread at a time
    // (the writer under `writer`'s lock, a reader after taking it from `idleReaders`),
    // which is the guarantee `Sendable` asks for.
    private final class Slot: @unchecked Sendable {
        let connection: Connection
        init(_ connection: Connection) { self.connection = connection }
    }

    private let writer: Mutex<Slot>
    private let idleReaders = Mutex<[Slot]>([])
    // Counts readers in use or openable: `read` waits here when all are busy.
    private let readerPermits: DispatchSemaphore

    /// Opens (creating if needed) and migrates the Tessera database at `path`.
    ///
    /// - Throws: `StoreError` when the file is refused (it is then left untouched),
    ///   `SQLiteError` when SQLite fails.
    public init(path: String, configuration: Configuration = Configuration(), migrator: Migrator = Migrator()) throws {
        self.path = path
        self.configuration = configuration
        let connection = try migrator.openDatabase(at: path, options: configuration.connection)
        writer = Mutex(Slot(connection))
        readerPermits = DispatchSemaphore(value: configuration.maximumReaderCount)
    }

    /// Runs `body` on the writer connection inside an IMMEDIATE transaction, committed
    /// when `body` returns and rolled back when it throws. Writes from all threads
    /// (of this pool) run one at a time; other processes wait up to the busy timeout.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { connection in
            try connection.transaction(.immediate) {
                defer { connection.resetActiveStatements() }
                return try body(connection)
            }
        }
    }

    /// Runs `body` on the writer connection with no transaction around it, for
    /// statements that cannot run inside one (VACUUM, `PRAGMA wal_checkpoint`) or
    /// that manage their own transactions.
    public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { connection in
            defer { connection.resetActiveStatements() }
            return try body(connection)
        }
    }

    /// Runs `body` on a read-only connection inside a deferred transaction: every
    /// query in `body` sees the same committed state (one WAL snapshot, taken at the
    /// first read), whatever the writer commits meanwhile. The next `read` sees the
    /// writes committed before it began.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try withReader { connection in
            try connection.transaction(.deferred) {
                // An unfinished SELECT would keep the snapshot past the transaction.
                defer { connection.resetActiveStatements() }
                return try body(connection)
            }
        }
    }

    /// Runs `body` on a read-only connection without BEGIN and COMMIT, which
    /// cost a short query about as much as the query itself. SQLite keeps a
    /// connection's implicit read transaction, and so its WAL snapshot, while
    /// any statement is unfinished: `body` reads from one snapshot as long as
    /// the first statement it steps stays unfinished (not reset, not done)
    /// until its last read. Every statement is reset when `body` ends.
    public func readWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try withReader { connection in
            defer { connection.resetActiveStatements() }
            return try body(connection)
        }
    }

    private func withReader<T>(_ body: (Connection) throws -> T) throws -> T {
        readerPermits.wait()
        defer { readerPermits.signal() }
        let slot = try idleReaders.withLock { $0.popLast() } ?? openReader()
        defer { idleReaders.withLock { $0.append(slot) } }
        return try body(slot.connection)
    }

    private func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        // The result travels through a local: Mutex.withLock wants a `sending`
        // result, which a caller's arbitrary T cannot promise.
        var result: T?
        try writer.withLock { slot in
            result = try body(slot.connection)
        }
        return result!
    }

    private func openReader() throws -> Slot {
        Slot(try Connection(path: path, mode: .readOnly, options: configuration.connection))
    }
}
