import NIOCore
import PostgresNIO
import TesseraLayout
import TesseraStore

/// The writer session's statements that change the store's rows, for
/// ``PostgresWrite``, inside the storage's write transaction (READ
/// COMMITTED: each statement sees what other machines committed before it).
/// Those whose answer the store needs (an id, a count) run through
/// `answering`; the others are sent without waiting (`pipeline`).
///
/// Writers of one spec serialise on an advisory lock of the transaction,
/// keyed by the store's schema and the spec's name, taken before the
/// transaction reads anything of that spec; writers of other specs go on.
extension PostgresSession {
    /// Takes the advisory lock of spec `name` when this session writes and
    /// does not hold it yet (waits up to the lock timeout for another writer).
    func lockSpecIfWriting(_ name: String) throws {
        guard let schema = writingSchema, !lockedSpecs.contains(name) else { return }
        try pipeline("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", .of("tessera.\(schema).spec.\(name)"))
        lockedSpecs.insert(name)
    }

    // MARK: Specs

    func insertSpec(_ spec: SpecRow) throws -> Int64 {
        try lockSpecIfWriting(spec.name)
        guard let id = try scalarInt64("""
            INSERT INTO specs (name, body, content_hash, axis, section_count, created_at, updated_at, checksum)
            VALUES ($1, $2, $3, $4, $5, $6, $6, 0) RETURNING id
            """, .of(spec.name, spec.header, spec.contentHash, spec.axis.rawValue, spec.sectionCount, spec.updatedAt))
        else { throw StoreError(.internal, "inserting the spec \(spec.name.quotedForMessage) returned no id", store: location) }
        return id
    }

    func updateSpec(id: Int64, _ spec: SpecRow) throws {
        try pipeline(
            "UPDATE specs SET body = $1, content_hash = $2, axis = $3, section_count = $4, updated_at = $5 WHERE id = $6",
            .of(spec.header, spec.contentHash, spec.axis.rawValue, spec.sectionCount, spec.updatedAt, id)
        )
    }

    func touchSpec(id: Int64, contentHash: String, updatedAt: Double) throws {
        try pipeline("UPDATE specs SET content_hash = $1, updated_at = $2 WHERE id = $3", .of(contentHash, updatedAt, id))
    }

    func deleteSpec(id: Int64) throws {
        try pipeline("DELETE FROM specs WHERE id = $1", .of(id))
    }

    func clearNameConflict(name: String) throws {
        try pipeline("DELETE FROM spec_name_conflicts WHERE name = $1", .of(name))
    }

    func deleteSectionBodies(specID: Int64) throws {
        try pipeline("DELETE FROM spec_sections WHERE spec_id = $1", .of(specID))
        try pipeline("DELETE FROM spec_item_runs WHERE spec_id = $1", .of(specID))
    }

    func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws {
        try pipeline("""
            INSERT INTO spec_sections (spec_id, section, identity, content_hash, body, checksum) VALUES ($1, $2, $3, $4, $5, 0)
            ON CONFLICT (spec_id, section) DO UPDATE SET
                identity = EXCLUDED.identity, content_hash = EXCLUDED.content_hash, body = EXCLUDED.body
            """, .of(specID, index, identity, contentHash, body))
    }

    func deleteItemRuns(specID: Int64, sections: [Int]) throws {
        guard !sections.isEmpty else { return }
        // One statement: each fires the table's notify trigger.
        try pipeline("DELETE FROM spec_item_runs WHERE spec_id = $1 AND section = ANY($2::int8[])", .of(specID, sections.map(Int64.init)))
    }

    func appendItemRun(specID: Int64, _ run: ItemRun, contentHash: String) throws {
        try pipeline("""
            INSERT INTO spec_item_runs (spec_id, section, first_item, item_count, items, hash_state, checksum)
            VALUES ($1, $2, $3, $4, $5, $6, 0)
            """, .of(specID, run.section, run.firstItem, run.itemCount, run.items, ByteBuffer(bytes: run.hashState)))
        try pipeline("UPDATE spec_sections SET content_hash = $1 WHERE spec_id = $2 AND section = $3", .of(contentHash, specID, run.section))
    }

    // MARK: Layouts

    func insertLayout(_ layout: NewLayoutRow) throws -> Int64 {
        guard let id = try scalarInt64("""
            INSERT INTO layouts (spec_id, cross_extent, engine_version, spec_hash, content_length, section_count,
                                 cell_count, element_count, status, created_at, updated_at, checksum)
            VALUES ($1, $2, $3, $4, 0, 0, 0, 0, 'ready', $5, $5, 0) RETURNING id
            """, .of(layout.specID, layout.crossExtent, layout.engineVersion, layout.specHash, layout.createdAt))
        else { throw StoreError(.internal, "inserting a layout returned no id", store: location) }
        return id
    }

    func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) throws {
        try pipeline("""
            UPDATE layouts SET content_length = $1, section_count = $2, cell_count = $3, element_count = $4,
                               overhang = $5, compute_seconds = $6 WHERE id = $7
            """, .of(summary.contentLength, summary.sectionCount, summary.cellCount, summary.elementCount, summary.overhang, computeSeconds, id))
    }

    func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) throws {
        try pipeline("""
            UPDATE layouts SET content_length = $1, section_count = $2, cell_count = $3, element_count = $4, overhang = $5,
                               spec_hash = $6, revision = revision + 1, updated_at = $7 WHERE id = $8
            """, .of(summary.contentLength, summary.sectionCount, summary.cellCount, summary.elementCount, summary.overhang,
                     specHash, updatedAt, id))
    }

    func markStale(layoutID: Int64, updatedAt: Double) throws {
        try pipeline("UPDATE layouts SET status = 'stale', updated_at = $1 WHERE id = $2", .of(updatedAt, layoutID))
    }

    func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) throws -> Int {
        let result = if let crossExtent {
            try query("UPDATE layouts SET status = 'stale', updated_at = $1 WHERE spec_id = $2 AND cross_extent = $3",
                      .of(updatedAt, specID, crossExtent))
        } else {
            try query("UPDATE layouts SET status = 'stale', updated_at = $1 WHERE spec_id = $2", .of(updatedAt, specID))
        }
        return result.metadata.rows ?? 0
    }

    func writeDirectorySummary(layoutID: Int64, _ summary: [UInt8]?) throws {
        // Not a column of the row's checksum: its trigger does not fire.
        try pipeline("UPDATE layouts SET directory_summary = $1 WHERE id = $2", .of(summary.map { ByteBuffer(bytes: $0) }, layoutID))
    }

    func deleteLayout(id: Int64) throws {
        // Groups and sections go with it (ON DELETE CASCADE).
        try pipeline("DELETE FROM layouts WHERE id = $1", .of(id))
    }

    // MARK: Sections

    func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        pending.addSection(layoutID: layoutID, section, placerState: placerState)
    }

    func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) throws {
        try pipeline("UPDATE layout_sections SET scroll_start = $1, scroll_end = $2 WHERE layout_id = $3 AND section = $4",
                  .of(start, end, layoutID, index))
    }

    func deleteSections(layoutID: Int64) throws {
        try pipeline("DELETE FROM layout_sections WHERE layout_id = $1", .of(layoutID))
    }
}
