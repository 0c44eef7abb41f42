import Synchronization
import TesseraLayout
import TesseraStore

/// The in-memory backend: one handle on an ``InMemoryDatabase``, as a
/// SQLite store's pool of connections is one handle on its file. Several
/// handles on one database see each other's commits as processes do.
///
/// It keeps the port's guarantees (see `StorageBackend`) with values: a
/// read runs on a snapshot of the committed tables, a write on a private
/// copy committed whole (`InMemoryDatabase`). Rows carry the checksums the
/// other backends store, and every read verifies them.
///
/// A template for a new backend: this file is the port's top level and
/// the committed state (`InMemoryDatabase`); `InMemoryTables` holds the
/// rows (`InMemoryRows`, with their checksums; `+Checks` finds damage);
/// `InMemoryReader` answers reads (specs; `+Layouts` with their sections;
/// `+CellGroups`), and `InMemoryWriter` changes rows.
package final class InMemoryStorage: StorageBackend {
    /// The rows this handle reads and writes.
    package let database: InMemoryDatabase
    private let closed = Atomic<Bool>(false)
    /// Layouts resolved by name, shared by readers of one commit.
    let resolvedNames: ResolvedNames

    /// A handle on `database`.
    package init(database: InMemoryDatabase, resolvedNames: ResolvedNames = ResolvedNames(cacheBudget: LayoutStore.defaultCacheBudget)) {
        self.database = database
        self.resolvedNames = resolvedNames
    }

    package var location: String { database.location }

    /// Reads begun through this handle (for tests of answers from memory).
    package let readsBegun = Atomic<Int>(0)

    /// The commit a read begun now would see: the tag its readers share
    /// resolved names under (see `InMemoryReader.freshLayout`).
    /// Nil once closed: the read the query falls back to reports `closed`.
    package var committedState: SnapshotTag? {
        guard !closed.load(ordering: .acquiring) else { return nil }
        return SnapshotTag(words: [UInt64(bitPattern: database.committedVersion)])
    }

    /// Throws `closed` once ``close()`` ran.
    private func refuseIfClosed() throws {
        if closed.load(ordering: .acquiring) { throw StoreError.closed(store: location) }
    }

    /// Each read gets a reader of its own: there are no connections to keep
    /// (the resolved names are shared, keyed by the commit a reader sees).
    package func read(_ body: (any ReadSnapshot) throws -> Void) throws {
        try refuseIfClosed()
        readsBegun.add(1, ordering: .relaxed)
        try body(InMemoryReader(database.snapshot(), location: location, resolvedNames: resolvedNames))
    }

    /// Never waits: a snapshot is always at hand.
    package func readIfAvailable(_ body: (any ReadSnapshot) throws -> Void) throws -> Bool {
        try read(body)
        return true
    }

    package func write(_ body: (any WriteTransaction) async throws -> Void) async throws {
        try refuseIfClosed()
        try await database.write { committed in
            let writer = InMemoryWriter(committed, location: location, resolvedNames: nil)
            try await body(writer)
            return writer.tables
        }
    }

    /// Deleted rows are gone at once: nothing to give back.
    package func compact() throws {
        try refuseIfClosed()
    }

    /// Nothing runs in the background.
    package func finishBackgroundWork() {}

    /// Later reads and writes of this handle fail with `closed`; other
    /// handles on the database go on. Reads and writes under way finish
    /// on their own values.
    package func close() {
        closed.store(true, ordering: .releasing)
    }

    /// What the rows take in memory, roughly.
    package var storageBytes: Int { database.snapshot().tables.byteCount }

    /// The indexes against the rows they index, and each group's reach
    /// against the bounds of its slot's groups (see `GroupReach`).
    package func integrityProblems() throws -> [String] {
        try refuseIfClosed()
        return database.snapshot().tables.integrityProblems()
    }
}

extension LayoutStore {
    /// A store whose rows live in memory: in `database`, a new empty one
    /// unless given. Open another store on the same database for a second
    /// handle on the same rows (as another process opens the same file).
    package convenience init(
        inMemory database: InMemoryDatabase = InMemoryDatabase(), registry: LayoutRegistry = .standard,
        cacheBudget: Int = LayoutStore.defaultCacheBudget, loadsDirectoriesInline: Bool = false
    ) {
        let names = ResolvedNames(cacheBudget: cacheBudget)
        self.init(
            backend: InMemoryStorage(database: database, resolvedNames: names), registry: registry, cacheBudget: cacheBudget,
            loadsDirectoriesInline: loadsDirectoriesInline, resolvedNames: names
        )
    }

    /// The database of a store opened with `init(inMemory:)`; nil for another backend's.
    package var inMemoryDatabase: InMemoryDatabase? {
        (backend as? InMemoryStorage)?.database
    }

    /// Reads begun by a store opened with `init(inMemory:)`; nil for another backend's.
    package var inMemoryReadsBegun: Int? {
        (backend as? InMemoryStorage)?.readsBegun.load(ordering: .relaxed)
    }
}

/// The committed state of an in-memory store, shared by every handle on it
/// (``InMemoryStorage``) as a file is shared by the processes that open it.
///
/// - A read takes the committed tables (a value) under a short lock: it
///   sees them whole, and no later commit changes its copy.
/// - A write holds the writer lock for its whole transaction, so writes run
///   one at a time; it changes a private copy of the tables and publishes
///   it as the new committed state when its body returns, or drops it when
///   the body throws.
/// - Every commit bumps ``Committed/version``: the change counter, and the
///   exact name of the state a read sees.
package final class InMemoryDatabase: Sendable {
    /// A committed state and its number.
    package struct Committed: Sendable {
        package var tables: InMemoryTables
        /// Bumped by every commit, never reused.
        package var version: Int64
    }

    /// The name in messages and `LayoutStore.location`: `memory:` and a number.
    package let location: String
    private let committed = Mutex(Committed(tables: InMemoryTables(), version: 0))
    /// Passed by the write in progress (whose body may go on on another thread).
    private let writer = AsyncGate(width: 1)

    private static let count = Atomic<Int>(0)

    /// A new, empty database.
    package init() {
        location = "memory:\(Self.count.add(1, ordering: .relaxed).newValue)"
    }

    /// The committed state now.
    package func snapshot() -> Committed {
        committed.withLock { $0 }
    }

    /// The version of the committed state now.
    package var committedVersion: Int64 {
        committed.withLock { $0.version }
    }

    /// Runs `body` on the committed state while holding the writer lock,
    /// and commits the tables it returns.
    package func write(_ body: (Committed) throws -> InMemoryTables) throws {
        try writer.passBlocking { commit(try body(snapshot())) }
    }

    /// The same for an async body.
    package func write(_ body: (Committed) async throws -> InMemoryTables) async throws {
        try await writer.pass { commit(try await body(snapshot())) }
    }

    private func commit(_ tables: InMemoryTables) {
        committed.withLock { state in
            state = Committed(tables: tables, version: state.version + 1)
        }
    }
}
