import TesseraLayout

#if canImport(Glibc)
import Glibc
#endif

/// A persistent layout cache in one SQLite file: specs by name, their
/// layouts per cross extent, and rect queries answered from disk.
///
/// ```swift
/// let store = try LayoutStore(path: "feed.sqlite")
/// try store.save(spec, as: "home", crossExtents: [390, 430, 820])
/// let visible = try store.visibleElements(name: "home", crossExtent: 390,
///                                         viewport: Rect(x: 0, y: 12_000, width: 390, height: 844))
/// ```
///
/// A store is `Sendable`: share one between threads and tasks. Writes run one
/// at a time on one connection; reads run on a pool of read-only connections,
/// each in a transaction that sees one committed state, so a reader never sees
/// a layout half-written or half-replaced. Other processes may use the same
/// file; their writes wait for each other.
public final class LayoutStore: Sendable {
    public let path: String
    /// The layout kinds stored specs may name.
    public let registry: LayoutRegistry
    let pool: DatabasePool
    let engine = LayoutEngine()
    /// The largest layout, in sections plus groups of cells, whose geometry
    /// a reader connection keeps in memory; larger ones are queried through
    /// the on-disk R*Tree.
    let readerCacheLimit: Int

    /// Opens the store at `path`, creating it if needed.
    ///
    /// - Throws: ``StoreError`` for a file that is not a Tessera store (left
    ///   untouched), ``SQLiteError`` when SQLite fails.
    /// - Parameter readerCacheLimit: the largest layout (sections plus groups
    ///   of 250 cells) whose directory each reader connection keeps in memory,
    ///   about 60 bytes per entry; 0 sends every query through the R*Tree.
    /// - Parameter busyTimeout: how long (seconds) a write waits for another
    ///   connection's or process's write to finish before failing with
    ///   `SQLITE_BUSY`: longer than the longest write (a 10M-item precompute
    ///   takes several seconds), so that writers queue instead of failing.
    public init(
        path: String,
        registry: LayoutRegistry = .standard,
        maximumReaders: Int = 4,
        readerCacheLimit: Int = 2_000_000,
        busyTimeout: Double = 120
    ) throws {
        self.path = path
        self.registry = registry
        self.readerCacheLimit = readerCacheLimit
        self.pool = try DatabasePool(
            path: path,
            configuration: DatabasePool.Configuration(
                maximumReaderCount: max(1, maximumReaders),
                connection: Connection.Options(busyTimeout: busyTimeout)
            )
        )
    }

    /// After a write of many cells, copies the WAL into the file and empties
    /// it: readers then read pages in place through mmap instead of looking
    /// each one up in the WAL (a query took twice as long before).
    func checkpoint(afterWriting cells: Int) {
        guard cells >= 50_000 else { return }
        // Best effort: a reader in another process may hold the WAL; then the
        // next large write tries again. Our own readers give up their kept
        // snapshots meanwhile, or the reset would wait for them.
        pool.withoutHeldSnapshots {
            _ = try? pool.writeWithoutTransaction { connection in try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        }
    }

    /// Seconds since 1970, for the rows' timestamps.
    static func timestamp() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds on a monotonic clock, for durations.
    static func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
