import SQLiteToolkit
import TesseraLayout
import TesseraStore

/// The rows that hold cells: `cell_groups` (exact frames), their
/// `cell_group_directory` entries (slot, first item, exact bounds) and
/// `cell_groups_rtree` (the on-disk index).
extension Connection {
    private static let framesSQL = SQL("SELECT frames FROM cell_groups WHERE id = ?")

    /// A blob at least this large shares its page with no other: half of
    /// the default 8 KiB page.
    static let fullGroupBytes = 4096
    /// Where the ids of groups smaller than that begin (2^62).
    static let partialGroupIDs: Int64 = 1 << 62
    private static let insertGroupSQL = SQL("INSERT INTO cell_groups (id, frames) VALUES (?, ?)")

    /// The next id in the range of full or of smaller groups: read once per
    /// write transaction (which holds the write lock, so nobody else adds
    /// groups meanwhile), then counted here.
    /// The next ids of full and of smaller groups, kept in the
    /// connection's `transactionState` (cleared when a transaction begins).
    private struct GroupIDCounters {
        var full: Int64
        var partial: Int64
    }

    private func nextGroupID(full: Bool) throws -> Int64 {
        var next = try transactionState as? GroupIDCounters ?? {
            let full = try scalarInt64("SELECT coalesce(max(id), 0) + 1 FROM cell_groups WHERE id < \(Self.partialGroupIDs)") ?? 1
            let partial = try scalarInt64(
                "SELECT coalesce(max(id), \(Self.partialGroupIDs)) + 1 FROM cell_groups WHERE id >= \(Self.partialGroupIDs)"
            ) ?? Self.partialGroupIDs + 1
            return GroupIDCounters(full: full, partial: partial)
        }()
        defer { transactionState = next }
        if full {
            defer { next.full += 1 }
            return next.full
        }
        defer { next.partial += 1 }
        return next.partial
    }

    private static let directoryIntact = ChecksummedColumns.intact(ChecksummedColumns.directory)
    /// A directory row (alias `d`) and its group's frames (alias `g`, maybe
    /// missing) both match their checksums.
    private static let groupIntact = """
        (\(ChecksummedColumns.intact(ChecksummedColumns.directory, prefix: "d.")))
        AND g.id IS NOT NULL AND tessera_hash(g.frames) IS d.frames_checksum
        """

    /// Throws `damaged` unless column `index` (a checksum test) is 1.
    private func verifyGroup(_ query: Statement, at index: Int, layoutID: Int64, slot: Int, firstItem: Int) throws {
        try verify(query, at: index, "the cell group of items \(firstItem)… of slot \(slot) of layout \(layoutID)")
    }

    package func forEachGroup(layoutID: Int64, _ body: (GroupRecord) throws -> Void) throws {
        let query = try cachedStatement("""
            SELECT slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll, frames_checksum, \(Self.directoryIntact)
            FROM cell_group_directory WHERE layout_id = ? ORDER BY slot, first_item
            """)
        try query.bind(layoutID)
        defer { query.reset() }
        while try query.step() {
            try verifyGroup(query, at: 8, layoutID: layoutID, slot: query.int(at: 0), firstItem: query.int(at: 1))
            try body(GroupRecord(
                slot: query.int(at: 0), firstItem: query.int(at: 1), id: query.int64(at: 2),
                bounds: QueryBounds(
                    minCross: query.double(at: 3), maxCross: query.double(at: 4),
                    minScroll: query.double(at: 5), maxScroll: query.double(at: 6)
                ),
                framesChecksum: query.int64(at: 7)
            ))
        }
    }

    /// The id of the group of a slot starting at `firstItem`, if stored (for `writeGroup`).
    private func groupID(layoutID: Int64, slot: Int, firstItem: Int) throws -> Int64? {
        let query = try cachedStatement("SELECT group_id FROM cell_group_directory WHERE layout_id = ? AND slot = ? AND first_item = ?")
        try query.bind(layoutID, slot, firstItem)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.int64(at: 0)
    }

    /// Always what is stored: SQLite's page cache is the cache, and a blob
    /// is read in place.
    package func visitFrames(_ groups: [FramesKey], _ body: (Int, UnsafeRawBufferPointer) -> Void) throws {
        let query = try cachedStatement(Self.framesSQL)
        for (index, group) in groups.enumerated() {
            try query.bind(group.id)
            guard try query.step() else { continue }
            query.withBlob(at: 0) { body(index, $0) }
            query.reset()
        }
    }

    package func visitStoredFrames(groupID: Int64, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        try visitFrames([FramesKey(id: groupID, checksum: 0)]) { _, raw in body(raw) }
    }

    package func withFrames<R>(layoutID: Int64, slot: Int, firstItem: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        let query = try cachedStatement("""
            SELECT g.frames, \(Self.groupIntact) FROM cell_group_directory AS d LEFT JOIN cell_groups AS g ON g.id = d.group_id
            WHERE d.layout_id = ? AND d.slot = ? AND d.first_item = ?
            """)
        try query.bind(layoutID, slot, firstItem)
        guard try query.step() else { return nil }
        defer { query.reset() }
        try verifyGroup(query, at: 1, layoutID: layoutID, slot: slot, firstItem: firstItem)
        return try query.withBlob(at: 0, body)
    }

    package func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>? {
        // The R*Tree stores 32-bit floats rounded outward, and past 2^24
        // neighbouring layout ids and slots share a float: a hint, which
        // `IndexedGroups` checks against verified directory rows.
        let query = try cachedStatement("""
            SELECT min(first_item), max(first_item) FROM cell_groups_rtree
            WHERE min_layout <= ?1 AND max_layout >= ?1 AND min_slot <= ?2 AND max_slot >= ?2
              AND min_cross <= ?4 AND max_cross >= ?3 AND min_scroll <= ?6 AND max_scroll >= ?5
            """)
        try query.bind(Double(layoutID), Double(slot), bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
        defer { query.reset() }
        guard try query.step(), !query.isNull(at: 0), !query.isNull(at: 1) else { return nil }
        let (low, high) = (query.int(at: 0), query.int(at: 1))
        return low <= high ? low...high : nil
    }

    private static let groupColumns = """
        d.first_item, d.group_id, d.min_cross, d.max_cross, d.min_scroll, d.max_scroll, d.frames_checksum,
        \(ChecksummedColumns.intact(ChecksummedColumns.directory, prefix: "d.")), d.reach_start, d.reach_end, d.reach_slack,
        CASE WHEN d.reach_start IS NULL OR d.reach_end IS NULL OR d.reach_slack IS NULL THEN NULL
        ELSE \(ChecksummedColumns.intact(ChecksummedColumns.reach, prefix: "d.", checksum: "reach_checksum")) END,
        CASE WHEN d.first_item BETWEEN ?6 AND ?7 THEN (SELECT g.frames FROM cell_groups AS g WHERE g.id = d.group_id) END
        """

    package func groups(
        layoutID: Int64, slot: Int, firstItems: ClosedRange<Int>, alsoFirstItem: Int?, framesOf: ClosedRange<Int>?
    ) throws -> [GroupRecord] {
        // Two searches of the primary key (an OR would scan the slot), in
        // item order without a sort: the range in key order, then the row past it.
        let query = try cachedStatement("""
            SELECT \(Self.groupColumns) FROM cell_group_directory AS d
            WHERE d.layout_id = ?1 AND d.slot = ?2 AND d.first_item BETWEEN ?3 AND ?4
            UNION ALL
            SELECT \(Self.groupColumns) FROM cell_group_directory AS d
            WHERE d.layout_id = ?1 AND d.slot = ?2 AND d.first_item = ?5 AND ?5 > ?4
            """)
        try query.bind(layoutID, slot, firstItems.lowerBound, firstItems.upperBound, alsoFirstItem ?? Int.min)
        try query.bind(framesOf?.lowerBound ?? 0, at: 6)
        try query.bind(framesOf?.upperBound ?? -1, at: 7)
        defer { query.reset() }
        var result: [GroupRecord] = []
        while try query.step() {
            let first = query.int(at: 0)
            try verifyGroup(query, at: 7, layoutID: layoutID, slot: slot, firstItem: first)
            var reach: GroupReach?
            if !query.isNull(at: 11) {
                try verify(query, at: 11, "the reach of the cell group of items \(first)… of slot \(slot) of layout \(layoutID)")
                reach = GroupReach(start: query.double(at: 8), end: query.double(at: 9), slack: query.double(at: 10))
            }
            result.append(GroupRecord(
                slot: slot, firstItem: first, id: query.int64(at: 1),
                bounds: QueryBounds(minCross: query.double(at: 2), maxCross: query.double(at: 3), minScroll: query.double(at: 4), maxScroll: query.double(at: 5)),
                framesChecksum: query.int64(at: 6), reach: reach, frames: query.isNull(at: 12) ? nil : query.blob(at: 12)
            ))
        }
        return result
    }


    package func scrollSpan(layoutID: Int64, slot: Int) throws -> ClosedRange<Double>? {
        let query = try cachedStatement("""
            SELECT min(min_scroll), max(max_scroll), min(\(Self.directoryIntact))
            FROM cell_group_directory WHERE layout_id = ? AND slot = ?
            """)
        try query.bind(layoutID, slot)
        guard try query.step(), !query.isNull(at: 0) else { return nil }
        defer { query.reset() }
        try verify(query, at: 2, "a cell group's directory row of slot \(slot) of layout \(layoutID)")
        return query.double(at: 0)...query.double(at: 1)
    }

    // MARK: Writes

    package func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        if let groupID = try groupID(layoutID: layoutID, slot: slot, firstItem: firstItem) {
            let update = try cachedStatement("UPDATE cell_groups SET frames = ? WHERE id = ?")
            try update.bind(groupID, at: 2)
            try update.withBlobBoundWithoutCopy(frames, at: 1) { try update.execute() }
            // The update triggers write both checksums.
            let directory = try cachedStatement("""
                UPDATE cell_group_directory SET min_cross = ?1, max_cross = ?2, min_scroll = ?3, max_scroll = ?4,
                    reach_start = ?8, reach_end = ?9, reach_slack = ?10
                WHERE layout_id = ?5 AND slot = ?6 AND first_item = ?7
                """)
            try directory.bind(bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll, layoutID, slot, firstItem)
            try directory.bind(reach.start, at: 8)
            try directory.bind(reach.end, at: 9)
            try directory.bind(reach.slack, at: 10)
            try directory.execute()
            let index = try cachedStatement(
                "UPDATE cell_groups_rtree SET min_cross = ?, max_cross = ?, min_scroll = ?, max_scroll = ? WHERE id = ?"
            )
            try index.bind(bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll, groupID)
            try index.execute()
            return groupID
        }
        // Blobs that fill a page (plain groups of 250 frames, compact ones
        // of doubles only) get ids of a range of their own, so that smaller
        // ones share pages with each other instead of each leaving the page
        // before a large one mostly empty (27 % of the table's pages, for
        // small feeds).
        let groupID = try nextGroupID(full: frames.count >= Self.fullGroupBytes)
        let insert = try cachedStatement(Self.insertGroupSQL)
        try insert.bind(groupID, at: 1)
        try insert.withBlobBoundWithoutCopy(frames, at: 2) { try insert.execute() }
        // With its checksums (ChecksummedColumns.directory's and .reach's orders), as the update triggers write them.
        let directory = try cachedStatement("""
            INSERT INTO cell_group_directory (
                \(ChecksummedColumns.directory), frames_checksum, checksum, reach_start, reach_end, reach_slack, reach_checksum)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, tessera_checksum(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8),
                ?10, ?11, ?12, tessera_checksum(?1, ?2, ?3, ?10, ?11, ?12))
            """)
        try directory.bind(layoutID, slot, firstItem, groupID, bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
        try directory.bind(Checksum.of(frames), at: 9)
        try directory.bind(reach.start, at: 10)
        try directory.bind(reach.end, at: 11)
        try directory.bind(reach.slack, at: 12)
        try directory.execute()
        let index = try cachedStatement("INSERT INTO cell_groups_rtree VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try index.bind(groupID, Double(layoutID), Double(layoutID), Double(slot), Double(slot))
        try index.bind(bounds.minCross, at: 6)
        try index.bind(bounds.maxCross, at: 7)
        try index.bind(bounds.minScroll, at: 8)
        try index.bind(bounds.maxScroll, at: 9)
        try index.bind(firstItem, at: 10)
        try index.execute()
        return groupID
    }

    package func deleteGroups(layoutID: Int64, slot: Int?) throws {
        let filter = slot == nil ? "layout_id = ?1" : "layout_id = ?1 AND slot = ?2"
        for sql in [
            "DELETE FROM cell_groups_rtree WHERE id IN (SELECT group_id FROM cell_group_directory WHERE \(filter))",
            "DELETE FROM cell_groups WHERE id IN (SELECT group_id FROM cell_group_directory WHERE \(filter))",
            "DELETE FROM cell_group_directory WHERE \(filter)",
        ] {
            let statement = try cachedStatement(sql)
            try statement.bind(layoutID, at: 1)
            if let slot { try statement.bind(slot, at: 2) }
            try statement.execute()
        }
    }
}
