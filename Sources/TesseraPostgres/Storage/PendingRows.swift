import NIOCore
import PostgresNIO
import TesseraStore

/// Rows of the many-row tables (sections, cell groups) a write has made but
/// not sent: they go to the server in batches, each one statement over
/// arrays (`unnest`), not a statement per row. Any other statement of the
/// session sends them first, so the transaction sees its own writes in order.
struct PendingRows {
    /// One table's rows, by key: a row written twice in one batch is sent
    /// once, as written last (one statement may not change a row twice).
    private struct Batch {
        var rows: [Row] = []
        var positions: [[ColumnValue]: Int] = [:]

        /// Adds `row` under `key`, or puts it in place of the one there; the row it replaces.
        mutating func add(_ row: Row, key: [ColumnValue]) -> Row? {
            guard let position = positions[key] else {
                positions[key] = rows.count
                rows.append(row)
                return nil
            }
            defer { rows[position] = row }
            return rows[position]
        }
    }

    private static func blobBytes(_ row: Row) -> Int {
        row.reduce(0) { $0 + ($1.blob?.count ?? 0) }
    }

    /// By table number, and whether the rows carry their number.
    private var batches: [Int: Batch] = [:]
    private var bytes = 0

    /// Bytes of blobs after which the rows are sent (about 1,000 full groups).
    private static let batchBytes = 8 << 20

    static let batched: Set = [RowTable.layoutSections.number, RowTable.cellGroups.number]

    var isEmpty: Bool { batches.isEmpty }
    var isFull: Bool { bytes >= Self.batchBytes }

    mutating func add(_ row: Row, to table: RowTable) {
        let numbered = table.counted.map { !row[$0].isNull } ?? true
        let key = table.number * 2 + (numbered ? 1 : 0)
        bytes += Self.blobBytes(row)
        if let replaced = batches[key, default: Batch()].add(row, key: table.key(of: row)) { bytes -= Self.blobBytes(replaced) }
    }

    /// The statements that write the rows, each with its parameters.
    func statements() throws -> [(sql: String, binds: PostgresBindings)] {
        try batches.keys.sorted().compactMap { key in
            guard let rows = batches[key]?.rows, let first = rows.first else { return nil }
            let table = PostgresTable.of(RowTable.all[key / 2])
            let columns = PostgresRows.inserted(table, first)
            var binds = PostgresBindings(capacity: columns.count)
            for column in columns {
                let values = try rows.map { try table.parameter($0[column], column) }
                binds.append(PostgresData(array: values, elementType: table.types[column].dataType))
            }
            return (PostgresRows.insertSQL(table, columns, batched: true), binds)
        }
    }
}
