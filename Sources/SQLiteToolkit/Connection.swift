import CSQLite

/// One SQLite connection, used by one thread at a time (it is opened with
/// `SQLITE_OPEN_NOMUTEX`, so SQLite does no locking of its own). Not `Sendable`:
/// share a database between threads through `DatabasePool`.
///
/// Opening applies the settings every connection of a pool wants (see
/// `Options`), after the set-up a layer above asks for (its SQL functions,
/// its checks of SQLite's features), so a missing feature is reported at
/// open rather than at the first statement that needs it.
package final class Connection {
    /// How the file is opened.
    package enum OpenMode: Sendable {
        /// Reading only; the file must exist. Pooled readers use this.
        case readOnly
        /// Reading and writing; the file is created if it does not exist.
        case readWriteCreate
    }

    /// How a `.readOnly` connection opens the file: each sees other
    /// connections' commits except `immutable`, and they differ in what
    /// they leave beside a WAL file.
    package enum ReadOnlyOpen: Sendable, Equatable {
        /// SQLite's read-only open: it uses the `-wal` and `-shm` beside
        /// the file, creates them when it can, and never removes them.
        case shared
        /// A read-write open (never creating the file) with `PRAGMA
        /// query_only`: writes fail with `SQLITE_READONLY`, and the last
        /// connection to close removes `-wal` and `-shm` as a writer's would.
        case queryOnly
        /// SQLite's read-only open with `readonly_shm=1`: the `-shm` is only
        /// read, and when it cannot be used (short, left by a write that
        /// failed on a full disk) SQLite keeps the index in its own memory,
        /// still under the file's locks. For reads the other opens refuse.
        case readOnlyShm
        /// `immutable=1`: no locks and no side files, and no other writer's
        /// commit is seen (a file changed meanwhile reads as torn). Only for
        /// a file nothing can write, e.g. on a read-only file system.
        case immutable
    }

    /// Per-connection settings applied at open.
    package struct Options: Sendable {
        /// How long (seconds) a statement waits for a lock held by another connection
        /// (or process) before failing with `SQLITE_BUSY`. Two processes writing the
        /// same file should queue, not fail, hence a generous default.
        package var busyTimeout: Double
        /// Bytes of the file read through memory mapping: pages are then read in
        /// place, without a system call and a copy. 256 MB cut rect-query p99 by
        /// 25–35% here (research notes); the default maps up to 2 GiB, SQLite's
        /// usual limit, so that a 10M-element layout (340 MB) is mapped whole.
        package var mmapSize: Int
        /// Whether a read-write connection switches the file to WAL, so readers never
        /// block the writer nor the writer the readers. Ignored for `.readOnly`.
        package var walMode: Bool
        /// The page size of a file created by this connection (ignored for an
        /// existing file). 8 KiB holds a group of 250 cell frames on one page,
        /// so a query reads it in place instead of assembling overflow pages.
        package var pageSize: Int
        /// How a `.readOnly` connection opens the file.
        package var readOnlyOpen = ReadOnlyOpen.shared
        /// Runs on every connection opened with these options, right after
        /// SQLite opened it and before the settings above are applied: a
        /// layer above registers its SQL functions and checks the features
        /// it needs there. What it throws, the open throws.
        package var setUp: (@Sendable (Connection) throws -> Void)?

        package init(busyTimeout: Double = 5, mmapSize: Int = 2_147_418_112, walMode: Bool = true, pageSize: Int = 8192) {
            self.busyTimeout = busyTimeout
            self.mmapSize = mmapSize
            self.walMode = walMode
            self.pageSize = pageSize
        }
    }

    /// The path given at open.
    package let path: String
    /// The mode given at open.
    package let mode: OpenMode
    /// How the file was opened read-only; nil for `.readWriteCreate`.
    package let readOnlyOpen: ReadOnlyOpen?

    /// The `sqlite3*`. Valid until `close()`.
    package let handle: OpaquePointer
    /// Prepared statements by SQL text (see `cachedStatement(_:)`).
    package internal(set) var statementCache: [String: Statement] = [:]
    /// The same statements, keyed by `SQL` identity (see `SQL`).
    var identityCache: [ObjectIdentifier: Statement] = [:]
    /// State that a layer above keeps per connection (a cache of what it
    /// read); it lives and dies with the connection.
    package var attachment: AnyObject?
    /// State that a layer above keeps for the current write transaction
    /// only: cleared when `transaction(_:_:)` begins.
    package var transactionState: Any?
    /// Whether a layer above may remember the database's change counter
    /// in `knownChangeCounter` until it is cleared: set by the pool on
    /// readers, which clear it whenever they begin or end a snapshot.
    package internal(set) var remembersChangeCounter = false
    /// The change counter of the current snapshot, once asked.
    package var knownChangeCounter: Int64?
    /// The six words of the WAL-index header that names the committed state
    /// the current read snapshot sees, exactly (set by the pool on readers,
    /// see `DatabasePool.renewSnapshot(of:)`, once per snapshot: a read
    /// that keeps it allocates nothing); nil when unknown, and always on
    /// the writer.
    package internal(set) var exactSnapshot: [UInt64]?
    /// Nesting depth of `savepoint(_:)`, to name savepoints uniquely.
    var savepointDepth = 0
    private(set) var isClosed = false

    /// Opens (or, for `.readWriteCreate`, creates) the database at `path`.
    ///
    /// - Throws: `SQLiteError` with operation `.open` if SQLite cannot open
    ///   the file or set up the connection (code `SQLITE_NOTADB` when the file
    ///   is not a SQLite database: nothing is written to it), `.switchToWAL`
    ///   when the file cannot be put in WAL mode, or what `Options.setUp` throws.
    package init(path: String, mode: OpenMode = .readWriteCreate, options: Options = Options()) throws {
        self.path = path
        self.mode = mode
        self.readOnlyOpen = mode == .readOnly ? options.readOnlyOpen : nil
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var name = path
        switch (mode, options.readOnlyOpen) {
        case (.readWriteCreate, _): flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case (.readOnly, .shared): flags |= SQLITE_OPEN_READONLY
        case (.readOnly, .queryOnly): flags |= SQLITE_OPEN_READWRITE
        case (.readOnly, .readOnlyShm):
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?readonly_shm=1"
        case (.readOnly, .immutable):
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            // sqlite3_open_v2 may hand back a handle even on failure; it must be closed.
            var error = SQLiteError(code: rc, db: db, sql: nil)
            error.operation = .open
            error.path = path
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: Int((options.busyTimeout * 1000).rounded())))
        do {
            // Before anything else runs on it: no statement may write.
            if readOnlyOpen == .queryOnly { try execute("PRAGMA query_only = 1") }
            try options.setUp?(self)
            try configure(options)
        } catch var error as SQLiteError {
            close()
            if error.operation == .statement { error.operation = .open }
            error.path = path
            throw error
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// `path` as the path of a `file:` URI: bytes other than unreserved ones
    /// and `/` percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// Finalizes the cached statements and closes the connection. Idempotent; also
    /// done on deinit. Statements prepared with `prepare(_:)` and still referenced
    /// keep SQLite's connection alive (`sqlite3_close_v2`) until they are released.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in statementCache.values { statement.finalize() }
        statementCache.removeAll()
        identityCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Copies the whole WAL into the database file and syncs it (FULL),
    /// waiting at most `busyTimeout` seconds for other connections' writers
    /// and for their readers to reach the latest commit; gives up quietly
    /// past it (the WAL stays, intact, for whichever connection closes
    /// last). For a writer about to close. The WAL file is not emptied
    /// (TRUNCATE would cut it to zero bytes): when this is the last
    /// connection, closing removes it anyway, and a cut a moment before
    /// costs a short process milliseconds of file-system work; with other
    /// connections open, the next write starts it over from its beginning.
    package func checkpointBeforeClosing(busyTimeout: Double) {
        guard !isClosed, mode == .readWriteCreate else { return }
        sqlite3_busy_timeout(handle, Int32(clamping: Int((busyTimeout * 1000).rounded())))
        try? execute("PRAGMA wal_checkpoint(FULL)")
    }

    /// Turns SQLite's memory statistics off for the process; false when SQLite
    /// was already initialized (by the first connection opened), and nothing changed.
    package static func turnOffMemoryStatistics() -> Bool {
        tessera_config_memstatus(0) == SQLITE_OK
    }

    /// The SQLite library version at run time, e.g. `"3.40.1"`.
    package static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// The size the WAL file is cut back to when it starts over: 64 MiB.
    package static let walSizeLimit = 64 << 20

    private func configure(_ options: Options) throws {
        // NORMAL is durable in WAL mode except for the last commits at a power loss,
        // and avoids an fsync per commit. temp_store=MEMORY keeps sorts off the disk.
        // Debian builds SQLite with SECURE_DELETE, which zeroes every freed page:
        // freeing a 1M-element layout took 0.3 s with it and 0.05 s without.
        // Layout frames are not secrets, so the zeroing buys nothing here.
        try execute("""
            PRAGMA secure_delete = OFF;
            PRAGMA foreign_keys = ON;
            PRAGMA synchronous = NORMAL;
            PRAGMA temp_store = MEMORY;
            PRAGMA mmap_size = \(options.mmapSize);
            """)
        if mode == .readWriteCreate && options.walMode {
            // Only takes effect on an empty file, and only before WAL is on.
            try execute("PRAGMA page_size = \(options.pageSize)")
            try enableWAL()
            // When the WAL starts over (every frame copied, nobody reading
            // from it), its file is cut back to this size. SQLite's own
            // checkpoints at commit would copy pages on the write path: the
            // layer above checkpoints in the background instead.
            try execute("PRAGMA journal_size_limit = \(Self.walSizeLimit); PRAGMA wal_autocheckpoint = 0")
        }
    }

    /// Switches the file to WAL (persistent: stored in the file header).
    func enableWAL() throws {
        let statement = try prepare("PRAGMA journal_mode = WAL")
        let journalMode = try statement.step() ? statement.text(at: 0) : ""
        // In-memory and temporary databases answer "memory": nothing to share there.
        if journalMode != "wal" && journalMode != "memory" && !path.isEmpty && path != ":memory:" {
            throw SQLiteError(
                extendedCode: SQLITE_ERROR, message: "SQLite kept the journal mode '\(journalMode)' instead of WAL",
                sql: "PRAGMA journal_mode = WAL", operation: .switchToWAL(journalMode: journalMode), path: path)
        }
    }
}
