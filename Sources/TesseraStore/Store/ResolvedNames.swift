import TesseraLayout

/// Layouts resolved by name and extent, shared by every reader of a store
/// that sees the same committed state (one ``SnapshotTag``), and bounded by
/// bytes: a query of a layout another reader resolved in the same state
/// skips the lookup of its row.
///
/// Keyed by the tag, so an entry is never right for another state: after a
/// commit, readers take new snapshots with new tags, and the entries of the
/// old state are no longer found; they go first when the budget is reached
/// (least recently used).
typealias ResolvedNames = ByteBudgetCache<ResolvedName, LayoutRecord>

/// A spec name and extent as seen in one committed state.
struct ResolvedName: Hashable, Sendable {
    var tag: SnapshotTag
    var name: String
    var crossExtent: Double

    /// The bytes an entry takes, for the budget: the key, the record and
    /// their strings, and the cache's bookkeeping (about 64 bytes).
    func bytes(of record: LayoutRecord) -> Int {
        MemoryLayout<ResolvedName>.stride + MemoryLayout<LayoutRecord>.stride + 64
            + 8 * tag.words.count + name.utf8.count + record.layout.specName.utf8.count
    }
}

extension LayoutStore {
    /// The share of the cache budget that resolved names may take, on top
    /// of the directories' budget: an eighth (8 MiB of the default, about
    /// 25,000 names).
    static func resolvedNamesBudget(cacheBudget: Int) -> Int { cacheBudget / 8 }

    /// What the shared cache of resolved names holds (`layouts`: names
    /// cached), and its hits and misses. Shared only between readers that
    /// see the same committed state, and only where the backend can tell
    /// that (a file-backed store in WAL mode): elsewhere each reader connection keeps
    /// the few it resolved last.
    public var resolvedNameStatistics: CacheStatistics { resolvedNames.statistics }
}
