import Synchronization
import TesseraLayout

/// Layouts resolved by name and extent, shared by every reader of a store
/// and bounded by bytes: a query of a layout resolved before in the same
/// state skips the lookup of its row. The store resolves names here,
/// once, for every backend; a snapshot says under which state its
/// resolutions may be kept (`ReadSnapshot.resolutionScope`).
///
/// Keyed by the state's tag, so an entry is never right for another state:
/// after a commit, readers see new states with new tags, and the entries of
/// the old state are no longer found; they go first when the budget is
/// reached (least recently used).
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

    /// The hash computed once, which picks the key's part of the cache.
    var spread: Int { hash }

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
        self.init(budget: Self.budget(cacheBudget: cacheBudget), shards: 8, entryBytes: ResolvedName.fixedBytes, spread: { $0.spread })
    }

    /// The share of the cache budget that resolved names may take, on top
    /// of the directories' budget: an eighth (8 MiB of the default, about
    /// 25,000 names).
    static func budget(cacheBudget: Int) -> Int { cacheBudget / 8 }

    /// The fresh layout of `name` at `crossExtent` as `reads` sees it:
    /// from the cache when `scope` lets it be reused, else resolved by
    /// `reads` (and cached under `scope`'s tag, when there is one).
    package func freshLayout(name: String, crossExtent: Double, scope: ResolutionScope?, reads: RowSnapshot) throws -> LayoutRecord? {
        guard let scope else { return try reads.freshLayoutRecord(name: name, crossExtent: crossExtent) }
        let key = ResolvedName(tag: scope.tag, name: name, crossExtent: crossExtent)
        if scope.reuse, let layout = value(key) { return layout.record }
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

/// Where what a read snapshot resolves by name may be kept: under `tag`,
/// a state that every snapshot given the same tag sees alike; and whether
/// this snapshot may take what was kept there (`reuse`), or only add to it.
package struct ResolutionScope: Sendable {
    package var tag: SnapshotTag
    package var reuse: Bool

    package init(tag: SnapshotTag, reuse: Bool = true) {
        self.tag = tag
        self.reuse = reuse
    }
}

extension LayoutStore {
    /// What the shared cache of resolved names holds (`layouts`: names
    /// cached), and its hits and misses. An entry serves only readers that
    /// see the state it was resolved in, as far as the backend can tell:
    /// a SQLite reader's WAL snapshot (else that reader alone, until a
    /// commit), PostgreSQL's notified commit count, a store in memory's commit.
    public var resolvedNameStatistics: CacheStatistics { resolvedNames.statistics }
}

/// A resolved layout's row, as the resolved names hold it and a reader
/// takes it (one reference, no copy), with where its directory was last
/// found in the directory cache: a warm query looks there first, and hashes
/// nothing. Not a weak reference: that gives the directory a side table,
/// which sends every retain and release of it down Swift's slow path.
package final class LayoutRecordBox: Sendable {
    package let record: LayoutRecord
    /// The directory's slot in the ``LayoutCache``, or -1: a hint, checked
    /// against the key under the cache's lock.
    private let directorySlot = Atomic<Int>(-1)

    init(_ record: LayoutRecord) {
        self.record = record
    }

    /// The bytes a box takes: an object's header (two words), the record and the slot.
    static var bytes: Int { 16 + MemoryLayout<LayoutRecord>.stride + MemoryLayout<Int>.stride }

    /// The layout's directory from `cache`, marked as just used there; nil
    /// when the cache does not hold it. The use is not counted.
    func directory(in cache: LayoutCache) -> CachedLayout? {
        let hint = directorySlot.load(ordering: .relaxed)
        let key = LayoutCacheKey(layoutID: record.layout.id, revision: record.revision)
        guard let found = cache.value(key, near: hint) else { return nil }
        if found.slot != hint { directorySlot.store(found.slot, ordering: .relaxed) }
        return found.value
    }
}
