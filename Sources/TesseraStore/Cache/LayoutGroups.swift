import TesseraLayout

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

    /// The groups `builder` collected, with the bounds index of each
    /// section that has more than ``indexedAbove``.
    init(_ builder: consuming Builder) {
        starts = builder.starts
        ids = builder.ids
        checksums = builder.checksums
        bounds = builder.bounds
        var indexes: [Int: FrameIndex] = [:]
        for section in 0..<(starts.count - 1) where starts[section + 1] - starts[section] > Self.indexedAbove {
            indexes[section] = FrameIndex(bounds: Array(bounds[starts[section]..<starts[section + 1]]))
        }
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

extension LayoutGroups {
    /// The arrays of a ``LayoutGroups``, filled one section at a time as
    /// rows are read or written, with whether each section's groups start at
    /// 0, n, 2n, … items: a directory proven whole
    /// (``LayoutStore/incompleteness(sections:groups:sectionCount:)``)
    /// without an array per section.
    struct Builder: Equatable {
        private(set) var starts: [Int] = []
        private(set) var ids: [Int64] = []
        private(set) var checksums: [Int64] = []
        private(set) var bounds: [QueryBounds] = []
        /// Per finished section: whether its first items were in order.
        private var inOrder: [Bool] = []
        /// Whether the groups of the section being filled were, so far.
        private var open = true

        init(sections: Int, groups: Int) {
            starts.reserveCapacity(sections + 1)
            starts.append(0)
            inOrder.reserveCapacity(sections)
            ids.reserveCapacity(groups)
            checksums.reserveCapacity(groups)
            bounds.reserveCapacity(groups)
        }

        /// Appends a group to the section being filled.
        mutating func append(firstItem: Int, id: Int64, bounds: QueryBounds, checksum: Int64) {
            if firstItem != SectionGroups.firstItem(at: ids.count &- starts[starts.count &- 1]) { open = false }
            ids.append(id)
            checksums.append(checksum)
            self.bounds.append(bounds)
        }

        /// Ends the section being filled; the next group starts another.
        mutating func endSection() {
            starts.append(ids.count)
            inOrder.append(open)
            open = true
        }

        /// The groups of `sections` (in order) among `groups`, each slot's in
        /// the order they come in; nil when a group names a slot no section has.
        init?(sections: [SectionRecord], groups: [GroupRecord]) {
            var positions: [Int: Int] = [:]
            for (position, section) in sections.enumerated() { positions[section.slot] = position }
            var bySection = [[GroupRecord]](repeating: [], count: sections.count)
            for group in groups {
                guard let position = positions[group.slot] else { return nil }
                bySection[position].append(group)
            }
            self.init(bySection)
        }

        /// Each section's groups, in order.
        init(_ sections: [[GroupRecord]]) {
            self.init(sections: sections.count, groups: sections.reduce(0) { $0 + $1.count })
            for section in sections {
                for group in section { append(firstItem: group.firstItem, id: group.id, bounds: group.bounds, checksum: group.framesChecksum) }
                endSection()
            }
        }

        /// Sections ended.
        var sectionCount: Int { inOrder.count }

        /// Whether section `section` holds the groups of `itemCount` items,
        /// first items 0, n, 2n, … (``SectionGroups/firstItem(at:)``).
        func hasExpectedFirstItems(section: Int, itemCount: Int) -> Bool {
            inOrder[section] && starts[section + 1] - starts[section] == SectionGroups.groupCount(itemCount: itemCount)
        }
    }
}
