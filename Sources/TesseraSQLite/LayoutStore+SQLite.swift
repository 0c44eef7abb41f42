import SQLiteToolkit
import TesseraStore
import TesseraLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LayoutStore {
    /// Opens the SQLite store at `path`, creating it if needed.
    ///
    /// - Throws: `StoreError` with code `notAStore` or `schemaTooNew` for a
    ///   file that is not a store this build can use (it is left untouched),
    ///   or another code when SQLite fails (SQLite's error is its cause).
    /// - Parameters:
    ///   - path: the store's file; its `-wal` and `-shm` files sit beside it.
    ///   - registry: the layout kinds stored specs may name.
    ///   - maximumReaders: the most read-only connections open at once for
    ///     the store's reads; more concurrent reads wait for one to be
    ///     free, without holding a thread.
    ///   - cacheBudget: bytes of the one cache the store's readers share in
    ///     memory for resolved names and layout directories (section rows
    ///     and the bounds of each group of 250 cells, about 60 bytes per
    ///     entry), least recently used dropped first; a layout not cached is
    ///     queried through the R*Tree while its directory loads. 0 turns the
    ///     cache off and sends every query through the R*Tree.
    ///   - frameCacheBudget: bytes the same cache may take on top for cells'
    ///     frames, verified, charged to their directory (see
    ///     `LayoutStore.defaultFrameCacheBudget`): a warm query whose
    ///     layout, directory and frames are all cached, in a state nothing
    ///     was committed since, reads nothing from the file and takes no
    ///     connection. 0 reads every query's frames from the file.
    ///   - busyTimeout: how long (seconds) a write waits for another
    ///     connection's or process's write to finish before failing with code
    ///     `busy`: longer than the longest write (a 10M-item precompute takes
    ///     several seconds), so that writers queue instead of failing.
    ///   - readOnly: opens an existing store without writing anything: no
    ///     file is created, converted or migrated, and no `-wal` or `-shm`
    ///     file is created for a store that has none (it works in a read-only
    ///     folder or file system). Every write (a save, computing a missing
    ///     or stale layout) fails with code `readOnly`; a file that is not a
    ///     Tessera store fails with `notAStore`, and a store of an older
    ///     schema version with `readOnly` (open it once for writing).
    ///   - executor: where the store's async calls run what blocks (see
    ///     `BlockingExecutor`); nil: threads of the store's own.
    public convenience init(
        path: String,
        registry: LayoutRegistry = .standard,
        maximumReaders: Int = 4,
        cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget,
        busyTimeout: Double = 120,
        readOnly: Bool = false,
        executor: (any BlockingExecutor)? = nil
    ) throws {
        try self.init(
            path: path, registry: registry, maximumReaders: maximumReaders, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget,
            busyTimeout: busyTimeout, readOnly: readOnly, loadsDirectoriesInline: false, executor: executor
        )
    }

    /// Turns off SQLite's memory statistics for the whole process, as
    /// `tessera` and `tessera-server` do first thing: each allocation SQLite
    /// makes then skips a process-wide mutex and its counters, about 3% of
    /// the instructions of the first query of a layout never read (the
    /// Performance article). `sqlite3_memory_used()`, `sqlite3_status64()` and
    /// SQLite's heap limits stop working for every connection of the process.
    ///
    /// - Returns: whether it took effect: only before the process first uses
    ///   SQLite (opens any store or database), so call it first in `main`.
    @discardableResult
    public static func turnOffSQLiteMemoryStatistics() -> Bool {
        Connection.turnOffMemoryStatistics()
    }

    /// The same, for this package's tools: `loadsDirectoriesInline` makes a
    /// query that misses the directory cache load the directory first (see
    /// `LayoutStore.loadsDirectoriesInline`).
    package convenience init(
        path: String,
        registry: LayoutRegistry = .standard,
        maximumReaders: Int = 4,
        cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget,
        busyTimeout: Double = 120,
        readOnly: Bool = false,
        loadsDirectoriesInline: Bool,
        executor: (any BlockingExecutor)? = nil
    ) throws {
        var configuration = DatabasePool.Configuration(
            maximumReaderCount: max(1, maximumReaders),
            connection: Connection.Options(busyTimeout: busyTimeout)
        )
        configuration.readOnly = readOnly
        let storage = try SQLiteStorage(path: path, configuration: configuration)
        self.init(
            backend: storage, location: storage.location, registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget,
            loadsDirectoriesInline: loadsDirectoriesInline, executor: executor,
            nameConflicts: try storage.nameConflicts()
        )
    }

    /// Fails unless `path` is an existing file that may be a Tessera store,
    /// judged from its bytes before anything opens it: for the tools that
    /// write to a store but must never create one (an empty or table-less
    /// file given to a writable open would become a store). Throws
    /// `notFound` for a missing file, `notAStore` for a folder, a FIFO, a
    /// device or another file.
    package static func requireExistingStore(at path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw StoreError(.notFound, "no store at \(path.quotedPathForMessage)", store: path)
        }
        // Refuses a directory, a FIFO or a device before reading the header.
        _ = try Migrator.existingStoreHeader(at: path)
    }

    /// The SQLite pool under this store, for this package's tests
    /// (`@testable import TesseraSQLite`).
    var sqlitePool: DatabasePool? { (backend as? SQLiteStorage)?.pool }
}
