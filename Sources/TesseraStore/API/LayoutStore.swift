import Locking
import Synchronization
import TesseraLayout

/// A persistent layout cache: specs by name, their layouts per cross extent,
/// and rect queries answered from storage.
///
/// ```swift
/// // LayoutStore(path:) comes with the module of the file-backed backend.
/// let store = try LayoutStore(path: "feed.db")
/// try await store.save(spec, as: "home", crossExtents: [390, 430, 820])
/// let visible = try await store.visibleElements(name: "home", crossExtent: 390,
///                                               viewport: Rect(x: 0, y: 12_000, width: 390, height: 844))
/// ```
///
/// The store's rules live here, whatever keeps its rows: a layout is only
/// served while it is fresh (computed from the spec's current content by
/// this engine version), an update lays out only the sections that changed,
/// and a reader sees a layout entirely as it was or entirely as it is. A
/// backend, in a module of its own, keeps the rows.
///
/// A store is `Sendable`: share one between threads and tasks. Writes run one
/// at a time; reads run concurrently, each in one committed snapshot. Other
/// processes may use the same store; their writes wait for each other.
public final class LayoutStore: Sendable {
    /// Where the store is: a file path, or a URL without its password.
    public let location: String
    /// The file path of a file-backed store (the same as ``location``).
    public var path: String { location }
    /// The layout kinds stored specs may name.
    public let registry: LayoutRegistry
    package let backend: any StorageBackend
    let engine = LayoutEngine()
    /// Layouts resolved by name, their directories and their frames, shared by all readers.
    let cache: StoreCache
    /// Whether a query that finds its layout's directory not cached loads it first (every row verified, none
    /// missing) instead of answering through the backend's spatial index while it loads in the background: the
    /// tools (CLI, server) do, so that damage to an index can only end in an error, never in missing elements.
    let loadsDirectoriesInline: Bool
    /// Directories being loaded in the background.
    let directoryLoads = Locked<Set<LayoutCacheKey>>([])
    /// Runs the work of async calls that blocks (see ``BlockingExecutor``),
    /// and is the task executor of async work that blocks in parts (writes).
    let executor: any BlockingExecutor
    /// Async writes in flight at most: two, as many as can overlap usefully
    /// (one writes while the other computes its cells); the others wait
    /// without a thread.
    let writeGate = AsyncGate(width: 2)
    /// Layouts computed for queries at once, at most: two, apart from the
    /// writes, so that computations never hold up a save, nor saves a query.
    let computeGate = AsyncGate(width: 2)
    /// Pieces of the listing read and written out on the executor at once,
    /// at most: two. Pages are bulk work; more at once would hold more
    /// pieces in memory and more of the executor's threads, not send pages sooner.
    let listingGate = AsyncGate(width: 2)
    /// Computations of missing layouts under way, for async callers to share.
    let flights = Locked<[LayoutKey: Task<ComputedLayout, any Error>]>([:])
    /// The names the store holds more than one spec under (see `specName`),
    /// read at open; whether there were any, for the path of every query.
    let nameConflicts: Locked<Set<String>>
    let hasNameConflicts: Bool

    /// A store over `backend`, which is at `location`; backends' modules
    /// offer the public ways to open one.
    package init(
        backend: any StorageBackend, location: String, registry: LayoutRegistry = .standard, cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget, loadsDirectoriesInline: Bool = false,
        executor: (any BlockingExecutor)? = nil, nameConflicts: [String] = []
    ) {
        self.backend = backend
        self.location = location
        self.executor = executor ?? StoreThreads()
        self.registry = registry
        // One budget: what frames may add counts only where directories are cached.
        cache = StoreCache(budget: cacheBudget > 0 ? cacheBudget + max(0, frameCacheBudget) : 0, cachesFrames: frameCacheBudget > 0)
        self.loadsDirectoriesInline = loadsDirectoriesInline
        self.nameConflicts = Locked(Set(nameConflicts))
        hasNameConflicts = !nameConflicts.isEmpty
    }

    /// The default budget of a store's cache for resolved names and layout
    /// directories: 64 MiB, room for about 150 directories of layouts of a
    /// million cells in sections of 1,000, or 60,000 of small feeds. 0
    /// turns the cache off: every query resolves its name and goes through
    /// the backend's spatial index.
    public static let defaultCacheBudget = 64 << 20

    /// What verified frames add to the cache's budget by default: 128 MiB,
    /// the cells of 64 layouts of 150,000 items in grid sections (about
    /// 6 bytes a cell as stored, compact), or of four layouts of a million
    /// cells stored plain (32 bytes a cell). 0: no frames are cached, and
    /// every query reads its frames from storage.
    public static let defaultFrameCacheBudget = 128 << 20

    /// What the store's one cache holds (resolved names, directories and
    /// their frames, within the sum of the two budgets), and its hits and misses.
    public var cacheStatistics: CacheStatistics { cache.statistics }

    /// Bytes the store takes on disk (0 when they cannot be measured).
    public var fileBytes: Int {
        get async { (try? await onExecutor { try await backend.storageBytes() }) ?? 0 }
    }

    /// Does the maintenance that writes leave to the background now and
    /// waits for it (a file-backed store folds its write-ahead log into the file):
    /// before measuring ``fileBytes``, or copying the store's file.
    public func finishBackgroundWork() async {
        // Without compacting, no backend fails here: a checkpoint that did
        // not finish is run again by the next write.
        try? await onExecutor { try await backend.settle(compacting: false) }
    }

    /// Closes the store: calls after it fail, and once the reads and writes
    /// in flight end (at once when there are none; `close()` does not wait
    /// for them), everything committed is left in the store itself and its
    /// connections are released. A file-backed store folds its write-ahead log into the
    /// database file and, when no other connection (of any process) has
    /// the store open, its `-wal` and `-shm` files are removed, as the
    /// database does when its last connection closes: the one file is then the
    /// whole store, to copy, upload or ship. While another process still
    /// has it open, copy it with `tessera export` instead.
    ///
    /// Deinitialization closes a store that was not closed. Every call
    /// after `close()` fails with ``StoreError/Code/closed``;
    /// closing again does nothing.
    public func close() {
        backend.close()
    }

    deinit {
        backend.close()
    }

    /// Runs a write, turning the engine's spec errors into store errors.
    /// The caller runs it with ``executor`` as its task executor (see `onExecutor`).
    package func write<T>(naming name: String? = nil, _ body: (RowTransaction) async throws -> T) async throws -> T {
        var result: T?
        try await reportingSpecErrors(name: name) {
            try await backend.write { rows in result = try await body(RowTransaction(rows, location: location)) }
        }
        guard let result else { preconditionFailure("a write that returned ran its body") }
        return result
    }
}

/// A spec name and a cross extent: one layout.
struct LayoutKey: Hashable, Sendable {
    var name: String
    var crossExtent: Double
}
