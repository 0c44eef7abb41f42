import Locking
import TesseraLayout

/// A layout's sections and cell groups, as the store's readers cache them.
/// A class: every query takes it from a cache, and one reference costs one
/// retain where the arrays would cost one each.
final class CachedLayout: Sendable {
    let sections: [SectionRecord]
    /// Every section's groups, numbered across the layout in order.
    let groups: LayoutGroups
    /// The sections' scroll-axis ends, apart: a binary search over a few
    /// contiguous doubles misses the processor's cache far less often than
    /// one over the geometries.
    private let ends: [Double]
    /// The sections' scroll-axis starts, apart, for the same reason.
    private let starts: [Double]
    /// The verified frames of its groups that queries met lately (see ``FrameCache``).
    let frames: FrameSlots
    /// The layout's tile revision once a tile read hashed it (``TileRevision``):
    /// a directory is one revision of one layout's rows, so it never changes.
    let tileRevision = Locked<String?>(nil)

    init(sections: [SectionRecord], groups rows: [SectionGroups.Rows]) {
        self.sections = sections
        groups = LayoutGroups(rows)
        ends = sections.map(\.geometry.end)
        starts = sections.map(\.geometry.start)
        frames = FrameSlots(count: groups.count)
    }

    /// Groups across all sections: the slots of ``frames``.
    var groupCount: Int { groups.count }

    /// The bytes its arrays take, for the cache's budget.
    var byteCount: Int {
        // The object: its header, its references and the lock.
        112 + sections.capacity * MemoryLayout<SectionRecord>.stride
            + (ends.capacity + starts.capacity) * MemoryLayout<Double>.stride
            + groups.byteCount + FrameSlots.byteCount(groups: groupCount)
    }

    /// The non-empty sections whose scroll range meets [low, high], in order.
    func sections(from low: Double, through high: Double) -> [SectionRecord] {
        sectionRange(from: low, through: high).compactMap { sections[$0].geometry.isEmpty ? nil : sections[$0] }
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
}

/// The cell groups of a cached layout, numbered across its sections in
/// order (a group's number, its ordinal, is its slot in
/// ``CachedLayout/frames``): ids, checksums and exact bounds each in one
/// array, so that a query of a layout not met lately finds a section's
/// groups with one miss of the processor's cache, not three (an object per
/// section, then its arrays). A class: a query takes one reference, where a
/// struct of arrays would retain each of them.
final class LayoutGroups: Sendable {
    /// The ordinal of each section's first group, and the group count last.
    let starts: [Int]
    let ids: [Int64]
    /// The ``Checksum`` of each group's frames.
    let checksums: [Int64]
    let bounds: [QueryBounds]
    /// The bounds index of each section with more than ``indexedAbove`` groups, by section.
    let indexes: [Int: FrameIndex]
    static let indexedAbove = 64

    /// The groups `rows` hold, one entry per section, in order.
    init(_ rows: [SectionGroups.Rows]) {
        var starts = [0]
        starts.reserveCapacity(rows.count + 1)
        var ids: [Int64] = []
        var checksums: [Int64] = []
        var bounds: [QueryBounds] = []
        var indexes: [Int: FrameIndex] = [:]
        let total = rows.reduce(0) { $0 + $1.ids.count }
        ids.reserveCapacity(total)
        checksums.reserveCapacity(total)
        bounds.reserveCapacity(total)
        for (section, groups) in rows.enumerated() {
            ids += groups.ids
            checksums += groups.checksums
            bounds += groups.bounds
            starts.append(ids.count)
            if groups.bounds.count > Self.indexedAbove { indexes[section] = FrameIndex(bounds: groups.bounds) }
        }
        self.starts = starts
        self.ids = ids
        self.checksums = checksums
        self.bounds = bounds
        self.indexes = indexes
    }

    /// Groups across all sections.
    var count: Int { ids.count }

    /// The ordinals of section `section`'s groups (empty for no such section).
    func ordinals(ofSection section: Int) -> Range<Int> {
        guard section >= 0, section &+ 1 < starts.count else { return 0..<0 }
        return starts[section]..<starts[section &+ 1]
    }

    /// The bytes it holds, for the cache's budget.
    var byteCount: Int {
        // The object (its header and five references), then its arrays.
        var total = 64 + starts.capacity * MemoryLayout<Int>.stride + (ids.capacity + checksums.capacity) * MemoryLayout<Int64>.stride
            + bounds.capacity * MemoryLayout<QueryBounds>.stride
        for index in indexes.values { total += 48 + index.byteCount }
        return total
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
}

/// A section's cell groups as the store reads and writes them, and where
/// they are (``CachedLayout`` numbers them across the layout, ``LayoutGroups``).
enum SectionGroups {
    /// A section's groups as they are read, in item order.
    struct Rows: Sendable {
        var firstItems: [Int] = []
        var ids: [Int64] = []
        var bounds: [QueryBounds] = []
        var checksums: [Int64] = []

        mutating func reserveCapacity(_ count: Int) {
            firstItems.reserveCapacity(count)
            ids.reserveCapacity(count)
            bounds.reserveCapacity(count)
            checksums.reserveCapacity(count)
        }

        mutating func append(_ group: GroupRecord) {
            firstItems.append(group.firstItem)
            ids.append(group.id)
            bounds.append(group.bounds)
            checksums.append(group.framesChecksum)
        }

        /// Whether ``firstItems`` are those of a section of `itemCount` items
        /// (``SectionGroups/expectedFirstItems(itemCount:)``), made without an array.
        func hasExpectedFirstItems(itemCount: Int) -> Bool {
            firstItems.count == (itemCount + CellGroupWriter.groupSize - 1) / CellGroupWriter.groupSize
                && firstItems.indices.allSatisfy { firstItems[$0] == $0 &* CellGroupWriter.groupSize }
        }
    }

    /// Groups put in their section's rows by slot, as they are read or
    /// written: `sections` in order, whose positions are their indices.
    struct RowsBySlot {
        private var sectionOfSlot: [Int: Int] = [:]
        private(set) var rows: [Rows]

        init(sections: [SectionRecord]) {
            for (position, section) in sections.enumerated() { sectionOfSlot[section.slot] = position }
            rows = [Rows](repeating: Rows(), count: sections.count)
        }

        /// Appends `group` to its section's rows; false when no section has its slot.
        mutating func append(_ group: GroupRecord) -> Bool {
            guard let position = sectionOfSlot[group.slot] else { return false }
            rows[position].append(group)
            return true
        }
    }

    /// The first item of the group at `position` in its section: a cached
    /// directory is complete (``Rows/hasExpectedFirstItems(itemCount:)``),
    /// so it keeps no first items (a query touches one array fewer).
    @inline(__always)
    static func firstItem(at position: Int) -> Int { position &* CellGroupWriter.groupSize }

    /// The first items of the groups a section of `itemCount` items has
    /// (an empty section has none).
    static func expectedFirstItems(itemCount: Int) -> [Int] {
        Array(stride(from: 0, to: itemCount, by: CellGroupWriter.groupSize))
    }
}
