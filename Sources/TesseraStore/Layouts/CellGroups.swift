import TesseraLayout

/// The rows that hold cells: `cell_groups` (exact frames), their
/// `cell_group_directory` entries (slot, first item, exact bounds) and
/// `cell_groups_rtree` (the on-disk index).
enum CellGroups {
    /// Inserts or replaces the group of a section slot starting at `firstItem`.
    static func write(layoutID: Int64, slot: Int, firstItem: Int, frames: [LocalFrame], connection: Connection) throws {
        var bounds = QueryBounds(minCross: .infinity, maxCross: -.infinity, minScroll: .infinity, maxScroll: -.infinity)
        for frame in frames {
            bounds.minCross = min(bounds.minCross, frame.cross)
            bounds.maxCross = max(bounds.maxCross, frame.crossEnd)
            bounds.minScroll = min(bounds.minScroll, frame.scroll)
            bounds.maxScroll = max(bounds.maxScroll, frame.scrollEnd)
        }
        let blob = FrameBlob.encode(frames[...])
        if let groupID = try existingGroup(layoutID: layoutID, slot: slot, firstItem: firstItem, connection: connection) {
            let update = try connection.cachedStatement("UPDATE cell_groups SET frames = ? WHERE id = ?")
            try update.bind(groupID, at: 2)
            try blob.withUnsafeBytes { raw in try update.withBlobBoundWithoutCopy(raw, at: 1) { try update.execute() } }
            let directory = try connection.cachedStatement("""
                UPDATE cell_group_directory SET min_cross = ?, max_cross = ?, min_scroll = ?, max_scroll = ?
                WHERE layout_id = ? AND slot = ? AND first_item = ?
                """)
            try directory.bind(bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll, layoutID, slot, firstItem)
            try directory.execute()
            let index = try connection.cachedStatement(
                "UPDATE cell_groups_rtree SET min_cross = ?, max_cross = ?, min_scroll = ?, max_scroll = ? WHERE id = ?"
            )
            try index.bind(bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll, groupID)
            try index.execute()
            return
        }
        let insert = try connection.cachedStatement("INSERT INTO cell_groups (frames) VALUES (?)")
        try blob.withUnsafeBytes { raw in try insert.withBlobBoundWithoutCopy(raw, at: 1) { try insert.execute() } }
        let groupID = connection.lastInsertRowID
        let directory = try connection.cachedStatement("INSERT INTO cell_group_directory VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        try directory.bind(layoutID, slot, firstItem, groupID, bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
        try directory.execute()
        let index = try connection.cachedStatement("INSERT INTO cell_groups_rtree VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try index.bind(groupID, Double(layoutID), Double(layoutID), Double(slot), Double(slot))
        try index.bind(bounds.minCross, at: 6)
        try index.bind(bounds.maxCross, at: 7)
        try index.bind(bounds.minScroll, at: 8)
        try index.bind(bounds.maxScroll, at: 9)
        try index.bind(firstItem, at: 10)
        try index.execute()
    }

    static func existingGroup(layoutID: Int64, slot: Int, firstItem: Int, connection: Connection) throws -> Int64? {
        let query = try connection.cachedStatement(
            "SELECT group_id FROM cell_group_directory WHERE layout_id = ? AND slot = ? AND first_item = ?"
        )
        try query.bind(layoutID, slot, firstItem)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.int64(at: 0)
    }

    /// Deletes every group of a layout (or of one of its section slots):
    /// frames, index rows and directory entries.
    static func delete(layoutID: Int64, slot: Int? = nil, connection: Connection) throws {
        let filter = slot == nil ? "layout_id = ?1" : "layout_id = ?1 AND slot = ?2"
        for sql in [
            "DELETE FROM cell_groups_rtree WHERE id IN (SELECT group_id FROM cell_group_directory WHERE \(filter))",
            "DELETE FROM cell_groups WHERE id IN (SELECT group_id FROM cell_group_directory WHERE \(filter))",
            "DELETE FROM cell_group_directory WHERE \(filter)",
        ] {
            let statement = try connection.cachedStatement(sql)
            try statement.bind(layoutID, at: 1)
            if let slot { try statement.bind(slot, at: 2) }
            try statement.execute()
        }
    }

    private static let framesSQL = SQL("SELECT frames FROM cell_groups WHERE id = ?")

    /// Calls `visit(item, frame)` for the cells of a group whose frames may
    /// meet `bounds`.
    static func forEachFrame(
        groupID: Int64,
        firstItem: Int,
        bounds: QueryBounds,
        connection: Connection,
        _ visit: (Int, LocalFrame) -> Void
    ) throws {
        let query = try connection.cachedStatement(framesSQL)
        try query.bind(groupID)
        guard try query.step() else { return }
        defer { query.reset() }
        query.withBlob(at: 0) { raw in visitFrames(raw, firstItem: firstItem, bounds: bounds, visit) }
    }

    /// All frames of one group, in item order.
    static func frames(groupID: Int64, connection: Connection) throws -> [LocalFrame] {
        let query = try connection.cachedStatement(framesSQL)
        try query.bind(groupID)
        guard try query.step() else { return [] }
        defer { query.reset() }
        return query.withBlob(at: 0) { raw in FrameBlob.decode(raw) }
    }

    /// The exact union of a slot's cells along the scroll axis, from its
    /// groups' bounds; nil without cells.
    static func scrollSpan(layoutID: Int64, slot: Int, connection: Connection) throws -> ClosedRange<Double>? {
        let query = try connection.cachedStatement(
            "SELECT min(min_scroll), max(max_scroll) FROM cell_group_directory WHERE layout_id = ? AND slot = ?"
        )
        try query.bind(layoutID, slot)
        guard try query.step(), !query.isNull(at: 0) else { return nil }
        defer { query.reset() }
        return query.double(at: 0)...query.double(at: 1)
    }

    /// The R*Tree path: the groups of a slot whose index rects meet
    /// `bounds`, in ascending item order.
    static func forEachCandidateFromIndex(
        layoutID: Int64,
        slot: Int,
        bounds: QueryBounds,
        connection: Connection,
        _ visit: (Int, LocalFrame) -> Void
    ) throws {
        // The R*Tree stores 32-bit floats rounded outward, so it never misses a
        // group, but past 2^24 neighbouring layout ids and slots share a float:
        // the directory's exact key keeps only this layout's groups. The exact
        // rect test happens on the frames from the blob.
        let query = try connection.cachedStatement("""
            SELECT r.first_item, g.frames FROM cell_groups_rtree AS r
            JOIN cell_group_directory AS d
              ON d.layout_id = ?7 AND d.slot = ?8 AND d.first_item = r.first_item AND d.group_id = r.id
            JOIN cell_groups AS g ON g.id = r.id
            WHERE r.min_layout <= ?1 AND r.max_layout >= ?1 AND r.min_slot <= ?2 AND r.max_slot >= ?2
              AND r.min_cross <= ?4 AND r.max_cross >= ?3 AND r.min_scroll <= ?6 AND r.max_scroll >= ?5
            ORDER BY r.first_item
            """)
        try query.bind(Double(layoutID), Double(slot), bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
        try query.bind(layoutID, at: 7)
        try query.bind(slot, at: 8)
        while try query.step() {
            let first = query.int(at: 0)
            query.withBlob(at: 1) { raw in visitFrames(raw, firstItem: first, bounds: bounds, visit) }
        }
    }

    private static func visitFrames(_ raw: UnsafeRawBufferPointer, firstItem: Int, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) {
        for offset in 0..<FrameBlob.count(byteCount: raw.count) {
            let frame = FrameBlob.frame(raw, at: offset)
            if frame.cross <= bounds.maxCross, frame.crossEnd >= bounds.minCross,
               frame.scroll <= bounds.maxScroll, frame.scrollEnd >= bounds.minScroll {
                visit(firstItem + offset, frame)
            }
        }
    }

    /// The frame of one cell, or nil.
    static func frame(layoutID: Int64, slot: Int, item: Int, connection: Connection) throws -> LocalFrame? {
        let first = item - item % CellGroupWriter.groupSize
        let query = try connection.cachedStatement("""
            SELECT g.frames FROM cell_group_directory AS d JOIN cell_groups AS g ON g.id = d.group_id
            WHERE d.layout_id = ? AND d.slot = ? AND d.first_item = ?
            """)
        try query.bind(layoutID, slot, first)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.withBlob(at: 0) { raw in
            let offset = item - first
            return offset < FrameBlob.count(byteCount: raw.count) ? FrameBlob.frame(raw, at: offset) : nil
        }
    }
}
