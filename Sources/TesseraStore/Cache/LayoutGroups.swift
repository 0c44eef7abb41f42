import TesseraLayout
import TesseraStoreFormat

/// The cell groups of a layout's sections, numbered across them as a ``CachedLayout`` keeps them, filled a section at a
/// time as rows are read or written, noting whether each section's groups start at 0, n, 2n, … items: a directory is
/// proven whole (``LayoutStore/incompleteness(sections:groups:sectionCount:)``) without an array per section.
struct LayoutGroups: Equatable {
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
    init?(sections: [SectionRecord], groups: [GroupRow]) {
        var positions: [Int: Int] = [:]
        for (position, section) in sections.enumerated() { positions[section.slot] = position }
        var bySection = [[GroupRow]](repeating: [], count: sections.count)
        for group in groups {
            guard let position = positions[group.slot] else { return nil }
            bySection[position].append(group)
        }
        self.init(bySection)
    }

    /// Each section's groups, in order.
    init(_ sections: [[GroupRow]]) {
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

/// Where a section's cell groups start.
enum SectionGroups {
    /// The first item of the group at `position` in its section: a cached
    /// directory is complete (``LayoutGroups/hasExpectedFirstItems(section:itemCount:)``),
    /// so it keeps no first items (a query touches one array fewer).
    @inline(__always)
    static func firstItem(at position: Int) -> Int { position &* FrameBlob.framesPerGroup }

    /// The first item of the group that holds `item` (at least 0).
    static func firstItem(ofGroupHolding item: Int) -> Int {
        item - item % FrameBlob.framesPerGroup
    }

    /// The groups a section of `itemCount` items has.
    static func groupCount(itemCount: Int) -> Int { (itemCount + FrameBlob.framesPerGroup - 1) / FrameBlob.framesPerGroup }
}
