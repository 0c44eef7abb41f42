import NIOCore
import PostgresNIO
import TesseraLayout
import TesseraStore

/// The rows that hold cells: `cell_groups`, one row per group with its
/// place, its exact bounds, its frames' checksum and its frames.
extension PostgresSession {
    private func verifyFrames(_ frames: ByteBuffer?, checksum: Int64, slot: Int, firstItem: Int, layoutID: Int64) throws -> ByteBuffer {
        guard let frames, frames.withUnsafeReadableBytes({ Checksum.of($0) }) == checksum else {
            throw StoreError.damaged(store: location, "the cell group of items \(firstItem)… of slot \(slot) of layout \(layoutID) does not match its checksum")
        }
        return frames
    }

    func forEachGroup(layoutID: Int64, _ body: (GroupRecord) throws -> Void) throws {
        for columns in try rows("""
            SELECT slot, first_item, id, min_cross, max_cross, min_scroll, max_scroll, frames_checksum, \(Self.intact("t"))
            FROM cell_groups AS t WHERE layout_id = $1 ORDER BY slot, first_item
            """, .of(layoutID)) {
            try columns.verify(8, "the cell group of items \(try columns.int(1))… of slot \(try columns.int(0)) of layout \(layoutID)")
            try body(GroupRecord(
                slot: try columns.int(0), firstItem: try columns.int(1), id: try columns.int64(2),
                bounds: QueryBounds(
                    minCross: try columns.double(3), maxCross: try columns.double(4),
                    minScroll: try columns.double(5), maxScroll: try columns.double(6)
                ),
                framesChecksum: try columns.int64(7)
            ))
        }
    }

    /// Takes the frames of `groups` from what this read fetched, and
    /// fetches those it lacks in one statement, then visits them in order.
    /// The store caches the intact ones for every reader (its frame cache
    /// is asked first: only groups it lacks come here).
    func visitFrames(_ groups: [FramesKey], _ body: (Int, UnsafeRawBufferPointer) -> Void) throws {
        let missing = groups.filter { prefetched[$0.id] == nil }
        if !missing.isEmpty {
            let fetched = try fetchFrames(missing.map(\.id))
            for key in missing {
                guard let frames = fetched[key.id] else {
                    // Deleted since the snapshot of the read's first statement, or never there.
                    if singleStatementRead { throw refuseOutsideTransaction() }
                    continue
                }
                prefetched[key.id] = try keep(frames, as: key)
            }
        }
        for (index, key) in groups.enumerated() {
            prefetched[key.id]?.withUnsafeBytes { body(index, $0) }
        }
    }

    func visitStoredFrames(groupID: Int64, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        guard let frames = try rows("SELECT frames FROM cell_groups WHERE id = $1", .of(groupID)).first?.bytes(0) else { return }
        frames.withUnsafeReadableBytes(body)
    }

    /// The stored frames of `ids`, in one statement: one that a read outside
    /// a transaction may send after its first, since what it fetches is
    /// checked against checksums that first statement's snapshot gave.
    private func fetchFrames(_ ids: [Int64]) throws -> [Int64: [UInt8]] {
        fetchingVerifiedFrames = true
        defer { fetchingVerifiedFrames = false }
        var frames: [Int64: [UInt8]] = [:]
        let idArray = PostgresData(array: ids.map { PostgresData(int64: $0) }, elementType: .int8)
        for columns in try preparedRows("SELECT id, frames FROM cell_groups WHERE id = ANY($1::int8[])", [idArray]) {
            if let buffer = columns.bytes(1) { frames[try columns.int64(0)] = Array(buffer.readableBytesView) }
        }
        return frames
    }

    /// Frames fetched for `key`. In a read outside a transaction the group
    /// may have been rewritten since the first statement's snapshot: frames
    /// that do not match the checksum it gave make the read run again in
    /// one snapshot, where a mismatch is damage (found by the store, which
    /// verifies what it reads before it caches it).
    private func keep(_ frames: [UInt8], as key: FramesKey) throws -> [UInt8] {
        if singleStatementRead, Checksum.of(frames) != key.checksum { throw refuseOutsideTransaction() }
        return frames
    }

    func withFrames<R>(layoutID: Int64, slot: Int, firstItem: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let columns = try rows("""
            SELECT frames, frames_checksum, \(Self.intact("t")) FROM cell_groups AS t
            WHERE layout_id = $1 AND slot = $2 AND first_item = $3
            """, .of(layoutID, slot, firstItem)).first
        else { return nil }
        try columns.verify(2, "the cell group of items \(firstItem)… of slot \(slot) of layout \(layoutID)")
        let frames = try verifyFrames(columns.bytes(0), checksum: try columns.int64(1), slot: slot, firstItem: firstItem, layoutID: layoutID)
        return try frames.withUnsafeReadableBytes(body)
    }

    func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>? {
        // The GiST index (layout, slot, box) finds the groups; `&&` counts
        // touching boxes as meeting. A hint: `IndexedGroups` checks it
        // against verified rows.
        guard let columns = try rows("""
            SELECT min(first_item), max(first_item) FROM cell_groups
            WHERE layout_id = $1 AND slot = $2
              AND box(point(min_cross, min_scroll), point(max_cross, max_scroll)) && box(point($3, $5), point($4, $6))
            """, .of(layoutID, slot, bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)).first,
            !columns.isNull(0), !columns.isNull(1)
        else { return nil }
        let (low, high) = (try columns.int(0), try columns.int(1))
        return low <= high ? low...high : nil
    }

    func groups(
        layoutID: Int64, slot: Int, firstItems: ClosedRange<Int>, alsoFirstItem: Int?, framesOf: ClosedRange<Int>?
    ) throws -> [GroupRecord] {
        try rows("""
            SELECT first_item, id, min_cross, max_cross, min_scroll, max_scroll, frames_checksum, \(Self.intact("t")),
                reach_start, reach_end, reach_slack,
                CASE WHEN t.reach_start IS NULL OR t.reach_end IS NULL OR t.reach_slack IS NULL THEN NULL
                ELSE t.reach_checksum = tessera_reach_checksum(t) END,
                CASE WHEN first_item BETWEEN $6 AND $7 THEN frames END
            FROM cell_groups AS t WHERE layout_id = $1 AND slot = $2 AND (first_item BETWEEN $3 AND $4 OR first_item = $5)
            ORDER BY first_item
            """, .of(
                layoutID, slot, firstItems.lowerBound, firstItems.upperBound, alsoFirstItem ?? -1,
                framesOf?.lowerBound ?? 0, framesOf?.upperBound ?? -1
            )).map { columns in
            let first = try columns.int(0)
            try columns.verify(7, "the cell group of items \(first)… of slot \(slot) of layout \(layoutID)")
            var reach: GroupReach?
            if !columns.isNull(11) {
                try columns.verify(11, "the reach of the cell group of items \(first)… of slot \(slot) of layout \(layoutID)")
                reach = GroupReach(start: try columns.double(8), end: try columns.double(9), slack: try columns.double(10))
            }
            return GroupRecord(
                slot: slot, firstItem: first, id: try columns.int64(1),
                bounds: QueryBounds(
                    minCross: try columns.double(2), maxCross: try columns.double(3),
                    minScroll: try columns.double(4), maxScroll: try columns.double(5)
                ),
                framesChecksum: try columns.int64(6), reach: reach, frames: columns.bytes(12).map { Array($0.readableBytesView) }
            )
        }
    }


    func scrollSpan(layoutID: Int64, slot: Int) throws -> ClosedRange<Double>? {
        guard let columns = try rows("""
            SELECT min(min_scroll), max(max_scroll), bool_and(\(Self.intact("t"))) FROM cell_groups AS t
            WHERE layout_id = $1 AND slot = $2
            """, .of(layoutID, slot)).first, !columns.isNull(0)
        else { return nil }
        try columns.verify(2, "a cell group's row of slot \(slot) of layout \(layoutID)")
        return try columns.double(0)...columns.double(1)
    }

    // MARK: Writes

    func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws {
        try pending.addGroup(layoutID: layoutID, slot: slot, firstItem: firstItem, frames: frames, bounds: bounds, reach: reach)
        if pending.isFull { try flushPending() }
    }

    func deleteGroups(layoutID: Int64, slot: Int?) throws {
        if let slot {
            try pipeline("DELETE FROM cell_groups WHERE layout_id = $1 AND slot = $2", .of(layoutID, slot))
        } else {
            try pipeline("DELETE FROM cell_groups WHERE layout_id = $1", .of(layoutID))
        }
    }
}
