import TesseraStoreFormat
/// A table as the store uses it (columns, keys, which columns checksum which); backends map it onto their own tables,
/// the in-memory one keeps it as is. A class: every read names its table, and a reference costs one count to pass.
package final class RowTable: Sendable {
    package let name: String
    /// Its place in ``all`` (-1 for a table of a test): a backend's cheap key.
    package let number: Int
    package let columns: [String]
    /// The primary key's columns: at most one row for each of their values.
    package let primaryKey: [Int]
    /// Further unique keys (index 1…): each names at most one row too.
    package let uniqueKeys: [[Int]]
    /// The column numbered by ``RowWriter/nextNumber(_:for:)``.
    package let counted: Int?
    package let checksums: [RowChecksum]

    package init(
        _ name: String, _ columns: [String], primaryKey: [String], uniqueKeys: [[String]] = [], counted: String? = nil,
        checksums: [RowChecksum] = [], number: Int = -1
    ) {
        self.name = name
        self.number = number
        self.columns = columns
        let position = { Self.position(of: $0, in: columns, table: name) }
        self.primaryKey = primaryKey.map(position)
        self.uniqueKeys = uniqueKeys.map { $0.map(position) }
        self.counted = counted.map(position)
        self.checksums = checksums
        precondition(checksums.count <= 8, "\(name) has more checksums than a row's HeldChecksums can hold")
    }

    /// Where `column` is among `columns`: a table names only its own columns.
    fileprivate static func position(of column: String, in columns: [String], table: String) -> Int {
        guard let index = columns.firstIndex(of: column) else { preconditionFailure("\(table) has no column \(column)") }
        return index
    }

    /// The columns of index `index` (0: the primary key).
    package func keyColumns(_ index: Int) -> [Int] {
        index == 0 ? primaryKey : uniqueKeys[index - 1]
    }

    /// The values of `row` in the columns of index `index`.
    package func key(of row: Row, index: Int = 0) -> [ColumnValue] {
        keyColumns(index).map { row[$0] }
    }
}

/// A column holding the checksum of others: of their values as a
/// ``ChecksumRecord`` hashes them, or of one blob's bytes alone.
package struct RowChecksum: Sendable {
    package let column: Int
    package let covered: [Int]
    package let ofBytes: Bool
    /// NULL here with every covered value NULL holds: columns a later schema added, never written.
    package let absentWhenNull: Bool

    /// The checksum of `row`'s covered columns.
    package func value(of row: some ScannedRow) -> Int64 {
        if ofBytes { return row.withBytes(covered[0]) { Checksum.of($0) } ?? Checksum.of([]) }
        var record = ChecksumRecord()
        row.add(covered, to: &record)
        return record.checksum
    }

    /// Whether `row` holds its covered columns' checksum.
    package func holds(in row: some ScannedRow) -> Bool {
        if absentWhenNull, row[column].isNull { return covered.allSatisfy { row[$0].isNull } }
        return row[column] == .integer(value(of: row))
    }

    /// Stores the checksum of `row`'s covered columns in `row`.
    package func seal(_ row: inout Row) {
        row[column] = .integer(value(of: row))
    }
}

extension RowTable {
    /// A checksum column as a table declares it: over `covered` (the
    /// columns before it when nil), of a blob's bytes alone, and whether
    /// NULL there with every covered value NULL holds.
    fileprivate struct Sum {
        var column: String
        var covered: [String]?
        var ofBytes = false
        var absentWhenNull = false
    }

    private static func table(
        _ number: Int, _ name: String, _ columns: [String], primaryKey: [String], uniqueKeys: [[String]] = [], counted: String? = nil,
        checksums: [Sum] = [Sum(column: "checksum")]
    ) -> RowTable {
        let sums = checksums.map { sum in
            let column = position(of: sum.column, in: columns, table: name)
            let covered = sum.covered?.map { position(of: $0, in: columns, table: name) } ?? Array(0..<column)
            return RowChecksum(column: column, covered: covered, ofBytes: sum.ofBytes, absentWhenNull: sum.absentWhenNull)
        }
        return RowTable(name, columns, primaryKey: primaryKey, uniqueKeys: uniqueKeys, counted: counted, checksums: sums, number: number)
    }

    // The checksummed columns come first, in the order SQLite's triggers
    // hash them (Migrations/0003_checksums.sql and later), so that a row
    // written by any backend verifies in any other.

    package static let specs = table(
        0, "specs", ["id", "name", "body", "content_hash", "axis", "section_count", "checksum", "updated_at"],
        primaryKey: ["id"], uniqueKeys: [["name"]], counted: "id"
    )
    package static let specNameConflicts = table(1, "spec_name_conflicts", ["name"], primaryKey: ["name"], checksums: [])
    package static let specSections = table(
        2, "spec_sections", ["spec_id", "section", "identity", "content_hash", "body", "checksum"], primaryKey: ["spec_id", "section"]
    )
    package static let itemRuns = table(
        3, "spec_item_runs", ["spec_id", "section", "first_item", "item_count", "items", "hash_state", "checksum"],
        primaryKey: ["spec_id", "section", "first_item"]
    )
    package static let specHashPrefixes = table(
        4, "spec_hash_prefixes", ["spec_id", "spec_hash", "section_count", "state", "checksum"], primaryKey: ["spec_id"]
    )
    package static let layouts = table(
        5, "layouts",
        [
            "id", "spec_id", "cross_extent", "engine_version", "spec_hash", "content_length", "section_count", "cell_count",
            "element_count", "overhang", "status", "revision", "checksum", "compute_seconds", "updated_at", "directory_summary",
        ],
        primaryKey: ["id"], uniqueKeys: [["spec_id", "cross_extent"]], counted: "id"
    )
    package static let layoutSections = table(
        6, "layout_sections",
        [
            "layout_id", "section", "slot", "start", "end", "item_count", "items_extent", "cell_span_low", "cell_span_high",
            "header_size", "header_pinned", "footer_size", "footer_pinned", "background", "scroll_start_inset",
            "scroll_end_inset", "cross_start_inset", "placer_state", "orthogonal_content_length", "checksum",
        ],
        primaryKey: ["layout_id", "section"], uniqueKeys: [["layout_id", "end", "section"], ["layout_id", "slot"]]
    )
    /// A cell group: directory row, reach and frames, each under its own checksum (SQLite keeps frames in a table of
    /// their own). Frames come last, so a directory read leaves them out (``RowRange/columns``, ``directoryColumns``).
    /// A row written before schema version 6 has a NULL reach, checksum and all.
    package static let cellGroups = table(
        7, "cell_groups",
        [
            "layout_id", "slot", "first_item", "group_id", "min_cross", "max_cross", "min_scroll", "max_scroll", "checksum",
            "reach_start", "reach_end", "reach_slack", "reach_checksum", "frames_checksum", "frames",
        ],
        primaryKey: ["layout_id", "slot", "first_item"], uniqueKeys: [["group_id"]], counted: "group_id",
        checksums: [
            Sum(column: "checksum"),
            Sum(
                column: "reach_checksum", covered: ["layout_id", "slot", "first_item", "reach_start", "reach_end", "reach_slack"],
                absentWhenNull: true
            ),
            Sum(column: "frames_checksum", covered: ["frames"], ofBytes: true),
        ]
    )

    /// A layout's row and its spec's name, content hash and axis, by name and extent: read only, each backend joins them.
    package static let layoutsByName = RowTable("layouts_by_name", layouts.columns + ["name", "content_hash", "axis"],
                                                primaryKey: ["name", "cross_extent"], checksums: layouts.checksums, number: all.count)

    /// A layout's directory summary (the last column), and the columns before it.
    package static let layoutSummaryColumn = 15
    package static let layoutColumnsButSummary = Array(0..<layoutSummaryColumn)

    /// The columns of a cell group before its frames, and its frames.
    package static let directoryColumns = Array(0..<14)
    package static let framesColumn = 14
    package static let framesOnly = [framesColumn]
    /// A group's place, bounds and their checksum: what its directory checksum covers.
    package static let directoryChecksummed = Array(0...8)

    /// Every table, parents before children.
    package static let all: [RowTable] = [
        specs, specNameConflicts, specSections, itemRuns, specHashPrefixes, layouts, layoutSections, cellGroups,
    ]
}
