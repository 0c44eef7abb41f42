import Locking
import TesseraLayout

/// A layout's sections and cell groups, as the store's readers cache them.
/// A class: every query takes it from a cache, and one reference costs one
/// retain where the arrays would cost one each.
final class CachedLayout: Sendable {
    let sections: [SectionRecord]
    /// Per section, its groups in item order.
    let groups: [SectionGroups]
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
        var groups: [SectionGroups] = []
        groups.reserveCapacity(rows.count)
        var ordinal = 0
        for section in rows {
            groups.append(SectionGroups(section, firstOrdinal: ordinal))
            ordinal += section.ids.count
        }
        self.groups = groups
        ends = sections.map(\.geometry.end)
        starts = sections.map(\.geometry.start)
        frames = FrameSlots(count: ordinal)
    }

    /// Groups across all sections: the slots of ``frames``.
    var groupCount: Int { groups.last.map { $0.firstOrdinal + $0.ids.count } ?? 0 }

    /// The bytes its arrays take, for the cache's budget.
    var byteCount: Int {
        // The object: its header, seven references and the lock.
        var total = 112 + sections.capacity * MemoryLayout<SectionRecord>.stride
            + (ends.capacity + starts.capacity) * MemoryLayout<Double>.stride + groups.capacity * MemoryLayout<SectionGroups>.stride
            + FrameSlots.byteCount(groups: groupCount)
        for section in groups { total += section.byteCount }
        return total
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

/// The cell groups of one section: first items, ids and exact bounds, with
/// a bounds index when there are many. A class: a query takes one
/// reference, where a struct of arrays would retain each of them.
final class SectionGroups: Sendable {
    /// The number of the section's first group across the layout (its
    /// slot in ``CachedLayout/frames``).
    let firstOrdinal: Int
    let firstItems: [Int]
    let ids: [Int64]
    let bounds: [QueryBounds]
    /// The ``Checksum`` of each group's frames.
    let checksums: [Int64]
    let index: FrameIndex?

    /// The groups `rows` hold, numbered from `firstOrdinal`, indexed when there are many.
    init(_ rows: Rows, firstOrdinal: Int) {
        self.firstOrdinal = firstOrdinal
        firstItems = rows.firstItems
        ids = rows.ids
        bounds = rows.bounds
        checksums = rows.checksums
        index = rows.bounds.count > 64 ? FrameIndex(bounds: rows.bounds) : nil
    }

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

    /// The first item of the group at `position`: a cached directory is
    /// complete (``Rows/hasExpectedFirstItems(itemCount:)``), so it is
    /// computed, not read from ``firstItems`` (a query touches one array fewer).
    @inline(__always)
    static func firstItem(at position: Int) -> Int { position &* CellGroupWriter.groupSize }

    /// The first items of the groups a section of `itemCount` items has
    /// (an empty section has none).
    static func expectedFirstItems(itemCount: Int) -> [Int] {
        Array(stride(from: 0, to: itemCount, by: CellGroupWriter.groupSize))
    }

    /// The bytes it holds, for the cache's budget.
    var byteCount: Int {
        64 + firstItems.capacity * MemoryLayout<Int>.stride + (ids.capacity + checksums.capacity) * MemoryLayout<Int64>.stride
            + bounds.capacity * MemoryLayout<QueryBounds>.stride + (index?.byteCount ?? 0)
    }

    /// Calls `body` with the position of each group whose bounds may meet
    /// `query`, in item order.
    func forEachCandidate(in query: QueryBounds, _ body: (Int) -> Void) {
        func visit(_ position: Int) {
            if bounds[position].mayIntersect(query) { body(position) }
        }
        if let index {
            index.forEachCandidate(in: query, frameCount: bounds.count, visit)
        } else {
            for position in bounds.indices { visit(position) }
        }
    }
}
