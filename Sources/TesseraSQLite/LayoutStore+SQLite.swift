@_exported import TesseraStore
import TesseraLayout

extension LayoutStore {
    /// Opens the SQLite store at `path`, creating it if needed.
    ///
    /// - Throws: `StoreError` with code `notAStore` or `schemaTooNew` for a
    ///   file that is not a store this build can use (it is left untouched),
    ///   or another code when SQLite fails (SQLite's error is its cause).
    /// - Parameters:
    ///   - path: the store's file; its `-wal` and `-shm` files sit beside it.
    ///   - registry: the layout kinds stored specs may name.
    ///   - maximumReaders: the most read-only connections open at once; more
    ///     concurrent reads wait for one to be free.
    ///   - readerCacheLimit: the largest layout (sections plus groups of 250
    ///     cells) whose directory each reader connection keeps in memory,
    ///     about 60 bytes per entry; 0 sends every query through the R*Tree.
    ///   - busyTimeout: how long (seconds) a write waits for another
    ///     connection's or process's write to finish before failing with code
    ///     `busy`: longer than the longest write (a 10M-item precompute takes
    ///     several seconds), so that writers queue instead of failing.
    public convenience init(
        path: String,
        registry: LayoutRegistry = .standard,
        maximumReaders: Int = 4,
        readerCacheLimit: Int = 2_000_000,
        busyTimeout: Double = 120
    ) throws {
        let storage = try SQLiteStorage(
            path: path,
            configuration: DatabasePool.Configuration(
                maximumReaderCount: max(1, maximumReaders),
                connection: Connection.Options(busyTimeout: busyTimeout)
            )
        )
        self.init(backend: storage, registry: registry, readerCacheLimit: readerCacheLimit)
    }

    /// The SQLite pool under this store, for this package's tools and tests.
    package var sqlitePool: DatabasePool? { (backend as? SQLiteStorage)?.pool }
}
