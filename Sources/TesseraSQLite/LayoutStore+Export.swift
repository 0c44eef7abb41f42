import CSQLite
import SQLiteToolkit
import TesseraLayout
import TesseraStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LayoutStore {
    /// Writes a compact copy of the store to `path`, ready to ship and open
    /// read-only anywhere: one file in rollback-journal (DELETE) mode, so a
    /// reader needs no `-wal` or `-shm` file beside it, with every row's
    /// checksum, checked before it is put in place.
    ///
    /// The copy is one snapshot of the store (SQLite's `VACUUM INTO`),
    /// written to a temporary file beside `path` and renamed over it only
    /// once it checks healthy: `path` is never left half written.
    ///
    /// - Parameters:
    ///   - path: the file to write the copy to.
    ///   - replacing: whether an existing file at `path` may be replaced;
    ///     without it an existing file is an error and is left as it is.
    /// - Returns: what the check of the copy found (healthy).
    /// - Throws: `StoreError` with code `invalidArgument` when `path` exists
    ///   and `replacing` is false, `damaged` when the copy does not check
    ///   healthy (nothing is written to `path` then), or another code when
    ///   SQLite or the file system fails.
    ///
    /// The copy and its check run on the store's executor.
    @discardableResult
    public func export(to path: String, replacing: Bool = false) async throws -> CheckReport {
        try await onExecutor { try await self.exportCopy(to: path, replacing: replacing) }
    }

    /// The body of `export(to:replacing:)`, on the store's executor.
    private func exportCopy(to path: String, replacing: Bool) async throws -> CheckReport {
        guard let storage = backend as? SQLiteStorage else {
            throw StoreError(.unsupported, "export writes a SQLite file; this store is kept elsewhere (\(location))")
        }
        guard replacing || access(path, F_OK) != 0 else {
            throw StoreError(.invalidArgument, "\(path.quotedPathForMessage) exists; choose another file, or replace it explicitly", store: location)
        }
        let temporary = path + ".tessera-export-\(getpid())"
        defer { DatabaseFiles.remove(temporary) }
        try storage.vacuum(into: temporary, for: path)
        let report = try await LayoutStore(path: temporary, readOnly: true).checkAll().report
        guard report.isHealthy else {
            throw StoreError(.damaged, "the copy of \(location.quotedPathForMessage) does not check healthy, so \(path.quotedPathForMessage) was not written: "
                + (report.problems.first.map { "\($0)" } ?? ""), store: location)
        }
        for suffix in DatabaseFiles.sideSuffixes { unlink(path + suffix) }
        guard rename(temporary, path) == 0 else {
            throw StoreError.fileSystem(errno, path: path, doing: "moving the copy into place", outcome: "nothing was exported", store: location)
        }
        return report
    }
}

extension SQLiteStorage {
    /// `VACUUM INTO` a new file at `path`, then its journal mode set to
    /// DELETE (the copy keeps the store's WAL mode otherwise); `target` is
    /// the file the copy is for, named when its file system fails.
    func vacuum(into path: String, for target: String) throws {
        try Self.reporting(path: pool.path) {
            try pool.writeWithoutTransaction { connection in
                // VACUUM INTO only reads the store, but query_only refuses it.
                let queryOnly = connection.readOnlyOpen == .queryOnly
                if queryOnly { try connection.execute("PRAGMA query_only = 0") }
                defer { if queryOnly { try? connection.execute("PRAGMA query_only = 1") } }
                let statement = try connection.prepare("VACUUM INTO ?")
                try statement.bind(path, at: 1)
                try copying(to: target) { try statement.execute() }
            }
            var options = Connection.Options()
            options.walMode = false
            try copying(to: target) {
                let copy = try Connection(path: path, mode: .readWriteCreate, options: options)
                defer { copy.close() }
                try copy.execute("PRAGMA journal_mode = DELETE")
            }
        }
    }

    /// Runs `body`, which writes the copy at `path`: a failure of the copy's
    /// file system (full, read-only, not permitted) names the copy, not the store.
    private func copying(to path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteError where error.systemErrno != 0 || error.code == SQLITE_FULL {
            throw StoreError.fileSystem(
                error.systemErrno != 0 ? error.systemErrno : ENOSPC, path: path, doing: "writing the copy of the store",
                outcome: "nothing was exported", store: pool.path)
        }
    }
}
