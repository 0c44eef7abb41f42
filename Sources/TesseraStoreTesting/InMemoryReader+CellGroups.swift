import TesseraLayout
import TesseraStore

/// Cell groups: each row is a group's directory entry, its reach and its
/// frames, under their three checksums.
extension InMemoryReader {
    /// A slot's groups in item order.
    func slotGroups(layoutID: Int64, slot: Int) -> SortedRows<GroupRow> {
        tables.groups[layoutID]?[slot] ?? SortedRows()
    }

    /// Throws `damaged` unless the group's directory entry is intact (and
    /// its frames too, with `frames`).
    private func verify(_ group: GroupRow, frames: Bool = false) throws {
        try verify(
            group.isIntact && (!frames || group.framesAreIntact),
            "the cell group of items \(group.firstItem)… of slot \(group.slot) of layout \(group.layoutID)"
        )
    }

    package func forEachGroup(layoutID: Int64, _ body: (GroupRecord) throws -> Void) throws {
        for slot in (tables.groups[layoutID] ?? [:]).keys.sorted() {
            for group in slotGroups(layoutID: layoutID, slot: slot).rows {
                try verify(group)
                try body(GroupRecord(slot: slot, firstItem: group.firstItem, id: group.id, bounds: group.bounds, framesChecksum: group.framesChecksum))
            }
        }
    }

    /// The bytes as stored: the store verifies them against their checksums.
    package func visitFrames(_ groups: [FramesKey], _ body: (Int, UnsafeRawBufferPointer) -> Void) throws {
        for (index, key) in groups.enumerated() {
            tables.group(id: key.id)?.frames.withUnsafeBytes { body(index, $0) }
        }
    }

    package func visitStoredFrames(groupID: Int64, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        tables.group(id: groupID)?.frames.withUnsafeBytes(body)
    }

    package func withFrames<R>(layoutID: Int64, slot: Int, firstItem: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let group = slotGroups(layoutID: layoutID, slot: slot)[firstItem] else { return nil }
        try verify(group, frames: true)
        return try group.frames.withUnsafeBytes(body)
    }

    /// Where SQLite asks its R*Tree, this scans the slot: the first and last
    /// groups whose bounds meet `bounds` (touching counts).
    package func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>? {
        let meeting = slotGroups(layoutID: layoutID, slot: slot).rows.lazy.filter {
            $0.bounds.minCross <= bounds.maxCross && $0.bounds.maxCross >= bounds.minCross
                && $0.bounds.minScroll <= bounds.maxScroll && $0.bounds.maxScroll >= bounds.minScroll
        }.map(\.firstItem)
        guard let low = meeting.first, let high = meeting.max() else { return nil }
        return low...high
    }

    package func groups(
        layoutID: Int64, slot: Int, firstItems: ClosedRange<Int>, alsoFirstItem: Int?, framesOf: ClosedRange<Int>?
    ) throws -> [GroupRecord] {
        let rows = slotGroups(layoutID: layoutID, slot: slot)
        var found = Array(rows.rows(in: firstItems))
        if let alsoFirstItem, alsoFirstItem > firstItems.upperBound, let also = rows[alsoFirstItem] { found.append(also) }
        return try found.map { group in
            try verify(group)
            try verify(group.reachIsIntact, "the reach of the cell group of items \(group.firstItem)… of slot \(slot) of layout \(layoutID)")
            return GroupRecord(
                slot: slot, firstItem: group.firstItem, id: group.id, bounds: group.bounds, framesChecksum: group.framesChecksum,
                reach: group.reach, frames: framesOf?.contains(group.firstItem) == true ? group.frames : nil
            )
        }
    }


    package func scrollSpan(layoutID: Int64, slot: Int) throws -> ClosedRange<Double>? {
        let rows = slotGroups(layoutID: layoutID, slot: slot).rows
        guard let first = rows.first else { return nil }
        try verify(rows.allSatisfy(\.isIntact), "a cell group's directory row of slot \(slot) of layout \(layoutID)")
        return rows.dropFirst().reduce(first.bounds.minScroll...first.bounds.maxScroll) { span, group in
            min(span.lowerBound, group.bounds.minScroll)...max(span.upperBound, group.bounds.maxScroll)
        }
    }
}
