import TesseraLayout

/// The rows that hold cells: `cell_groups` (exact frames) and
/// `cell_groups_rtree` (their union rect, an index only).
enum CellGroups {
    /// Inserts or replaces the group of `section` starting at `firstItem`.
    static func write(layoutID: Int64, section: Int, firstItem: Int, frames: [LocalFrame], connection: Connection) throws {
        var bounds = (minCross: Double.infinity, maxCross: -Double.infinity, minScroll: Double.infinity, maxScroll: -Double.infinity)
        for frame in frames {
            bounds.minCross = min(bounds.minCross, frame.cross)
            bounds.maxCross = max(bounds.maxCross, frame.crossEnd)
            bounds.minScroll = min(bounds.minScroll, frame.scroll)
            bounds.maxScroll = max(bounds.maxScroll, frame.scrollEnd)
        }
        let existing = try connection.cachedStatement(
            "SELECT id FROM cell_groups WHERE layout_id = ? AND section = ? AND first_item = ?"
        )
        try existing.bind(layoutID, section, firstItem)
        var groupID: Int64?
        if try existing.step() { groupID = existing.int64(at: 0) }
        existing.reset()
        let blob = FrameBlob.encode(frames[...])
        if let groupID {
            let update = try connection.cachedStatement("UPDATE cell_groups SET frames = ? WHERE id = ?")
            try update.bind(groupID, at: 2)
            try blob.withUnsafeBytes { raw in try update.withBlobBoundWithoutCopy(raw, at: 1) { try update.execute() } }
            let index = try connection.cachedStatement(
                "UPDATE cell_groups_rtree SET min_cross = ?, max_cross = ?, min_scroll = ?, max_scroll = ? WHERE id = ?"
            )
            try index.bind(bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll, groupID)
            try index.execute()
            return
        }
        let insert = try connection.cachedStatement(
            "INSERT INTO cell_groups (layout_id, section, first_item, frames) VALUES (?, ?, ?, ?)"
        )
        try insert.bind(layoutID, section, firstItem)
        try blob.withUnsafeBytes { raw in try insert.withBlobBoundWithoutCopy(raw, at: 4) { try insert.execute() } }
        let id = connection.lastInsertRowID
        let index = try connection.cachedStatement("INSERT INTO cell_groups_rtree VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try index.bind(id, Double(layoutID), Double(layoutID), Double(section), Double(section))
        try index.bind(bounds.minCross, at: 6)
        try index.bind(bounds.maxCross, at: 7)
        try index.bind(bounds.minScroll, at: 8)
        try index.bind(bounds.maxScroll, at: 9)
        try index.execute()
    }

    /// Deletes every group of a layout (or of one of its sections), index rows first.
    static func delete(layoutID: Int64, section: Int? = nil, connection: Connection) throws {
        if let section {
            let index = try connection.cachedStatement(
                "DELETE FROM cell_groups_rtree WHERE id IN (SELECT id FROM cell_groups WHERE layout_id = ? AND section = ?)"
            )
            try index.bind(layoutID, section)
            try index.execute()
            let groups = try connection.cachedStatement("DELETE FROM cell_groups WHERE layout_id = ? AND section = ?")
            try groups.bind(layoutID, section)
            try groups.execute()
        } else {
            let index = try connection.cachedStatement(
                "DELETE FROM cell_groups_rtree WHERE id IN (SELECT id FROM cell_groups WHERE layout_id = ?)"
            )
            try index.bind(layoutID)
            try index.execute()
            let groups = try connection.cachedStatement("DELETE FROM cell_groups WHERE layout_id = ?")
            try groups.bind(layoutID)
            try groups.execute()
        }
    }

    /// Calls `visit(item, frame)` for the cells of `section` whose groups'
    /// index rects meet `bounds`, in ascending item order.
    static func forEachCandidate(
        layoutID: Int64,
        section: Int,
        bounds: QueryBounds,
        connection: Connection,
        _ visit: (Int, LocalFrame) -> Void
    ) throws {
        // The R*Tree stores 32-bit floats rounded outward, so it never misses a
        // group; the exact test happens on the frames from the blob.
        let query = try connection.cachedStatement("""
            SELECT g.first_item, g.frames FROM cell_groups_rtree AS r JOIN cell_groups AS g ON g.id = r.id
            WHERE r.min_layout <= ?1 AND r.max_layout >= ?1 AND r.min_section <= ?2 AND r.max_section >= ?2
              AND r.min_cross <= ?4 AND r.max_cross >= ?3 AND r.min_scroll <= ?6 AND r.max_scroll >= ?5
            ORDER BY g.first_item
            """)
        try query.bind(Double(layoutID), Double(section), bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
        while try query.step() {
            let first = query.int(at: 0)
            query.withBlob(at: 1) { raw in
                for offset in 0..<FrameBlob.count(byteCount: raw.count) {
                    let frame = FrameBlob.frame(raw, at: offset)
                    if frame.cross <= bounds.maxCross, frame.crossEnd >= bounds.minCross,
                       frame.scroll <= bounds.maxScroll, frame.scrollEnd >= bounds.minScroll {
                        visit(first + offset, frame)
                    }
                }
            }
        }
    }

    /// The frame of one cell, or nil.
    static func frame(layoutID: Int64, section: Int, item: Int, connection: Connection) throws -> LocalFrame? {
        let first = item - item % CellGroupWriter.groupSize
        let query = try connection.cachedStatement(
            "SELECT frames FROM cell_groups WHERE layout_id = ? AND section = ? AND first_item = ?"
        )
        try query.bind(layoutID, section, first)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.withBlob(at: 0) { raw in
            let offset = item - first
            return offset < FrameBlob.count(byteCount: raw.count) ? FrameBlob.frame(raw, at: offset) : nil
        }
    }
}
