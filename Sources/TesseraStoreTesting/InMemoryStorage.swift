import Synchronization
import TesseraStore

/// The in-memory backend: one handle on an ``InMemoryDatabase``, as a
/// SQLite store's pool of connections is one handle on its file. Several
/// handles on one database see each other's commits as processes do.
///
/// It keeps the port's guarantees (see `StorageBackend`) with values: a
/// read runs on a snapshot of the committed tables, a write on a private
/// copy committed whole (`InMemoryDatabase`). It stores rows only: the
/// store's `RowSnapshot` and `RowTransaction` encode, seal and verify them.
///
/// A template for a new backend: this file is the top level;
/// `InMemoryDatabase` the committed state; `InMemoryTables` the rows and
/// their indexes; `InMemoryReader` and `InMemoryWriter` the row port.
package final class InMemoryStorage: StorageBackend {
    /// The rows this handle reads and writes.
    package let database: InMemoryDatabase
    private let closed = Atomic<Bool>(false)
    /// A handle on `database`.
    package init(database: InMemoryDatabase) {
        self.database = database
    }

    package var location: String { database.location }

    /// The commit a read begun now would see: the tag its readers share
    /// resolved names under (see `InMemoryReader.resolutionScope`).
    /// Nil once closed: the read the query falls back to reports `closed`.
    package var committedState: SnapshotTag? {
        guard !closed.load(ordering: .acquiring) else { return nil }
        return InMemoryDatabase.tag(database.committedVersion)
    }

    /// Throws `closed` once ``close()`` ran.
    private func refuseIfClosed() throws {
        if closed.load(ordering: .acquiring) { throw StoreError.closed(store: location) }
    }

    /// Each read gets a reader of its own: there are no connections to keep.
    private func read(_ body: (any RowReader) throws -> Void) throws {
        try refuseIfClosed()
        try body(InMemoryReader(database.snapshot()))
    }

    /// In place: a snapshot is always at hand.
    package func read(_ body: @escaping @Sendable (any RowReader) throws -> Void, on executor: any BlockingExecutor) async throws {
        try read(body)
    }

    package func write(_ body: (any RowWriter) async throws -> Void) async throws {
        try refuseIfClosed()
        try await database.write { committed in
            let writer = InMemoryWriter(committed)
            try await body(writer)
            return writer.tables
        }
    }

    /// Nothing runs in the background, and deleted rows are gone at once:
    /// nothing to give back.
    package func settle(compacting: Bool) async throws {
        if compacting { try refuseIfClosed() }
    }

    /// Later reads and writes of this handle fail with `closed`; other
    /// handles on the database go on. Reads and writes under way finish
    /// on their own values.
    package func close() {
        closed.store(true, ordering: .releasing)
    }

    /// No file: nothing on disk.
    package func storageBytes() -> Int { 0 }

    /// None: the indexes are the tables' own, changed with their rows by
    /// the writer alone.
    package func integrityProblems() async throws -> [String] {
        try refuseIfClosed()
        return []
    }
}
