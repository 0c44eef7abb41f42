import Locking
import Synchronization
import SQLiteToolkit
import TesseraLayout
import CSQLite
import TesseraStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Marks a pooled reader connection (`Connection.attachment`) with a number
/// no other connection of this process has: the layouts it resolves in a
/// snapshot the pool cannot name are kept under it (`Connection.resolutionScope`).
final class PooledReader {
    private static let count = Atomic<UInt64>(0)
    let serial = PooledReader.count.add(1, ordering: .relaxed).newValue
}

/// The SQLite backend: one file in WAL mode, one writer connection and a
/// pool of read-only connections (see `DatabasePool`).
final class SQLiteStorage: StorageBackend {
    let pool: DatabasePool
    let checkpointer: Checkpointer
    /// One place per reader connection the store's reads may use at once
    /// (`maximumReaderCount`): a read that finds none free waits here
    /// without a thread, so the pool opens no more readers than that.
    private let readers: AsyncGate

    init(path: String, configuration: DatabasePool.Configuration) throws {
        pool = try Self.reporting(path: path) { try DatabasePool(path: path, configuration: configuration) }
        checkpointer = Checkpointer(path: path, pool: pool)
        readers = AsyncGate(width: configuration.maximumReaderCount)
    }

    var location: String { pool.path }

    /// The WAL index's header, when mapped and settled, nil once closed: the tag a reader
    /// whose snapshot the header named when it began shares resolved names
    /// under (see `DatabasePool.renewSnapshot`), so a commit by any
    /// connection of any process changes it.
    var committedState: SnapshotTag? {
        guard let words = pool.settledWALStamp()?.wordTuple else { return nil }
        return SnapshotTag(words.0, words.1, words.2, words.3, words.4, words.5)
    }

    /// Runs `body` in one read snapshot on the calling thread, which waits
    /// for a connection when none is free.
    private func read(_ body: (any RowReader) throws -> Void) throws {
        try Self.reporting(path: pool.path) { try pool.read { connection in try body(SQLiteRows(reader(connection))) } }
    }

    /// The names the file holds more than one spec under, read as the store opens.
    func nameConflicts() throws -> [String] {
        var names: [String] = []
        try read { names = try RowSnapshot($0, location: location).nameConflicts() }
        return names
    }

    /// In place when a connection is free at once, else on `executor` once
    /// one is (background work, `AsyncGate.yields`, behind the others).
    func read(_ body: @escaping @Sendable (any RowReader) throws -> Void, on executor: any BlockingExecutor) async throws {
        if try readers.passIfFree({ try readIfAvailable(body) }) == true { return }
        try await readers.pass { try await executor.run { try self.read(body) } }
    }

    private func readIfAvailable(_ body: (any RowReader) throws -> Void) throws -> Bool {
        try Self.reporting(path: pool.path) { try pool.readIfAvailable { connection in try body(SQLiteRows(reader(connection))) } != nil }
    }

    /// A reader connection, marked as one (see `Connection.resolutionScope`).
    /// The writer is not: its own commits do not change its `PRAGMA data_version`.
    private func reader(_ connection: Connection) -> Connection {
        if connection.attachment == nil { connection.attachment = PooledReader() }
        return connection
    }

    func write(_ body: (any RowWriter) async throws -> Void) async throws {
        try refuseIfReadOnly()
        try await Self.reporting(path: pool.path) { try await pool.write { connection in try await body(SQLiteRows(connection)) } }
        checkpointer.didCommit()
    }

    /// Compacts the file when asked (see `compact`), then runs one more
    /// checkpoint and waits for it: everything committed is then in the
    /// database file, and the WAL file emptied unless somebody reads or
    /// writes at that moment.
    func settle(compacting: Bool) async throws {
        if compacting { try compact() }
        guard !pool.configuration.readOnly else { return }
        checkpointer.schedule()
        checkpointer.drain()
    }

    /// The checkpointer's connection first, the pool's writer last (see
    /// `DatabasePool.close()`).
    func close() {
        checkpointer.close()
        pool.close()
    }

    /// A store opened read-only refuses every write before it begins.
    private func refuseIfReadOnly() throws {
        guard pool.configuration.readOnly else { return }
        guard !FileSystem.isReadOnly(pool.path) else {
            throw StoreError(.readOnly, "the store \(pool.path.quotedPathForMessage) is on a read-only file system (EROFS); nothing was written", store: pool.path)
        }
        // Opened read-only because the disk was full (see the server): still full, say so.
        guard FileSystem.availableBytes(FileSystem.folder(of: pool.path)) != 0 else {
            throw StoreError(.diskFull, "the file system holding the store \(pool.path.quotedPathForMessage) is full; nothing was written", store: pool.path)
        }
        throw StoreError(.readOnly, "the store \(pool.path.quotedPathForMessage) was opened read-only; nothing was written", store: pool.path)
    }

    /// VACUUM when deletions or replacements freed pages, and a checkpoint
    /// that truncates the WAL.
    private func compact() throws {
        try refuseIfReadOnly()
        try Self.reporting(path: pool.path) {
            try pool.withoutHeldSnapshots {
                try pool.writeWithoutTransaction { connection in
                    // Pages freed by deletions or earlier replacements; none: nothing to rewrite.
                    if try connection.scalarInt64("PRAGMA freelist_count") ?? 0 > 0 {
                        try connection.execute("VACUUM")
                    }
                    try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                }
            }
        }
    }

    /// SQLite's integrity check, the R*Tree's own check, and the R*Tree
    /// against the directory: one index row per group, with the group's key.
    func integrityProblems() async throws -> [String] {
        try Self.reporting(path: pool.path) {
            try pool.read { connection in
                var problems: [String] = []
                let integrity = try connection.prepare("PRAGMA integrity_check")
                while try integrity.step() {
                    let line = integrity.text(at: 0)
                    if line != "ok" { problems.append("SQLite's integrity check: \(line)") }
                }
                let rtree = try connection.prepare("SELECT rtreecheck('cell_groups_rtree')")
                if try rtree.step(), rtree.text(at: 0) != "ok" {
                    problems.append("the R*Tree's check: \(rtree.text(at: 0))")
                }
                let unindexed = try connection.scalarInt64("""
                    SELECT count(*) FROM cell_group_directory AS d LEFT JOIN cell_groups_rtree AS r ON r.id = d.group_id
                    WHERE r.id IS NULL OR r.first_item != d.first_item
                    """) ?? 0
                if unindexed > 0 { problems.append("\(unindexed) cell groups are missing from the R*Tree or indexed under another item") }
                let strays = try connection.scalarInt64(
                    "SELECT (SELECT count(*) FROM cell_groups_rtree) - (SELECT count(*) FROM cell_group_directory)"
                ) ?? 0
                if strays != 0 { problems.append("the R*Tree has \(strays) rows more than the directory has groups") }
                let orphans = try connection.scalarInt64("""
                    SELECT count(*) FROM cell_group_directory AS d LEFT JOIN cell_groups AS g ON g.id = d.group_id WHERE g.id IS NULL
                    """) ?? 0
                if orphans > 0 { problems.append("\(orphans) directory entries name cell groups that are not stored") }
                let unreached = try connection.scalarInt64(Self.reachMismatchesSQL) ?? 0
                if unreached > 0 { problems.append("\(unreached) cell groups' reach disagrees with the bounds of their slot's groups") }
                return problems
            }
        }
    }

    /// Directory rows whose reach is not what the bounds of their slot's
    /// groups give (see `GroupReach`; Migrations/0006_group_reach.sql
    /// computes it the same way).
    static let reachMismatchesSQL = """
        WITH running AS (
            SELECT reach_start AS stored_start, reach_end AS stored_end, reach_slack AS stored_slack, layout_id, slot, first_item, min_scroll,
                max(min_scroll) OVER slot_order AS reach_start, max(max_scroll) OVER slot_order AS reach_end
            FROM cell_group_directory
            WINDOW slot_order AS (PARTITION BY layout_id, slot ORDER BY first_item ROWS UNBOUNDED PRECEDING)
        ), reach AS (
            SELECT *, max(reach_start - min_scroll) OVER (PARTITION BY layout_id, slot ORDER BY first_item ROWS UNBOUNDED PRECEDING) AS reach_slack
            FROM running
        )
        SELECT count(*) FROM reach
        WHERE stored_start IS NOT reach_start OR stored_end IS NOT reach_end OR stored_slack IS NOT reach_slack
        """

    /// The file and its write-ahead log.
    func storageBytes() -> Int {
        var total = 0
        for suffix in ["", "-wal"] {
            var info = stat()
            if stat(pool.path + suffix, &info) == 0 { total += Int(info.st_size) }
        }
        return total
    }

    /// Runs `body`, reporting SQLite's failures as ``StoreError``s with a
    /// plain sentence and SQLite's error as the cause.
    static func reporting<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw StoreError(sqlite: error, path: path)
        }
    }

    static func reporting<T>(path: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SQLiteError {
            throw StoreError(sqlite: error, path: path)
        }
    }
}
