import TesseraLayout
import TesseraStore

/// The writer connection changes the store's rows for ``LayoutStore`` (see
/// `StorageWriter`), inside the pool's write transaction.
extension Connection: StorageWriter {
    // MARK: Specs

    package func insertSpec(_ spec: SpecRow) throws -> Int64 {
        let insert = try cachedStatement("""
            INSERT INTO specs (name, body, content_hash, axis, section_count, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.bind(spec.name, spec.header, spec.contentHash, spec.axis.rawValue, spec.sectionCount, spec.updatedAt, spec.updatedAt)
        try insert.execute()
        return lastInsertRowID
    }

    package func updateSpec(id: Int64, _ spec: SpecRow) throws {
        let update = try cachedStatement(
            "UPDATE specs SET body = ?, content_hash = ?, axis = ?, section_count = ?, updated_at = ? WHERE id = ?"
        )
        try update.bind(spec.header, spec.contentHash, spec.axis.rawValue, spec.sectionCount, spec.updatedAt, id)
        try update.execute()
    }

    package func touchSpec(id: Int64, contentHash: String, updatedAt: Double) throws {
        let touch = try cachedStatement("UPDATE specs SET content_hash = ?, updated_at = ? WHERE id = ?")
        try touch.bind(contentHash, updatedAt, id)
        try touch.execute()
    }

    package func deleteSpec(id: Int64) throws {
        let delete = try cachedStatement("DELETE FROM specs WHERE id = ?")
        try delete.bind(id)
        try delete.execute()
    }

    package func deleteSectionBodies(specID: Int64) throws {
        let clear = try cachedStatement("DELETE FROM spec_sections WHERE spec_id = ?")
        try clear.bind(specID)
        try clear.execute()
    }

    package func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws {
        let write = try cachedStatement(
            "INSERT OR REPLACE INTO spec_sections (spec_id, section, identity, content_hash, body) VALUES (?, ?, ?, ?, ?)"
        )
        try write.bind(specID, index, identity, contentHash, body)
        try write.execute()
    }

    // MARK: Layouts

    package func insertLayout(_ layout: NewLayoutRow) throws -> Int64 {
        let insert = try cachedStatement("""
            INSERT INTO layouts (spec_id, cross_extent, engine_version, spec_hash, content_length, section_count,
                                 cell_count, element_count, status, created_at, updated_at)
            VALUES (?, ?, ?, ?, 0, 0, 0, 0, 'ready', ?, ?)
            """)
        try insert.bind(layout.specID, layout.crossExtent, layout.engineVersion, layout.specHash, layout.createdAt, layout.createdAt)
        try insert.execute()
        return lastInsertRowID
    }

    package func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) throws {
        let update = try cachedStatement("""
            UPDATE layouts SET content_length = ?, section_count = ?, cell_count = ?, element_count = ?,
                               overhang = ?, compute_seconds = ? WHERE id = ?
            """)
        try update.bind(summary.contentLength, summary.sectionCount, summary.cellCount, summary.elementCount)
        try update.bind(summary.overhang, at: 5)
        try update.bind(computeSeconds, at: 6)
        try update.bind(id, at: 7)
        try update.execute()
    }

    package func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) throws {
        let update = try cachedStatement("""
            UPDATE layouts SET content_length = ?, section_count = ?, cell_count = ?, element_count = ?, overhang = ?,
                               spec_hash = ?, revision = revision + 1, updated_at = ? WHERE id = ?
            """)
        try update.bind(summary.contentLength, summary.sectionCount, summary.cellCount, summary.elementCount, summary.overhang)
        try update.bind(specHash, at: 6)
        try update.bind(updatedAt, at: 7)
        try update.bind(id, at: 8)
        try update.execute()
    }

    package func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) throws -> Int {
        let update = try cachedStatement(crossExtent == nil
            ? "UPDATE layouts SET status = 'stale', updated_at = ? WHERE spec_id = ?"
            : "UPDATE layouts SET status = 'stale', updated_at = ? WHERE spec_id = ? AND cross_extent = ?")
        try update.bind(updatedAt, specID)
        if let crossExtent { try update.bind(crossExtent, at: 3) }
        try update.execute()
        return changes
    }

    package func deleteLayout(id: Int64) throws {
        try deleteGroups(layoutID: id, slot: nil)
        try deleteSections(layoutID: id)
        let layout = try cachedStatement("DELETE FROM layouts WHERE id = ?")
        try layout.bind(id)
        try layout.execute()
    }

    // MARK: Sections

    package func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        try SectionRow.insert(section, placerState: placerState, layoutID: layoutID, into: self)
    }

    package func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) throws {
        let move = try cachedStatement("UPDATE layout_sections SET start = ?, end = ? WHERE layout_id = ? AND section = ?")
        try move.bind(start, end, layoutID, index)
        try move.execute()
    }

    package func deleteSections(layoutID: Int64) throws {
        let clear = try cachedStatement("DELETE FROM layout_sections WHERE layout_id = ?")
        try clear.bind(layoutID)
        try clear.execute()
    }
}
