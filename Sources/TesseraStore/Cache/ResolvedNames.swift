import Synchronization
import TesseraLayout

/// Layouts resolved by name and extent, shared by every reader of a store
/// that sees the same committed state (one ``SnapshotTag``), and bounded by
/// bytes: a query of a layout another reader resolved in the same state
/// skips the lookup of its row. A backend that can name a read's state
/// exactly uses it in its ``LayoutReads/freshLayout(name:crossExtent:)``.
///
/// Keyed by the tag, so an entry is never right for another state: after a
/// commit, readers take new snapshots with new tags, and the entries of the
/// old state are no longer found; they go first when the budget is reached
/// (least recently used).
package typealias ResolvedNames = ByteBudgetCache<ResolvedName, LayoutRecordBox>

/// FNV-1a's 64-bit prime, by which tags and names are mixed into a key's hash.
private let fnvPrime: UInt64 = 0x100_0000_01B3

/// Names the committed state a read sees, exactly: two reads with equal
/// tags see the same rows, whichever connection or process runs them. A
/// backend gives one when it can tell for sure (a file-backed store in WAL mode: the
/// WAL index's header, unchanged from before the read began until after its
/// snapshot was taken); what one read resolved is then right for the others.
package struct SnapshotTag: Hashable, Sendable {
    // Inline, not an array: a query answered from memory makes one per
    // query, and allocates nothing.
    private var first: (UInt64, UInt64, UInt64)
    private var second: (UInt64, UInt64, UInt64)

    /// A tag of up to six words.
    package init(words: [UInt64]) {
        precondition(words.count <= 6, "a snapshot tag holds at most six words")
        let word = { (index: Int) in index < words.count ? words[index] : 0 }
        self.init(word(0), word(1), word(2), word(3), word(4), word(5))
    }

    package init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64, _ w4: UInt64, _ w5: UInt64) {
        first = (w0, w1, w2)
        second = (w3, w4, w5)
    }

    package static func == (lhs: SnapshotTag, rhs: SnapshotTag) -> Bool {
        lhs.first == rhs.first && lhs.second == rhs.second
    }

    /// `seed` and the six words, mixed (FNV-1a, a word at a time).
    func mixed(into seed: UInt64) -> UInt64 {
        let mix = { (word: UInt64, part: UInt64) in (word ^ part) &* fnvPrime }
        return mix(mix(mix(mix(mix(mix(seed, first.0), first.1), first.2), second.0), second.1), second.2)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(first.0)
        hasher.combine(first.1)
        hasher.combine(first.2)
        hasher.combine(second.0)
        hasher.combine(second.1)
        hasher.combine(second.2)
    }
}

/// A spec name and extent as seen in one committed state.
package struct ResolvedName: Hashable, Sendable {
    let tag: SnapshotTag
    let name: String
    let crossExtent: Double
    /// The hash of all three, computed once: a query that misses looks the
    /// key up twice and inserts it, which hashes it four times more (its
    /// part of the cache, its table's lookups), and every probe of a table
    /// compares this word first.
    private let hash: Int

    init(tag: SnapshotTag, name: String, crossExtent: Double) {
        // FNV-1a, a word of the tag at a time, then the name's bytes: cheaper
        // than `Hasher` on every warm query, and the table hashes this word
        // with its own seed. Only names of stored layouts are ever cached.
        var word = tag.mixed(into: 0xCBF2_9CE4_8422_2325 ^ crossExtent.bitPattern)
        for byte in name.utf8 { word = (word ^ UInt64(byte)) &* fnvPrime }
        self.tag = tag
        self.name = name
        self.crossExtent = crossExtent
        hash = Int(truncatingIfNeeded: word)
    }

    package static func == (lhs: ResolvedName, rhs: ResolvedName) -> Bool {
        lhs.hash == rhs.hash && lhs.crossExtent == rhs.crossExtent && lhs.tag == rhs.tag && lhs.name == rhs.name
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The bytes an entry takes at least: the key, the boxed record and the
    /// cache's bookkeeping (about 64 bytes).
    static var fixedBytes: Int { MemoryLayout<ResolvedName>.stride + LayoutRecordBox.bytes + 64 }

    /// The bytes an entry takes, for the budget: ``fixedBytes`` and the
    /// strings and summary.
    func bytes(of record: LayoutRecord) -> Int {
        Self.fixedBytes + name.utf8.count + record.layout.specName.utf8.count + (record.directorySummary?.count ?? 0)
    }
}

extension ByteBudgetCache where Key == ResolvedName, Value == LayoutRecordBox {
    /// A cache of resolved names for a store whose directory cache has `cacheBudget` bytes.
    package convenience init(cacheBudget: Int) {
        self.init(budget: Self.budget(cacheBudget: cacheBudget), shards: 8, entryBytes: ResolvedName.fixedBytes)
    }

    /// The share of the cache budget that resolved names may take, on top
    /// of the directories' budget: an eighth (8 MiB of the default, about
    /// 25,000 names).
    static func budget(cacheBudget: Int) -> Int { cacheBudget / 8 }

    /// The fresh layout of `name` at `crossExtent` in the state `tag`
    /// names: from the cache, else resolved by `reads` (and cached).
    package func freshLayout(name: String, crossExtent: Double, tag: SnapshotTag, reads: any LayoutReads) throws -> LayoutRecord? {
        let key = ResolvedName(tag: tag, name: name, crossExtent: crossExtent)
        if let layout = value(key) { return layout.record }
        guard let layout = try reads.freshLayoutRecord(name: name, crossExtent: crossExtent) else { return nil }
        // Without its directory summary: the query that resolved the name
        // put the directory in the layout cache, and a summary in every entry
        // took three times the bytes (names of 20,000 small feeds no longer fit).
        var kept = layout
        kept.directorySummary = nil
        insert(LayoutRecordBox(kept), bytes: key.bytes(of: kept), for: key)
        return layout
    }
}

/// What one connection of a backend remembers of the layouts it resolved
/// by name, valid while the connection's change counter stays (a number
/// that changes whenever another connection committed since it last
/// asked): for a backend that cannot name a state exactly. Used by one
/// connection at a time.
package final class ResolvedLayouts {
    private static let maximum = 4096

    private struct Key: Hashable {
        var name: String
        var crossExtent: Double
    }

    private var resolved: [Key: LayoutRecord] = [:]
    private var version: Int64?
    /// The keys of `resolved` in the order they were added: when full, the
    /// oldest goes (a dictionary has no cheap "some key": taking its first
    /// scans from the start of its table, longer after every removal).
    private var order: [Key] = []
    private var oldest = 0

    package init() {}

    /// The fresh layout of `name` at `crossExtent`: remembered under
    /// `counter` when `reuse` allows, else resolved by `reads` (and
    /// remembered). `reuse` false: a read whose counter may lag commits
    /// resolves in its own snapshot what its other rows must match.
    package func freshLayout(
        name: String, crossExtent: Double, counter: Int64, reuse: Bool, reads: any LayoutReads
    ) throws -> LayoutRecord? {
        if counter != version {
            resolved.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            oldest = 0
            version = counter
        }
        let key = Key(name: name, crossExtent: crossExtent)
        if reuse, let layout = resolved[key] { return layout }
        guard let layout = try reads.freshLayoutRecord(name: name, crossExtent: crossExtent) else { return nil }
        if resolved.updateValue(layout, forKey: key) != nil { return layout }
        // Full: the oldest entry goes, not all.
        if order.count < Self.maximum {
            order.append(key)
        } else {
            resolved[order[oldest]] = nil
            order[oldest] = key
            oldest = (oldest + 1) % Self.maximum
        }
        return layout
    }
}

extension LayoutStore {
    /// What the shared cache of resolved names holds (`layouts`: names
    /// cached), and its hits and misses. Shared only between readers that
    /// see the same committed state, and only where the backend can tell
    /// that (a file-backed store in WAL mode): elsewhere each reader
    /// connection keeps the few it resolved last (all zero here).
    public var resolvedNameStatistics: CacheStatistics {
        resolvedNames?.statistics ?? CacheStatistics(bytes: 0, budget: 0, layouts: 0, hits: 0, misses: 0, evictions: 0)
    }
}

/// A resolved layout's row, as the resolved names hold it and a reader
/// takes it (one reference, no copy), with a weak link to its directory:
/// a warm query follows the link instead of looking the directory up.
package final class LayoutRecordBox: Sendable {
    package let record: LayoutRecord
    private let link = Mutex(Link())

    private struct Link {
        weak var directory: CachedLayout?
        var uses = 0
    }

    /// Uses of the link between two lookups in the directory cache, which
    /// keep the directory recent there; weak, so the cache alone decides
    /// how long a directory lives.
    private static let usesBetweenLookups = 64

    init(_ record: LayoutRecord) {
        self.record = record
    }

    /// The bytes a box takes: an object's header (two words), the record and the link.
    static var bytes: Int { 16 + MemoryLayout<LayoutRecord>.stride + MemoryLayout<Mutex<Link>>.stride }

    /// The layout's directory from `cache`, through the link while it
    /// holds one (looked up again every ``usesBetweenLookups`` uses); nil
    /// when the cache does not hold it. The use is not counted.
    func directory(in cache: LayoutCache) -> CachedLayout? {
        let linked = link.withLock { link -> CachedLayout? in
            link.uses &+= 1
            guard link.uses < Self.usesBetweenLookups else {
                link.uses = 0
                return nil
            }
            return link.directory
        }
        if let linked { return linked }
        let found = cache.layout(LayoutCacheKey(layoutID: record.layout.id, revision: record.revision))
        link.withLock { $0.directory = found }
        return found
    }
}
