import TesseraLayout

/// How much a store's shared cache of layout directories holds and how it is used.
public struct CacheStatistics: Sendable, Hashable {
    /// Bytes the cached directories take (an estimate from their arrays' sizes).
    public var bytes: Int
    /// The budget the cache stays within.
    public var budget: Int
    /// Layouts cached.
    public var layouts: Int
    /// Queries that found their layout's directory cached.
    public var hits: Int
    /// Queries that did not (answered through the backend's index meanwhile).
    public var misses: Int
    /// Directories dropped to stay within the budget.
    public var evictions: Int
}

/// The directories (section rows and cell-group bounds) of recently queried
/// layouts, shared by every reader of a store and bounded by bytes.
///
/// Entries are keyed by layout id and revision and never change: layout ids
/// are never reused and every change in place bumps the revision, so an
/// entry read in any snapshot that saw that revision is right for every
/// other such snapshot. Least recently used entries go first when the
/// budget is reached.
typealias LayoutCache = ByteBudgetCache<LayoutCacheKey, CachedLayout>

/// A layout's revision: the key of its directory in the ``LayoutCache``.
struct LayoutCacheKey: Hashable, Sendable {
    var layoutID: Int64
    var revision: Int64
}

extension ByteBudgetCache where Key == LayoutCacheKey, Value == CachedLayout {
    /// A cache of directories within `budget` bytes, its tables sized for
    /// as many as it holds of small layouts' (a feed of a few hundred items
    /// in two sections is charged about 1 KiB): a store's first queries
    /// of thousands of feeds each insert one, and none waits for the tables
    /// to grow.
    convenience init(directoryBudget budget: Int) {
        self.init(budget: budget, entryBytes: 1 << 10)
    }

    /// The cached directory, marked as just used; nil when absent. The use
    /// is counted by the query once its read is done (``count(hit:)``): a
    /// backend may run a read's body twice.
    func layout(_ key: Key) -> CachedLayout? { value(key, counting: false) }

    /// Caches a directory (see ``ByteBudgetCache/insert(_:bytes:for:)``).
    func insert(_ layout: CachedLayout, for key: Key) { insert(layout, bytes: layout.byteCount, for: key) }

    /// The cached directory of `key`'s layout at the latest revision up to
    /// `key`'s, other than `layout`, among `key`'s and the
    /// ``carriedRevisions`` before it: the one whose frames a new directory
    /// of `key` takes over (``LayoutStore/cache(_:for:)``). Looked up by key,
    /// a few lookups whatever the cache holds (a store's first queries of
    /// 20,000 feeds each insert a directory). An older revision loaded late
    /// gets none from a newer one, whose queries go on.
    func predecessor(of key: Key, besides layout: CachedLayout) -> CachedLayout? {
        for back in 0...Self.carriedRevisions {
            let revision = key.revision &- Int64(back)
            guard revision >= 0, let found = peek(LayoutCacheKey(layoutID: key.layoutID, revision: revision)), found !== layout else { continue }
            return found
        }
        return nil
    }

    /// How many revisions back a new directory looks for one to take
    /// frames from: every change in place bumps a layout's revision by
    /// one, and a reader queried between changes finds the one before.
    static var carriedRevisions: Int { 3 }
}
