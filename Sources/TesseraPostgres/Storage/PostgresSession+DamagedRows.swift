import PostgresNIO
import TesseraLayout
import TesseraStore

/// Finding every row that does not match its checksum, for the store's
/// check: whole tables in SQL (frame blobs in pages, hashed here), without
/// the reads that throw at the first one.
extension PostgresSession {
    /// The layout a row belongs to, by its (unverified) id: its spec name
    /// and extent when that row can still be read.
    private static func layoutPlace(_ column: String) -> String {
        """
        \(column), (SELECT s.name FROM layouts AS l JOIN specs AS s ON s.id = l.spec_id WHERE l.id = \(column)),
        (SELECT l.cross_extent FROM layouts AS l WHERE l.id = \(column))
        """
    }

    private static let damagedRowQueries: [(what: String, sql: String)] = [
        ("its row in specs", "SELECT NULL::int8, t.name, NULL::float8 FROM specs AS t WHERE NOT \(intact("t"))"),
        ("a stored section of its spec", """
            SELECT NULL::int8, (SELECT s.name FROM specs AS s WHERE s.id = t.spec_id), NULL::float8 FROM spec_sections AS t
            WHERE NOT \(intact("t"))
            """),
        ("items appended to a section of its spec", """
            SELECT NULL::int8, (SELECT s.name FROM specs AS s WHERE s.id = t.spec_id), NULL::float8 FROM spec_item_runs AS t
            WHERE NOT \(intact("t"))
            """),
        ("its row in layouts", "SELECT \(layoutPlace("t.id")) FROM layouts AS t WHERE NOT \(intact("t"))"),
        ("a section row", "SELECT \(layoutPlace("t.layout_id")) FROM layout_sections AS t WHERE NOT \(intact("t"))"),
        ("a cell group's directory row", "SELECT \(layoutPlace("t.layout_id")) FROM cell_groups AS t WHERE NOT \(intact("t"))"),
        ("a cell group's reach", """
            SELECT \(layoutPlace("t.layout_id")) FROM cell_groups AS t
            WHERE t.reach_checksum IS DISTINCT FROM tessera_reach_checksum(t)
            """),
    ]

    func damagedRows() throws -> [DamagedRow] {
        var damaged: [DamagedRow] = []
        /// `what`, in the layout `layoutPlace` selected from column `first` on.
        func add(_ what: String, _ columns: RowColumns, from first: Int) throws {
            damaged.append(DamagedRow(
                what: what, layoutID: try columns.optionalInt64(first), spec: try columns.optionalText(first + 1),
                crossExtent: try columns.optionalDouble(first + 2)
            ))
        }
        for (what, sql) in Self.damagedRowQueries {
            for columns in try rows(sql) { try add(what, columns, from: 0) }
        }
        // Frame blobs, a page of groups at a time.
        var after: Int64 = .min
        while true {
            let page = try rows("""
                SELECT t.id, frames, frames_checksum, \(Self.layoutPlace("t.layout_id")) FROM cell_groups AS t
                WHERE t.id > $1 ORDER BY t.id LIMIT 256
                """, .of(after))
            for columns in page {
                after = try columns.int64(0)
                let intact = columns.bytes(1)?.withUnsafeReadableBytes { Checksum.of($0) } == (try columns.int64(2))
                if !intact { try add("a cell group's frame blob", columns, from: 3) }
            }
            if page.count < 256 { return damaged }
        }
    }
}
