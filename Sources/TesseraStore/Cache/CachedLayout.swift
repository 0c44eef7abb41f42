import CTesseraPrefetch
import Locking
import Synchronization
import TesseraLayout
import TesseraStoreFormat

/// A layout's directory as the ``StoreCache`` holds it: its sections, and its groups numbered across them in order (a
/// group's ordinal is its slot in ``slots``), ids, checksums and bounds each one array (Architecture.md, step 3). A
/// class: a query takes it from the cache with one retain, where the arrays would cost one each.
final class CachedLayout: Sendable {
    let sections: [SectionRecord]
    /// The sections' scroll-axis ends and starts, apart: a binary search
    /// over a few contiguous doubles misses the processor's cache far less
    /// often than one over the geometries.
    private let ends: [Double]
    private let starts: [Double]
    /// The ordinal of each section's first group, and the group count last.
    let groupStarts: [Int]
    let ids: [Int64]
    /// The ``Checksum`` of each group's frames.
    let checksums: [Int64]
    let bounds: [QueryBounds]
    /// The bounds index of each section with more than ``indexedAbove`` groups, by section.
    private let indexes: [Int: FrameIndex]
    static let indexedAbove = 64
    /// The verified frames of the groups queries met lately, one slot per group, filled and emptied by the ``StoreCache``
    /// (which charges their bytes to this entry); a directory names one revision, so a filled slot stays right.
    let slots: Locked<[CachedFrames?]>
    /// A hash derived from it once (``WholeLayout/derivedHash(_:)``, the
    /// tile revision), or 0: a directory never changes, so neither does it.
    let derivedHash = Atomic<UInt64>(0)
    /// Its node in the ``StoreCache`` once cached, or -1: a hint, checked
    /// against the key under the cache's lock (a fill finds it without a hash).
    let cacheSlot = Atomic<Int>(-1)
    /// How many slots hold frames, changed under the slots' lock (none: a read reads ahead, ``LayoutReader``).
    private let filled = Atomic<Int>(0)

    /// The directory of `sections` and the `groups` collected for them,
    /// with the bounds index of each section that has more than ``indexedAbove``.
    init(sections: [SectionRecord], groups: consuming LayoutGroups) {
        self.sections = sections
        ends = sections.map(\.geometry.end)
        starts = sections.map(\.geometry.start)
        (groupStarts, ids, checksums, bounds) = (groups.starts, groups.ids, groups.checksums, groups.bounds)
        var indexes: [Int: FrameIndex] = [:]
        for section in 0..<(groupStarts.count - 1) where groupStarts[section + 1] - groupStarts[section] > Self.indexedAbove {
            indexes[section] = FrameIndex(bounds: Array(bounds[groupStarts[section]..<groupStarts[section + 1]]))
        }
        self.indexes = indexes
        slots = Locked([CachedFrames?](repeating: nil, count: ids.count))
    }

    /// The bytes its arrays take, for the cache's budget.
    var byteCount: Int {
        // The object (its header, references, atomics and lock), then its arrays.
        var total = 248 + sections.capacity * MemoryLayout<SectionRecord>.stride
            + (ends.capacity + starts.capacity) * MemoryLayout<Double>.stride + groupStarts.capacity * MemoryLayout<Int>.stride
            + (ids.capacity + checksums.capacity) * MemoryLayout<Int64>.stride + bounds.capacity * MemoryLayout<QueryBounds>.stride
            + ids.count * MemoryLayout<CachedFrames?>.stride
        for index in indexes.values { total += 48 + index.byteCount }
        return total
    }

    /// The indices of the sections whose scroll range meets [low, high],
    /// empty ones included (``SectionSearch``): no array made.
    func sectionRange(from low: Double, through high: Double) -> Range<Int> {
        ends.withUnsafeBufferPointer { ends in
            starts.withUnsafeBufferPointer { starts in
                SectionSearch.sections(from: low, through: high, count: ends.count, end: { ends[$0] }, start: { starts[$0] })
            }
        }
    }

    /// The ordinals of section `section`'s groups (empty for no such section).
    func ordinals(ofSection section: Int) -> Range<Int> {
        guard section >= 0, section &+ 1 < groupStarts.count else { return 0..<0 }
        return groupStarts[section]..<groupStarts[section &+ 1]
    }

    /// Calls `body` with the position in its section of each group of
    /// `section`, from `ordinals` (``ordinals(ofSection:)``), whose bounds
    /// may meet `query`, in item order.
    @inline(__always)
    func forEachCandidate(section: Int, ordinals: Range<Int>, in query: QueryBounds, _ body: (Int) -> Void) {
        bounds.withUnsafeBufferPointer { bounds in
            let base = ordinals.lowerBound
            if ordinals.count > Self.indexedAbove, let index = indexes[section] {
                index.forEachCandidate(in: query, frameCount: ordinals.count) { position in
                    if bounds[base &+ position].mayIntersect(query) { body(position) }
                }
            } else {
                for ordinal in ordinals where bounds[ordinal].mayIntersect(query) { body(ordinal &- base) }
            }
        }
    }

    // MARK: Frames

    /// Sets `found[i]` to the frames of group `base + positions[i]` (nil
    /// where the slot is empty); how many were there. `found` is
    /// initialized and has room for every position.
    func frames(base: Int, positions: UnsafeBufferPointer<Int>, into found: UnsafeMutableBufferPointer<CachedFrames?>) -> Int {
        slots.withLock { slots in
            // Every object is prefetched first, so a cold layout's misses overlap. A slot's optional reference is the
            // object's address or zero: read as that, not retained (a retain would wait for the object's first line).
            slots.withUnsafeBytes { slots in
                guard let start = slots.baseAddress else { return }
                let count = slots.count / MemoryLayout<CachedFrames?>.stride
                for position in positions {
                    let ordinal = base &+ position
                    guard ordinal < count, let object = (start + ordinal &* MemoryLayout<CachedFrames?>.stride).load(as: UnsafeRawPointer?.self)
                    else { continue }
                    for line in 0..<CachedFrames.prefetchedLines { tessera_prefetch(object + line &* 64) }
                }
            }
            var hits = 0
            for (index, position) in positions.enumerated() {
                let ordinal = base &+ position
                let frames = ordinal < slots.count ? slots[ordinal] : nil
                found[index] = frames
                if frames != nil { hits &+= 1 }
            }
            return hits
        }
    }

    /// Whether no slot holds frames.
    var holdsNoFrames: Bool { filled.load(ordering: .relaxed) == 0 }

    /// Puts `frames` in the empty slot `ordinal`: true when it was empty,
    /// false when another query filled it first or there is no such slot.
    func fill(_ ordinal: Int, with frames: CachedFrames) -> Bool {
        slots.withLock { slots in
            guard ordinal >= 0, ordinal < slots.count, slots[ordinal] == nil else { return false }
            slots[ordinal] = frames
            filled.add(1, ordering: .relaxed)
            return true
        }
    }

    /// Empties every slot.
    func emptySlots() {
        slots.withLock { slots in
            for index in slots.indices { slots[index] = nil }
            filled.store(0, ordering: .relaxed)
        }
    }

    /// For each slot of `old`, the slot here of the same group (same id and frames checksum, so the same bytes), or -1.
    /// Groups mostly keep their slot (an append changes the last ones); the others are found by id.
    func slots(carriedFrom old: CachedLayout) -> [Int] {
        var target = [Int](repeating: -1, count: old.ids.count)
        // Built when a group has moved, once.
        var slotOfID: [Int64: Int]?
        for (slot, id) in ids.enumerated() {
            var source: Int?
            if slot < old.ids.count, old.ids[slot] == id {
                source = slot
            } else {
                if slotOfID == nil { slotOfID = Dictionary(zip(old.ids, old.ids.indices), uniquingKeysWith: { first, _ in first }) }
                source = slotOfID?[id]
            }
            if let source, old.checksums[source] == checksums[slot] { target[source] = slot }
        }
        return target
    }

    /// Moves the frames of `old`'s slots here: slot `ordinal` of `old` into
    /// slot `target[ordinal]` (-1: none), where that is empty
    /// (``slots(carriedFrom:)``). The bytes and the groups moved.
    func moveFrames(from old: CachedLayout, slots target: [Int]) -> (bytes: Int, groups: Int) {
        guard old !== self else { return (0, 0) }
        return old.slots.withLock { from in
            slots.withLock { to in
                var moved = (bytes: 0, groups: 0)
                for (ordinal, slot) in target.enumerated() where slot >= 0 && slot < to.count && ordinal < from.count {
                    guard let frames = from[ordinal], to[slot] == nil else { continue }
                    to[slot] = frames
                    from[ordinal] = nil
                    filled.add(1, ordering: .relaxed)
                    old.filled.subtract(1, ordering: .relaxed)
                    moved.bytes += frames.byteCount
                    moved.groups += 1
                }
                return moved
            }
        }
    }
}
