import Synchronization
import TesseraLayout

/// FNV-1a's 64-bit prime, by which tags and names are mixed into a key's hash.
private let fnvPrime: UInt64 = 0x100_0000_01B3

/// Names the committed state a read sees, exactly: reads with equal tags see the same rows, whatever connection or
/// process runs them. A backend gives one only when sure (a file in WAL mode: the WAL index's header, unchanged from
/// before the read began until after its snapshot was taken); what one read resolved is then right for the others.
package struct SnapshotTag: Hashable, Sendable {
    // Six words inline, not an array: a query answered from memory makes
    // one per query, and allocates nothing.
    private var w0, w1, w2, w3, w4, w5: UInt64

    /// A tag of up to six words.
    package init(words: [UInt64]) {
        precondition(words.count <= 6, "a snapshot tag holds at most six words")
        let word = { (index: Int) in index < words.count ? words[index] : 0 }
        self.init(word(0), word(1), word(2), word(3), word(4), word(5))
    }

    package init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64, _ w4: UInt64, _ w5: UInt64) {
        (self.w0, self.w1, self.w2, self.w3, self.w4, self.w5) = (w0, w1, w2, w3, w4, w5)
    }

    /// `seed` and the six words, mixed (FNV-1a, a word at a time).
    func mixed(into seed: UInt64) -> UInt64 {
        let mix = { (word: UInt64, part: UInt64) in (word ^ part) &* fnvPrime }
        return mix(mix(mix(mix(mix(mix(seed, w0), w1), w2), w3), w4), w5)
    }
}

/// A spec name and extent as seen in one committed state.
package struct ResolvedName: Hashable, Sendable {
    let tag: SnapshotTag
    let name: String
    let crossExtent: Double
    /// The hash of all three, computed once: a query that misses hashes the key four times more (two lookups, an
    /// insert), and every probe of a table compares this word first.
    private let hash: Int

    init(tag: SnapshotTag, name: String, crossExtent: Double) {
        // FNV-1a, a word of the tag at a time, then the name's bytes: cheaper
        // than `Hasher` on every warm query, and the table hashes this word
        // with its own seed. Only names of stored layouts are ever cached.
        var word = tag.mixed(into: 0xCBF2_9CE4_8422_2325 ^ crossExtent.bitPattern)
        var utf8 = name
        utf8.withUTF8 { bytes in
            for byte in bytes { word = (word ^ UInt64(byte)) &* fnvPrime }
        }
        self.tag = tag
        self.name = name
        self.crossExtent = crossExtent
        hash = Int(truncatingIfNeeded: word)
    }

    package static func == (lhs: ResolvedName, rhs: ResolvedName) -> Bool {
        lhs.hash == rhs.hash && lhs.crossExtent == rhs.crossExtent && lhs.tag == rhs.tag && lhs.name == rhs.name
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The bytes an entry takes, for the budget: the key, the boxed record, the
    /// cache's bookkeeping (about 64 bytes), the strings and the summary.
    func bytes(of record: LayoutRecord) -> Int {
        MemoryLayout<ResolvedName>.stride + LayoutRecordBox.bytes + 64 + name.utf8.count + record.layout.specName.utf8.count
            + (record.directorySummary?.count ?? 0)
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

/// A resolved layout's row as the cache holds it and a reader takes it (one reference, no copy), with where its
/// directory was last found (Architecture.md, "The one cache"): a slot, not a weak reference, which would give the
/// directory a side table and send its every retain and release down Swift's slow path.
package final class LayoutRecordBox: Sendable {
    /// The directory's slot in the ``StoreCache``, or -1: a hint, checked
    /// against the key under the cache's lock.
    let directorySlot = Atomic<Int>(-1)
    /// The key of the layout's directory, made once.
    let directoryKey: LayoutCacheKey
    /// What every query reads of the record, copied out of it and laid out
    /// before it, beside the slot and the key: a warm query touches no
    /// `StoredLayout` and as few cache lines of the box as it can.
    let crossExtent: Double, overhang: Double, contentLength: Double, axis: Axis
    package let record: LayoutRecord

    init(_ record: LayoutRecord) {
        directoryKey = record.cacheKey
        (crossExtent, overhang) = (record.layout.crossExtent, record.overhang)
        (contentLength, axis) = (record.layout.contentLength, record.layout.axis)
        self.record = record
    }

    /// The bytes a box takes: an object's header (two words), the slot, the
    /// key, the copied fields and the record.
    static var bytes: Int {
        16 + MemoryLayout<Int>.stride + MemoryLayout<LayoutCacheKey>.stride
            + MemoryLayout<(Double, Double, Double, Axis)>.stride + MemoryLayout<LayoutRecord>.stride
    }
}

extension LayoutStore {
    /// The fresh layout of `name` at `crossExtent` as `storage` sees it:
    /// from the cache when the snapshot's scope lets it be reused, else
    /// resolved by `storage` (and cached under the scope's tag, when it has one).
    func resolvedLayout(name: String, crossExtent: Double, storage: RowSnapshot) throws -> LayoutRecord? {
        guard let scope = try storage.rows.resolutionScope, cache.budget > 0 else {
            return try storage.freshLayoutRecord(name: name, crossExtent: crossExtent)
        }
        let key = ResolvedName(tag: scope.tag, name: name, crossExtent: crossExtent)
        if scope.reuse {
            let box = cache.resolved(key)
            cache.nameUses.count(hit: box != nil)
            if let box { return box.record }
        }
        guard let layout = try storage.freshLayoutRecord(name: name, crossExtent: crossExtent) else { return nil }
        // Without its directory summary: the query that resolved the name
        // caches the directory itself, and a summary in every name took
        // three times the bytes (names of 20,000 small feeds no longer fit).
        var kept = layout
        kept.directorySummary = nil
        cache.insert(LayoutRecordBox(kept), bytes: key.bytes(of: kept), for: key)
        return layout
    }
}
