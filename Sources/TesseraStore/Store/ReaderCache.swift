import TesseraLayout

/// What a reader remembers between queries, used by one read at a time
/// (the store lends one to each read, see ``ReaderCaches``): the layouts
/// it answered from memory and the directories it used lately, keyed by
/// what names immutable bytes, so they are right in any snapshot and a
/// reader cache is tied to no connection; and the arrays a query lends
/// itself.
final class ReaderCache {
    /// The store's shared cache of verified frames.
    let frames: FrameCache
    /// The store's location, for errors: a query names it only when it
    /// fails, so it costs a read none.
    let location: String

    init(frames: FrameCache, location: String) {
        self.frames = frames
        self.location = location
    }

    /// Uses of the store's shared caches that queries through this reader
    /// cache counted: kept here, not in the caches' counters, which every
    /// reader of the store would otherwise update with an atomic operation
    /// on one shared line at each query. ``ReaderCaches`` adds them to the
    /// caches' counts when statistics are read, or when it drops this one.
    @exclusivity(unchecked) var counted = CountedUses()

    /// Arrays a query lends itself for its candidate groups (see `takeScratch`).
    @exclusivity(unchecked) private var scratch = GroupScratch()

    /// Empty arrays with the capacity of earlier queries, for one query's
    /// candidate groups and their cached frames: hand them back with `giveBack`.
    func takeScratch() -> GroupScratch {
        // Swapped, not copied: a copy would retain both arrays.
        var taken = GroupScratch()
        swap(&taken, &scratch)
        return taken
    }

    /// Takes back what `takeScratch` lent, emptying it (`lent` is left empty).
    func giveBack(_ lent: inout GroupScratch) {
        lent.positions.removeAll(keepingCapacity: true)
        lent.found.removeAll(keepingCapacity: true)
        // Used only by a query that misses: a warm one leaves them empty.
        if !lent.missing.isEmpty { lent.missing.removeAll(keepingCapacity: true) }
        if !lent.keys.isEmpty { lent.keys.removeAll(keepingCapacity: true) }
        swap(&lent, &scratch)
    }

    /// Layouts this reader cache answered from memory lately, by name and
    /// extent: the committed state they were resolved in, their record and
    /// directory, found by one lookup and no lock (see `layout(_:in:names:directories:)`).
    @exclusivity(unchecked) private var answered: [AnsweredKey: Answered] = [:]
    /// As many as a server's hot layouts (8 feeds × 8 widths, and more):
    /// each holds a directory the shared cache holds too, but for those it
    /// evicted since (dropped here within `usesBetweenLookups`).
    private static let maximumAnswered = 128

    /// A layout's name and extent, hashed as one word (FNV-1a of the name's
    /// bytes with the extent's bits): a warm query makes one per query.
    private struct AnsweredKey: Hashable {
        let key: LayoutKey
        let word: UInt64

        init(_ key: LayoutKey) {
            self.key = key
            var word: UInt64 = 0xCBF2_9CE4_8422_2325 ^ key.crossExtent.bitPattern
            for byte in key.name.utf8 { word = (word ^ UInt64(byte)) &* 0x100_0000_01B3 }
            self.word = word
        }

        static func == (lhs: AnsweredKey, rhs: AnsweredKey) -> Bool { lhs.word == rhs.word && lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(word) }
    }

    /// A class: a use is counted in place, with no second lookup, and a
    /// query takes one reference rather than a copy of the record.
    final class Answered {
        let key: LayoutKey
        let state: SnapshotTag
        /// The layout's row, handed to a reader as it is (no copy).
        let box: LayoutRecordBox
        let directory: CachedLayout
        @exclusivity(unchecked) var uses = 0

        init(key: LayoutKey, state: SnapshotTag, record: LayoutRecord, directory: CachedLayout) {
            self.key = key
            self.state = state
            box = LayoutRecordBox(record)
            self.directory = directory
        }

        /// Counts a use in the committed state `state`: true while the
        /// entry answers it from here; false for another state, or once it
        /// is due to be looked up again (``ReaderCache/usesBetweenLookups``).
        func reuse(in state: SnapshotTag) -> Bool {
            guard self.state == state else { return false }
            uses += 1
            return uses < ReaderCache.usesBetweenLookups
        }
    }

    /// The record and directory of the fresh layout of `key` in the
    /// committed state `state`: from the layouts answered lately, else
    /// from the layouts `names` resolved in that state and the directories
    /// `shared` holds (and remembered); nil when either lacks it. Every
    /// `usesBetweenLookups` uses it is looked up there again, which keeps
    /// it recent there and drops it here once evicted there. Uses are not
    /// counted (the caller counts an answer).
    func layout(
        _ layoutKey: LayoutKey, in state: SnapshotTag, names: ResolvedNames, directories shared: LayoutCache
    ) -> Answered? {
        // The layout this reader cache answered last, compared without hashing.
        if let last = lastAnswered, last.key == layoutKey, last.reuse(in: state) { return last }
        let key = AnsweredKey(layoutKey)
        let existing = answered[key]
        if let entry = existing, entry.reuse(in: state) {
            lastAnswered = entry
            return entry
        }
        guard let record = names.value(ResolvedName(tag: state, name: layoutKey.name, crossExtent: layoutKey.crossExtent), counting: false),
              let directory = shared.layout(LayoutCacheKey(layoutID: record.layout.id, revision: record.revision))
        else {
            // A layout's first query had nothing here to drop: no second lookup.
            if existing != nil { answered[key] = nil }
            if lastAnswered?.key == layoutKey { lastAnswered = nil }
            return nil
        }
        if answered.count >= Self.maximumAnswered, existing == nil { answered.removeAll(keepingCapacity: true) }
        let entry = Answered(key: layoutKey, state: state, record: record, directory: directory)
        answered[key] = entry
        lastAnswered = entry
        return entry
    }

    /// The entry of `answered` this reader cache returned last (a server's
    /// reader answers the same layout many times in a row).
    @exclusivity(unchecked) private var lastAnswered: Answered?

    /// Directories this reader took from the shared cache lately: a
    /// query finds its own here without taking the shared cache's lock,
    /// which every reader of the store contends for.
    private var directories: [LayoutCacheKey: RecentDirectory] = [:]
    private static let maximumDirectories = 8
    /// Uses of a directory found here between two lookups in the shared
    /// cache, which keep it recent there and drop it here once evicted
    /// there (so that memory stays within the shared cache's budget but
    /// for these few).
    private static let usesBetweenLookups = 64

    private struct RecentDirectory {
        var layout: CachedLayout
        var uses: Int
    }

    /// The directory of `key`, from this reader's recent ones or from
    /// the shared cache; nil when the shared cache does not hold it. The
    /// use is not counted (see ``LayoutCache``).
    func directory(_ key: LayoutCacheKey, in shared: LayoutCache) -> CachedLayout? {
        if var recent = directories[key] {
            recent.uses += 1
            guard recent.uses < Self.usesBetweenLookups else {
                directories[key] = nil
                return remember(shared.layout(key), for: key)
            }
            directories[key] = recent
            return recent.layout
        }
        return remember(shared.layout(key), for: key)
    }

    private func remember(_ layout: CachedLayout?, for key: LayoutCacheKey) -> CachedLayout? {
        guard let layout else { return nil }
        if directories.count >= Self.maximumDirectories { directories.removeAll(keepingCapacity: true) }
        directories[key] = RecentDirectory(layout: layout, uses: 0)
        return layout
    }
}

/// One query's candidate groups of a section (positions in the section)
/// and their frames found cached (nil where not); of those not found, where
/// they are among the candidates and their keys.
struct GroupScratch {
    var positions: [Int] = []
    var found: [CachedFrames?] = []
    var missing: [Int] = []
    var keys: [FramesKey] = []

    /// Visits the cached frames of the candidates in `range`, in item order.
    @inline(__always)
    func visitFound(_ range: Range<Int>, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) {
        for index in range {
            found[index]?.visit(firstItem: SectionGroups.firstItem(at: positions[index]), bounds: bounds, visit)
        }
    }
}
