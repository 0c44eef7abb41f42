import NIOCore
import PostgresNIO
import TesseraStore

/// Where a logical table of the store (``RowTable``) lies in PostgreSQL:
/// the table of its name, with its columns' types there. Two columns are
/// named otherwise (a section's `scroll_start` and `scroll_end`, a group's
/// `id`), and the store's hash prefixes are not kept (an append reads every
/// section's identity instead, in one round trip).
struct PostgresTable: Sendable {
    /// A column's type in PostgreSQL, as parameters are cast to it.
    enum ColumnType: String, Sendable {
        case int8, float8, text, bytea, bool

        var dataType: PostgresDataType {
            switch self {
            case .int8: .int8
            case .float8: .float8
            case .text: .text
            case .bytea: .bytea
            case .bool: .bool
            }
        }
    }

    let table: RowTable
    /// Nil for a table PostgreSQL does not keep.
    let name: String?
    let columns: [String]
    let types: [ColumnType]
    /// For each checksum of columns (not of a blob's bytes): whether it holds
    /// in the row aliased `t`, tested in SQL with PostgreSQL's own hash,
    /// which its triggers write (NULL when the checksum is NULL).
    let tests: [Int: String]

    private static let renamed = ["start": "scroll_start", "end": "scroll_end", "group_id": "id"]
    private static let reals: Set = [
        "cross_extent", "updated_at", "content_length", "overhang", "compute_seconds", "start", "end", "items_extent",
        "cell_span_low", "cell_span_high", "header_size", "footer_size", "scroll_start_inset", "scroll_end_inset",
        "cross_start_inset", "orthogonal_content_length", "min_cross", "max_cross", "min_scroll", "max_scroll",
        "reach_start", "reach_end", "reach_slack",
    ]
    private static let texts: Set = ["name", "body", "content_hash", "axis", "identity", "items", "spec_hash", "status"]
    private static let blobs: Set = ["hash_state", "state", "directory_summary", "placer_state", "frames"]
    private static let flags: Set = ["header_pinned", "footer_pinned", "background"]
    private static let testFunctions = ["checksum": "tessera_checksum", "reach_checksum": "tessera_reach_checksum"]

    private init(_ table: RowTable) {
        self.table = table
        name = table.name == RowTable.specHashPrefixes.name ? nil : table.name
        columns = table.columns.map { Self.renamed[$0] ?? $0 }
        types = table.columns.map { column in
            if Self.reals.contains(column) { return .float8 }
            if Self.texts.contains(column) { return .text }
            if Self.blobs.contains(column) { return .bytea }
            return Self.flags.contains(column) ? .bool : .int8
        }
        var tests: [Int: String] = [:]
        for checksum in table.checksums where !checksum.ofBytes {
            let column = table.columns[checksum.column]
            guard let function = Self.testFunctions[column] else { preconditionFailure("\(table.name).\(column) has no test in PostgreSQL") }
            tests[checksum.column] = "CASE WHEN t.\(column) IS NULL THEN NULL ELSE t.\(column) = \(function)(t) END"
        }
        self.tests = tests
    }

    /// Every table of the store, by number.
    private static let all = RowTable.all.map(PostgresTable.init)

    static func of(_ table: RowTable) -> PostgresTable {
        precondition(table.number >= 0 && table.number < all.count, "PostgreSQL keeps only the tables of RowTable.all, not \(table.name)")
        return all[table.number]
    }

    /// What a read selects for `column`: its value, or its checksum's test.
    func selected(_ column: Int) -> String {
        tests[column] ?? "t.\(columns[column])"
    }

    /// Specs and layouts also keep when they were created: when first updated.
    var createdFrom: Int? {
        table === RowTable.specs || table === RowTable.layouts ? table.columns.firstIndex(of: "updated_at") : nil
    }

    // MARK: Values

    /// `value` as a parameter of `column`'s type (the SQL casts it there).
    func parameter(_ value: ColumnValue, _ column: Int) throws -> PostgresData {
        let type = types[column]
        switch (type, value) {
        case (_, .null): return PostgresData(type: type.dataType, value: nil)
        case (.int8, .integer(let integer)): return PostgresData(int64: integer)
        case (.float8, .real(let real)): return PostgresData(double: real)
        case (.float8, .integer(let integer)): return PostgresData(double: Double(integer))
        case (.text, .text(let text)): return PostgresData(string: text)
        case (.bytea, .blob(let bytes)): return PostgresData(type: .bytea, value: ByteBuffer(bytes: bytes))
        case (.bool, .integer(let flag)): return PostgresData(bool: flag != 0)
        default:
            throw StoreError(.internal, "\(table.name).\(table.columns[column]) was given \(value), not a value of type \(type.rawValue)")
        }
    }

    /// Cells of a result, from `offset`, as the row of `wanted` columns a
    /// scan hands the store: each checksum the server found holding given
    /// as the store's own of the row (which it then verifies), a broken one
    /// as a value that cannot hold.
    func row(_ cells: PostgresRandomAccessRow, from offset: Int = 0, wanted: [Int]) -> Row {
        var row = Row(repeating: .null, count: columns.count)
        var held: [(column: Int, holds: Bool)] = []
        for (position, column) in wanted.enumerated() {
            let value = Self.value(cells[offset + position])
            guard tests[column] != nil else {
                row[column] = value
                continue
            }
            if let flag = value.integer { held.append((column, flag != 0)) }
        }
        for (column, holds) in held {
            guard let checksum = table.checksums.first(where: { $0.column == column }) else { continue }
            let value = checksum.value(of: row)
            row[column] = .integer(holds ? value : ~value)
        }
        return row
    }

    /// A cell's value, read from its binary form (every statement asks for
    /// binary results; a prepared one's cells may still say text).
    private static func value(_ cell: PostgresCell) -> ColumnValue {
        guard var bytes = cell.bytes else { return .null }
        switch cell.dataType {
        case .int8: return bytes.readInteger(as: Int64.self).map { .integer($0) } ?? .null
        case .int4: return bytes.readInteger(as: Int32.self).map { .integer(Int64($0)) } ?? .null
        case .int2: return bytes.readInteger(as: Int16.self).map { .integer(Int64($0)) } ?? .null
        case .float8: return bytes.readInteger(as: UInt64.self).map { .real(Double(bitPattern: $0)) } ?? .null
        case .float4: return bytes.readInteger(as: UInt32.self).map { .real(Double(Float(bitPattern: $0))) } ?? .null
        case .bool: return bytes.readInteger(as: UInt8.self).map { .integer($0 == 0 ? 0 : 1) } ?? .null
        case .bytea: return .blob(Array(bytes.readableBytesView))
        default: return .text(String(buffer: bytes))
        }
    }
}
