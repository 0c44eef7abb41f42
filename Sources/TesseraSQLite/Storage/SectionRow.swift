import SQLiteToolkit
import TesseraLayout
import TesseraStore

/// The `layout_sections` columns: a section's geometry, which is all a query
/// needs to place its cells, header, footer and background, and its slot.
enum SectionRow {
    /// The columns a read selects: `record(from:)` reads them, the 16th
    /// the row's checksum test, the last an orthogonal section's content
    /// length (Migrations/0007_orthogonal_sections.sql).
    static let columns = "\(geometryColumns), \(intact), orthogonal_content_length"
    /// The test of a row's checksum.
    static let intact = ChecksummedColumns.intact(ChecksummedColumns.layoutSections)

    /// The columns a write sets, besides the layout id, end and placer state.
    private static let geometryColumns = """
        section, start, item_count, items_extent, cell_span_low, cell_span_high, header_size, header_pinned,
        footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset, slot
        """

    static func insert(_ record: SectionRecord, placerState: [UInt8]?, layoutID: Int64, into connection: Connection) throws {
        let statement = try connection.cachedStatement("""
            INSERT OR REPLACE INTO layout_sections (
                layout_id, \(Self.geometryColumns), end, placer_state, orthogonal_content_length, checksum)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
                    tessera_checksum(?1, ?2, ?16, ?3, ?17, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?18, ?19))
            """)
        // The checksum's arguments are the parameters in the order of
        // ChecksummedColumns.layoutSections, bound as the columns store them.
        let geometry = record.geometry
        try statement.bind(layoutID, geometry.index, geometry.start, geometry.itemCount, geometry.itemsExtent)
        try statement.bind(geometry.cellSpan?.lowerBound, at: 6)
        try statement.bind(geometry.cellSpan?.upperBound, at: 7)
        try statement.bind(geometry.header?.size, at: 8)
        try statement.bind(geometry.header?.pinned ?? false, at: 9)
        try statement.bind(geometry.footer?.size, at: 10)
        try statement.bind(geometry.footer?.pinned ?? false, at: 11)
        try statement.bind(geometry.background, at: 12)
        try statement.bind(geometry.scrollStartInset, at: 13)
        try statement.bind(geometry.scrollEndInset, at: 14)
        try statement.bind(geometry.crossStartInset, at: 15)
        try statement.bind(record.slot, at: 16)
        try statement.bind(geometry.end, at: 17)
        try statement.bind(placerState, at: 18)
        try statement.bind(geometry.orthogonalContentLength, at: 19)
        try statement.execute()
    }

    /// Reads a row from a statement that selected `columns` first; throws
    /// `damaged` when the row does not match its checksum.
    static func record(from statement: Statement, layoutID: Int64, connection: Connection) throws -> SectionRecord {
        try verify(statement, at: 15, section: statement.int(at: 0), layoutID: layoutID, connection: connection)
        let spanLow: Double? = statement.isNull(at: 4) ? nil : statement.double(at: 4)
        let spanHigh: Double? = statement.isNull(at: 5) ? nil : statement.double(at: 5)
        let geometry = SectionGeometry(
            index: statement.int(at: 0),
            start: statement.double(at: 1),
            header: statement.isNull(at: 6) ? nil : Supplementary(size: statement.double(at: 6), pinned: statement.bool(at: 7)),
            footer: statement.isNull(at: 8) ? nil : Supplementary(size: statement.double(at: 8), pinned: statement.bool(at: 9)),
            background: statement.bool(at: 10),
            scrollStartInset: statement.double(at: 11),
            scrollEndInset: statement.double(at: 12),
            crossStartInset: statement.double(at: 13),
            itemCount: statement.int(at: 2),
            itemsExtent: statement.double(at: 3),
            cellSpan: spanLow.flatMap { low in spanHigh.map { low...$0 } },
            orthogonalContentLength: statement.isNull(at: 16) ? nil : statement.double(at: 16)
        )
        return SectionRecord(geometry: geometry, slot: statement.int(at: 14))
    }

    /// Throws `damaged` unless column `index` (the checksum test) is 1.
    static func verify(_ statement: Statement, at index: Int, section: Int, layoutID: Int64, connection: Connection) throws {
        try connection.verify(statement, at: index, "the row of section \(section) of layout \(layoutID)")
    }
}
