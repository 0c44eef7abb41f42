import SQLiteToolkit
import TesseraLayout
import TesseraStore

/// The writer connection changes the store's rows for ``LayoutStore`` in
/// every role (see `WriteTransaction`), inside the pool's write transaction.
extension Connection: WriteTransaction, SpecRows, LayoutRows, CellRows {
    // MARK: Specs

    package func insertSpec(_ spec: SpecRow) throws -> Int64 {
        // With its checksum (ChecksummedColumns.specs' order), so the insert
        // trigger has nothing to do, under the id SQLite would choose.
        let insert = try cachedStatement("""
            INSERT INTO specs (id, name, body, content_hash, axis, section_count, created_at, updated_at, checksum)
            SELECT n, ?1, ?2, ?3, ?4, ?5, ?6, ?6, tessera_checksum(n, ?1, ?2, ?3, ?4, ?5)
            FROM (SELECT coalesce(max(id), 0) + 1 AS n FROM specs)
            """)
        try insert.bind(spec.name, spec.header, spec.contentHash, spec.axis.rawValue, spec.sectionCount, spec.updatedAt)
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

    package func clearNameConflict(name: String) throws {
        let clear = try cachedStatement("DELETE FROM spec_name_conflicts WHERE name = ?")
        try clear.bind(name)
        try clear.execute()
    }

    package func deleteSectionBodies(specID: Int64) throws {
        for table in ["spec_sections", "spec_item_runs"] {
            let clear = try cachedStatement("DELETE FROM \(table) WHERE spec_id = ?")
            try clear.bind(specID)
            try clear.execute()
        }
    }

    package func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws {
        let write = try cachedStatement(
            // With its checksum (ChecksummedColumns.specSections' order).
            """
            INSERT OR REPLACE INTO spec_sections (spec_id, section, identity, content_hash, body, checksum)
            VALUES (?1, ?2, ?3, ?4, ?5, tessera_checksum(?1, ?2, ?3, ?4, ?5))
            """
        )
        try write.bind(specID, index, identity, contentHash, body)
        try write.execute()
    }

    package func deleteItemRuns(specID: Int64, sections: [Int]) throws {
        let clear = try cachedStatement("DELETE FROM spec_item_runs WHERE spec_id = ? AND section = ?")
        for section in sections {
            try clear.bind(specID, section)
            try clear.execute()
        }
    }

    package func appendItemRun(specID: Int64, _ run: ItemRun, contentHash: String) throws {
        let insert = try cachedStatement(
            // With its checksum (ChecksummedColumns.itemRuns' order).
            """
            INSERT INTO spec_item_runs (spec_id, section, first_item, item_count, items, hash_state, checksum)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, tessera_checksum(?1, ?2, ?3, ?4, ?5, ?6))
            """
        )
        try insert.bind(specID, run.section, run.firstItem, run.itemCount, run.items)
        try insert.bind(run.hashState, at: 6)
        try insert.execute()
        let update = try cachedStatement("UPDATE spec_sections SET content_hash = ? WHERE spec_id = ? AND section = ?")
        try update.bind(contentHash, specID, run.section)
        try update.execute()
    }

    package func writeSpecHashPrefix(specID: Int64, _ prefix: SpecHashPrefix) throws {
        let write = try cachedStatement(
            // With its checksum (ChecksummedColumns.specHashPrefixes' order).
            """
            INSERT OR REPLACE INTO spec_hash_prefixes (spec_id, spec_hash, section_count, state, checksum)
            VALUES (?1, ?2, ?3, ?4, tessera_checksum(?1, ?2, ?3, ?4))
            """
        )
        try write.bind(specID, prefix.specHash, prefix.sectionCount)
        try write.bind(prefix.state, at: 4)
        try write.execute()
    }

    // MARK: Layouts

    package func insertLayout(_ layout: NewLayoutRow) throws -> Int64 {
        try insertLayout(layout, .zero, computeSeconds: 0)
    }

    package func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64 {
        try insertLayout(layout, summary, computeSeconds: computeSeconds)
    }

    /// A layout row with its checksum (ChecksummedColumns.layouts' order),
    /// so the insert trigger has nothing to do, under the id AUTOINCREMENT
    /// would give it: above every id the table ever held.
    private func insertLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64 {
        let insert = try cachedStatement("""
            INSERT INTO layouts (id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count,
                                 cell_count, element_count, overhang, status, created_at, updated_at, compute_seconds, checksum)
            SELECT n, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'ready', ?10, ?10, ?11,
                   tessera_checksum(n, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'ready', 0)
            FROM (SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'layouts'), 0),
                             coalesce((SELECT max(id) FROM layouts), 0)) + 1 AS n)
            """)
        try insert.bind(layout.specID, layout.crossExtent, layout.engineVersion, layout.specHash, summary.contentLength)
        try insert.bind(summary.sectionCount, at: 6)
        try insert.bind(summary.cellCount, at: 7)
        try insert.bind(summary.elementCount, at: 8)
        try insert.bind(summary.overhang, at: 9)
        try insert.bind(layout.createdAt, at: 10)
        try insert.bind(computeSeconds, at: 11)
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

    package func writeDirectorySummary(layoutID: Int64, _ summary: [UInt8]?) throws {
        // Not a column of the row's checksum: no trigger fires.
        let update = try cachedStatement("UPDATE layouts SET directory_summary = ? WHERE id = ?")
        try update.bind(summary, at: 1)
        try update.bind(layoutID, at: 2)
        try update.execute()
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
