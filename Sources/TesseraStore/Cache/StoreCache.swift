import Locking
import Synchronization

/// The store's one cache, shared by every reader and bounded by bytes:
/// resolved names, directories and their groups' verified frames, each
/// immutable under its key, least recently used first out (Architecture.md, "The one cache").
final class StoreCache: Sendable {
    /// An entry as the list holds it: one reference, so that a lookup
    /// copies one word (its key is kept apart, for eviction).
    private enum Entry {
        case name(LayoutRecordBox)
        case directory(CachedLayout)
    }

    private enum Key {
        case name(ResolvedName)
        case directory(LayoutCacheKey)
    }

    /// An entry and, for a directory, the frames its slots hold.
    private struct Cached {
        var entry: Entry
        var frameBytes = 0
        var frameGroups = 0
    }

    /// The entries in one list in the order of their last use, and an
    /// index of each kind: a directory's key is 16 bytes, a name's 80, and
    /// a query that misses probes both tables, so each stays as small as its keys.
    private struct State {
        var list: LRUList<Cached>
        /// Each node's key, by node.
        var keys: [Key?] = []
        var names: [ResolvedName: Int]
        var directories: [LayoutCacheKey: Int]
        var evictions = 0
        var frameBytes = 0
        var frameGroups = 0

        init(budget: Int) {
            // Room for as many small feeds' entries as the budget holds (a directory about 1 KiB, a name about 300
            // bytes, up to 2¹⁶ each): first queries of thousands of feeds never wait for a table to grow and rehash.
            let (names, directories) = (min(1 << 16, budget >> 12), min(1 << 16, budget >> 11))
            self.names = Dictionary(minimumCapacity: names)
            self.directories = Dictionary(minimumCapacity: directories)
            list = LRUList(capacity: names + directories)
            keys.reserveCapacity(names + directories)
        }

        /// The node of `key`'s directory, tried first at `slot` (a hint that may be stale).
        func directory(_ key: LayoutCacheKey, near slot: Int = -1) -> (node: Int, directory: CachedLayout)? {
            if list.holds(slot), case .directory(let held)? = keys[slot], held == key, case .directory(let directory) = list[slot].entry {
                return (slot, directory)
            }
            guard let node = directories[key], case .directory(let directory) = list[node].entry else { return nil }
            return (node, directory)
        }

        /// Adds `entry` under `key` as the most recently used; its node.
        mutating func add(_ entry: Entry, _ key: Key, bytes: Int) -> Int {
            let node = list.add(Cached(entry: entry), bytes: bytes)
            if node == keys.count { keys.append(key) } else { keys[node] = key }
            // One hash: the key's old node, if any, comes back from the update.
            let old = switch key {
            case .name(let name): names.updateValue(node, forKey: name)
            case .directory(let key): directories.updateValue(node, forKey: key)
            }
            if let old { drop(old) }
            return node
        }

        /// Counts `bytes` and `groups` of frames more (fewer when negative) in `node`.
        mutating func charge(_ node: Int, frameBytes bytes: Int, groups: Int) {
            list.charge(node, bytes)
            list[node].frameBytes += bytes
            list[node].frameGroups += groups
            frameBytes += bytes
            frameGroups += groups
        }

        /// Empties the slots of `node`'s directory and stops counting them.
        mutating func emptyFrames(_ node: Int) {
            guard case .directory(let directory) = list[node].entry, list[node].frameGroups > 0 else { return }
            directory.emptySlots()
            charge(node, frameBytes: -list[node].frameBytes, groups: -list[node].frameGroups)
        }

        /// Empties `node`'s frames if the directory with `bytes` more would
        /// outgrow `budget` alone; whether `bytes` more then fit.
        mutating func makeRoom(in node: Int, for bytes: Int, budget: Int) -> Bool {
            guard list.bytes(node) + bytes > budget else { return true }
            emptyFrames(node)
            evictions += 1
            return list.bytes(node) + bytes <= budget
        }

        /// Removes `node` and its index entry.
        mutating func remove(_ node: Int) {
            switch keys[node] {
            case .name(let name)?: names[name] = nil
            case .directory(let key)?: directories[key] = nil
            case nil: break
            }
            drop(node)
        }

        /// Removes `node` from the list, its frames emptied; its index entry is the caller's.
        private mutating func drop(_ node: Int) {
            emptyFrames(node)
            keys[node] = nil
            list.remove(node)
        }

        /// Adds `directory` under `key`, charged `bytes` and the frames
        /// `moved` into it, then keeps the budget.
        mutating func add(_ directory: CachedLayout, for key: LayoutCacheKey, bytes: Int, moved: (bytes: Int, groups: Int), budget: Int) {
            let node = add(.directory(directory), .directory(key), bytes: bytes)
            directory.cacheSlot.store(node, ordering: .relaxed)
            charge(node, frameBytes: moved.bytes, groups: moved.groups)
            _ = makeRoom(in: node, for: 0, budget: budget)
            evict(toFit: budget, keeping: node)
        }

        /// The cached directory, other than `directory`, of `key`'s layout at the latest revision among `key`'s and
        /// the ``StoreCache/carriedRevisions`` before it: an older revision loaded late gets no frames from a newer one.
        func predecessor(of key: LayoutCacheKey, besides directory: CachedLayout) -> (key: LayoutCacheKey, directory: CachedLayout)? {
            for back in 0...StoreCache.carriedRevisions {
                let candidate = LayoutCacheKey(layoutID: key.layoutID, revision: key.revision &- Int64(back))
                guard candidate.revision >= 0, let found = self.directory(candidate), found.directory !== directory else { continue }
                return (candidate, found.directory)
            }
            return nil
        }

        /// Drops the least recently used entries other than `kept` until
        /// `budget` holds everything.
        mutating func evict(toFit budget: Int, keeping kept: Int) {
            while list.bytes > budget, let victim = list.leastRecentlyUsed(besides: kept) {
                remove(victim)
                evictions += 1
            }
        }
    }

    /// The bytes every entry together may take; 0 turns the cache off.
    let budget: Int
    /// Whether directories keep their groups' frames.
    let cachesFrames: Bool
    private let state: Locked<State>
    /// Lookups of one kind of entry, counted outside the lock (a hit takes
    /// one lock, not two) once the query that made them has its answer: a
    /// read whose body runs twice looks up twice.
    final class Uses: Sendable {
        let hits = Atomic<Int>(0)
        let misses = Atomic<Int>(0)

        func count(hit: Bool) { count(hits: hit ? 1 : 0, misses: hit ? 0 : 1) }

        func count(hits found: Int, misses missed: Int) {
            if found > 0 { hits.add(found, ordering: .relaxed) }
            if missed > 0 { misses.add(missed, ordering: .relaxed) }
        }
    }
    let nameUses = Uses(), directoryUses = Uses(), frameUses = Uses()

    /// A cache of `budget` bytes; directories keep frames when `cachesFrames`.
    init(budget: Int, cachesFrames: Bool = true) {
        self.budget = max(0, budget)
        self.cachesFrames = cachesFrames && budget > 0
        state = Locked(State(budget: self.budget))
    }

    // MARK: Names

    /// The layout resolved under `key`, marked as just used; not counted.
    func resolved(_ key: ResolvedName) -> LayoutRecordBox? {
        state.withLock { state in
            guard let node = state.names[key], case .name(let box) = state.list[node].entry else { return nil }
            state.list.markUsed(node)
            return box
        }
    }

    /// The layout resolved under `key` and its directory, both marked as
    /// just used, under one lock; nil unless both are cached. Not counted.
    func resolvedWithDirectory(_ key: ResolvedName) -> (box: LayoutRecordBox, directory: CachedLayout)? {
        state.withLock { state in
            guard let node = state.names[key], case .name(let box) = state.list[node].entry else { return nil }
            // Where the directory was found last: no hash while it stays there.
            let hint = box.directorySlot.load(ordering: .relaxed)
            guard let found = state.directory(box.directoryKey, near: hint) else { return nil }
            if found.node != hint { box.directorySlot.store(found.node, ordering: .relaxed) }
            state.list.markUsed(node)
            state.list.markUsed(found.node)
            return (box, found.directory)
        }
    }

    /// Caches `box` as the layout resolved under `key`, taking `bytes`.
    func insert(_ box: LayoutRecordBox, bytes: Int, for key: ResolvedName) {
        guard bytes <= budget else { return }
        state.withLock { state in
            let node = state.add(.name(box), .name(key), bytes: bytes)
            state.evict(toFit: budget, keeping: node)
        }
    }

    // MARK: Directories

    /// The directory of `key`, marked as just used; nil when absent. Not counted.
    func directory(_ key: LayoutCacheKey) -> CachedLayout? {
        state.withLock { state in
            guard let found = state.directory(key) else { return nil }
            state.list.markUsed(found.node)
            return found.directory
        }
    }

    /// Whether the directory of `key` is cached, without a use.
    func containsDirectory(_ key: LayoutCacheKey) -> Bool {
        state.withLock { $0.directories[key] != nil }
    }

    /// Caches `directory` as the directory of `key`, first moving into it the frames it shares with the latest other
    /// cached revision (`State.predecessor(of:besides:)`; Architecture.md, "The one cache").
    func insert(_ directory: CachedLayout, for key: LayoutCacheKey) {
        let bytes = directory.byteCount
        guard bytes <= budget else { return }
        // Most directories have no predecessor (a feed's first query): added at once.
        let previous: (key: LayoutCacheKey, directory: CachedLayout)? = state.withLock { state in
            if cachesFrames, let previous = state.predecessor(of: key, besides: directory) { return previous }
            state.add(directory, for: key, bytes: bytes, moved: (0, 0), budget: budget)
            return nil
        }
        guard let previous else { return }
        // Mapped outside the lock: one pass over both directories.
        let target = directory.slots(carriedFrom: previous.directory)
        state.withLock { state in
            var moved = (bytes: 0, groups: 0)
            if let old = state.directory(previous.key), old.directory === previous.directory {
                moved = directory.moveFrames(from: previous.directory, slots: target)
                state.charge(old.node, frameBytes: -moved.bytes, groups: -moved.groups)
            }
            state.add(directory, for: key, bytes: bytes, moved: moved, budget: budget)
        }
    }

    /// How many revisions back a new directory looks for one to take
    /// frames from: every change in place bumps a layout's revision by
    /// one, and a reader queried between changes finds the one before.
    static var carriedRevisions: Int { 3 }

    // MARK: Frames

    /// Puts `frames` in slot `ordinal` of `directory`, cached as `key`, and
    /// charges it for them; nothing when the directory is not cached (its
    /// frames would outlive no query) or the slot is already filled.
    func fill(_ frames: CachedFrames, ordinal: Int, of directory: CachedLayout, key: LayoutCacheKey) {
        guard cachesFrames else { return }
        let bytes = frames.byteCount
        state.withLock { state in
            guard let (node, held) = state.directory(key, near: directory.cacheSlot.load(ordering: .relaxed)), held === directory else { return }
            guard state.makeRoom(in: node, for: bytes, budget: budget), directory.fill(ordinal, with: frames) else { return }
            state.charge(node, frameBytes: bytes, groups: 1)
            state.evict(toFit: budget, keeping: node)
        }
    }

    // MARK: Everything

    /// The cached directories, without a use: a pass over every entry (for
    /// tests; never on a query's path).
    func directories() -> [(key: LayoutCacheKey, directory: CachedLayout)] {
        state.withLock { state in
            state.list.allNodes.compactMap { node in
                guard case .directory(let key)? = state.keys[node], case .directory(let directory) = state.list[node].entry else { return nil }
                return (key, directory)
            }
        }
    }

    /// What the cache holds and how it was used.
    var statistics: CacheStatistics {
        state.withLock { state in
            CacheStatistics(
                bytes: state.list.bytes, budget: budget, layouts: state.directories.count,
                hits: directoryUses.hits.load(ordering: .relaxed), misses: directoryUses.misses.load(ordering: .relaxed), evictions: state.evictions,
                names: state.names.count, nameHits: nameUses.hits.load(ordering: .relaxed), nameMisses: nameUses.misses.load(ordering: .relaxed),
                frameGroups: state.frameGroups, frameBytes: state.frameBytes,
                frameHits: frameUses.hits.load(ordering: .relaxed), frameMisses: frameUses.misses.load(ordering: .relaxed)
            )
        }
    }
}

/// A layout's revision: the key of its directory in the ``StoreCache``.
struct LayoutCacheKey: Hashable, Sendable {
    var layoutID: Int64
    var revision: Int64
}

extension LayoutRecord {
    /// The key of this revision's directory.
    var cacheKey: LayoutCacheKey { LayoutCacheKey(layoutID: layout.id, revision: revision) }
}
