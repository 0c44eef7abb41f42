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
    /// The layout's tile revision once a tile read hashed it (``TileRevision``):
    /// a directory is one revision of one layout's rows, so it never changes.
    let tileRevision = Locked<String?>(nil)

    init(sections: [SectionRecord], groups: [SectionGroups]) {
        self.sections = sections
        self.groups = groups
        ends = sections.map(\.geometry.end)
    }

    /// The bytes its arrays take, for the cache's budget.
    var byteCount: Int {
        // The object: its header, five references and the lock.
        var total = 96 + sections.capacity * MemoryLayout<SectionRecord>.stride
            + ends.capacity * MemoryLayout<Double>.stride + groups.capacity * MemoryLayout<SectionGroups>.stride
        for section in groups {
            total += section.firstItems.capacity * MemoryLayout<Int>.stride + (section.ids.capacity + section.checksums.capacity) * MemoryLayout<Int64>.stride
                + section.bounds.capacity * MemoryLayout<QueryBounds>.stride + (section.index?.byteCount ?? 0)
        }
        return total
    }

    /// The non-empty sections whose scroll range meets [low, high], in order.
    func sections(from low: Double, through high: Double) -> [SectionRecord] {
        let range = SectionSearch.sections(
            from: low, through: high, count: sections.count, end: { ends[$0] }, start: { sections[$0].geometry.start }
        )
        var result: [SectionRecord] = []
        result.reserveCapacity(range.count)
        for index in range where !sections[index].geometry.isEmpty { result.append(sections[index]) }
        return result
    }
}

/// The cell groups of one section: first items, ids and exact bounds, with
/// a bounds index when there are many.
struct SectionGroups: Sendable {
    var firstItems: [Int] = []
    var ids: [Int64] = []
    var bounds: [QueryBounds] = []
    /// The ``Checksum`` of each group's frames.
    var checksums: [Int64] = []
    var index: FrameIndex?

    mutating func append(_ group: GroupRecord) {
        firstItems.append(group.firstItem)
        ids.append(group.id)
        bounds.append(group.bounds)
        checksums.append(group.framesChecksum)
    }

    /// The first items of the groups a section of `itemCount` items has
    /// (an empty section has none).
    static func expectedFirstItems(itemCount: Int) -> [Int] {
        Array(stride(from: 0, to: itemCount, by: CellGroupWriter.groupSize))
    }

    mutating func finish() {
        if bounds.count > 64 { index = FrameIndex(bounds: bounds) }
    }

    func forEachCandidate(in query: QueryBounds, _ body: ((id: Int64, firstItem: Int, checksum: Int64)) -> Void) {
        func visit(_ position: Int) {
            if bounds[position].mayIntersect(query) {
                body((ids[position], firstItems[position], checksums[position]))
            }
        }
        if let index {
            index.forEachCandidate(in: query, frameCount: bounds.count, visit)
        } else {
            for position in bounds.indices { visit(position) }
        }
    }
}
