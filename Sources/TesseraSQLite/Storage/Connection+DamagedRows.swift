import SQLiteToolkit
import TesseraLayout
import TesseraStore

/// Finding every row that does not match its checksum, for the store's
/// check: whole tables in SQL, without the reads that throw at the first one.
extension Connection {
    /// The layout a row belongs to, by its (unverified) id: its spec name and
    /// extent when that row can still be read.
    private static func layoutPlace(_ column: String) -> String {
        """
        \(column), (SELECT s.name FROM layouts AS l JOIN specs AS s ON s.id = l.spec_id WHERE l.id = \(column)),
        (SELECT l.cross_extent FROM layouts AS l WHERE l.id = \(column))
        """
    }

    private static let damagedRowQueries: [(what: String, sql: String)] = [
        ("its row in specs", """
            SELECT NULL, t.name, NULL FROM specs AS t WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.specs, prefix: "t.")))
            """),
        ("a stored section of its spec", """
            SELECT NULL, (SELECT s.name FROM specs AS s WHERE s.id = t.spec_id), NULL FROM spec_sections AS t
            WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.specSections, prefix: "t.")))
            """),
        ("items appended to a section of its spec", """
            SELECT NULL, (SELECT s.name FROM specs AS s WHERE s.id = t.spec_id), NULL FROM spec_item_runs AS t
            WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.itemRuns, prefix: "t.")))
            """),
        ("what its content hash goes on from", """
            SELECT NULL, (SELECT s.name FROM specs AS s WHERE s.id = t.spec_id), NULL FROM spec_hash_prefixes AS t
            WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.specHashPrefixes, prefix: "t.")))
            """),
        ("its row in layouts", """
            SELECT \(layoutPlace("t.id")) FROM layouts AS t WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.layouts, prefix: "t.")))
            """),
        ("a section row", """
            SELECT \(layoutPlace("t.layout_id")) FROM layout_sections AS t
            WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.layoutSections, prefix: "t.")))
            """),
        ("a cell group's directory row", """
            SELECT \(layoutPlace("t.layout_id")) FROM cell_group_directory AS t
            WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.directory, prefix: "t.")))
            """),
        ("a cell group's reach", """
            SELECT \(layoutPlace("t.layout_id")) FROM cell_group_directory AS t
            WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.reach, prefix: "t.", checksum: "reach_checksum")))
            """),
        ("a cell group's frame blob", """
            SELECT \(layoutPlace("d.layout_id")) FROM cell_group_directory AS d LEFT JOIN cell_groups AS g ON g.id = d.group_id
            WHERE g.id IS NULL OR tessera_hash(g.frames) IS NOT d.frames_checksum
            """),
    ]

    package func damagedRows() throws -> [DamagedRow] {
        var rows: [DamagedRow] = []
        for (what, sql) in Self.damagedRowQueries {
            let query = try prepare(sql)
            while try query.step() {
                rows.append(DamagedRow(
                    what: what,
                    layoutID: query.isNull(at: 0) ? nil : query.int64(at: 0),
                    spec: query.isNull(at: 1) ? nil : query.text(at: 1),
                    crossExtent: query.isNull(at: 2) ? nil : query.double(at: 2)
                ))
            }
        }
        return rows
    }

    package func markStale(layoutID: Int64, updatedAt: Double) throws {
        let update = try cachedStatement("UPDATE layouts SET status = 'stale', updated_at = ? WHERE id = ?")
        try update.bind(updatedAt, layoutID)
        try update.execute()
    }
}
