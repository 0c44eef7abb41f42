import NIOCore
import PostgresNIO
import TesseraLayout
import TesseraStore

/// The store's rows in PostgreSQL, through the port of rows, on one
/// session: in a read's snapshot (see `PostgresStorage.read`) or in a write
/// transaction, whose statements are pipelined (`PostgresSession+Pipeline`).
///
/// PostgreSQL keeps checksums of its own, written by its triggers with
/// `hash_record_extended`: a scan tests them in SQL and hands the store each
/// that holds as the store's own checksum of the row (see
/// ``PostgresTable/row(_:from:wanted:)``). The store's checksum of frame
/// bytes is stored as the store computed it.
final class PostgresRows: RowWriter {
    let session: PostgresSession
    /// The layout rows of specs whose row a lookup by name brought along
    /// (one statement for both), by spec id; forgotten at every write.
    private var layoutsOfSpecs: [Int64: [Row]] = [:]

    init(_ session: PostgresSession) {
        self.session = session
    }

    /// See `PostgresSession.resolutionScope`; a write keeps nothing.
    var resolutionScope: ResolutionScope? {
        session.writingSchema == nil ? session.resolutionScope : nil
    }

    // MARK: Reads

    func scan(_ table: RowTable, _ range: RowRange, _ body: (any ScannedRow) throws -> Bool) throws {
        if table === RowTable.layoutsByName { return try scanLayoutByName(range, body) }
        let mapped = PostgresTable.of(table)
        guard mapped.name != nil else { return }
        if table === RowTable.specs, range.index == 1, range.prefix.count == 1, let name = range.prefix[0].text {
            try session.lockSpecIfWriting(name)
        }
        if table === RowTable.layouts, range.index == 1, let specID = range.prefix.first?.integer, let layouts = layoutsOfSpecs[specID] {
            for row in range.taken(from: layouts, of: table) {
                guard try body(row) else { return }
            }
            return
        }
        var wanted = range.columns?.filter(table.columns.indices.contains) ?? Array(table.columns.indices)
        let next = range.among == nil ? nil : table.keyColumns(range.index)[range.prefix.count]
        if let next, !wanted.contains(next) { wanted.append(next) }
        let (sql, binds) = try Self.scanSQL(mapped, range, wanted)
        // Frames by group id, checked by the store against the checksums
        // the read's first statement gave: a read outside a transaction may send it second.
        let framesByID = table === RowTable.cellGroups && range.index == 1 && wanted.contains(RowTable.framesColumn)
        session.fetchingVerifiedFrames = framesByID
        defer { session.fetchingVerifiedFrames = false }
        let found = try session.preparedCells(sql, binds)
        guard let among = range.among, let next else {
            for cells in found {
                guard try body(mapped.row(cells, wanted: wanted)) else { return }
            }
            return
        }
        // The rows come in key order: each value's, in the order of `among`.
        var byValue: [ColumnValue: [Row]] = [:]
        for cells in found {
            let row = mapped.row(cells, wanted: wanted)
            byValue[row[next], default: []].append(row)
        }
        for value in among {
            for row in byValue[value] ?? [] {
                guard try body(row) else { return }
            }
        }
    }

    /// The columns of a layout row a lookup by name brings along.
    private static let layoutColumns = Array(RowTable.layouts.columns.indices)
    /// A spec's id, content hash and axis.
    private static let specPlaceColumns = [0, 3, 4]

    /// A layout with its spec's content hash and axis (``RowTable/layoutsByName``), by name and extent: the spec's
    /// place and every layout of it in one statement, its layouts kept for the scans of them that follow.
    private func scanLayoutByName(_ range: RowRange, _ body: (any ScannedRow) throws -> Bool) throws {
        guard range.index == 0, range.prefix.count == 2, range.lower == nil, range.upper == nil, range.among == nil,
              let name = range.prefix[0].text, let extent = range.prefix[1].real
        else { preconditionFailure("layouts by name are read by name and extent alone") }
        try session.lockSpecIfWriting(name)
        let layouts = PostgresTable.of(.layouts)
        var spec: Row?
        var found: [Row] = []
        for cells in try session.preparedCells(Self.specPlaceSQL, [PostgresData(string: name)]) {
            if spec == nil { spec = PostgresTable.of(.specs).row(cells, wanted: Self.specPlaceColumns) }
            let layout = layouts.row(cells, from: Self.specPlaceColumns.count, wanted: Self.layoutColumns)
            if !layout[0].isNull { found.append(layout) }
        }
        guard let spec, let id = spec[0].integer else { return }
        // In the order of the layouts' key (spec, extent): sorted here, not by the server.
        let extentColumn = RowTable.layouts.keyColumns(1)[1]
        layoutsOfSpecs[id] = found.sorted { $0[extentColumn] < $1[extentColumn] }
        guard range.limit > 0, let layout = found.first(where: { $0[extentColumn] == .real(extent) }) else { return }
        _ = try body(layout + [.text(name), spec[3], spec[4]])
    }

    private static let specPlaceSQL: String = {
        let layouts = PostgresTable.of(.layouts)
        let spec = specPlaceColumns.map { "s.\(PostgresTable.of(.specs).columns[$0])" }
        return "SELECT \((spec + layoutColumns.map(layouts.selected)).joined(separator: ", ")) "
            + "FROM specs AS s LEFT JOIN layouts AS t ON t.spec_id = s.id WHERE s.name = $1::text"
    }()

    /// The SELECT of `range`, its parameters typed and numbered from $1.
    static func scanSQL(_ table: PostgresTable, _ range: RowRange, _ wanted: [Int]) throws -> (String, [PostgresData]) {
        var (terms, binds) = try filter(table, range)
        let key = table.table.keyColumns(range.index)
        let order = key.map { "t.\(table.columns[$0])" + (range.descending ? " DESC" : "") }
        if let among = range.among {
            // `= ANY`, not a join with the array's elements: planned as an
            // index scan (a join sorted by position took 2–3 times as long).
            let next = key[range.prefix.count]
            binds.append(PostgresData(array: try among.map { try table.parameter($0, next) }, elementType: table.types[next].dataType))
            terms.append("t.\(table.columns[next]) = ANY($\(binds.count)::\(table.types[next].rawValue)[])")
        }
        var sql = "SELECT \(wanted.map(table.selected).joined(separator: ", ")) FROM \(table.name ?? "") AS t"
        if !terms.isEmpty { sql += " WHERE " + terms.joined(separator: " AND ") }
        sql += " ORDER BY " + order.joined(separator: ", ")
        if range.limit != .max {
            binds.append(PostgresData(int64: Int64(range.limit)))
            sql += " LIMIT $\(binds.count)::int8"
        }
        return (sql, binds)
    }

    /// The terms of `range`'s prefix and bounds, and their parameters.
    private static func filter(_ table: PostgresTable, _ range: RowRange) throws -> ([String], [PostgresData]) {
        let key = table.table.keyColumns(range.index)
        var terms: [String] = []
        var binds: [PostgresData] = []
        func term(_ column: Int, _ operation: String, _ value: ColumnValue) throws {
            binds.append(try table.parameter(value, column))
            terms.append("t.\(table.columns[column]) \(operation) $\(binds.count)::\(table.types[column].rawValue)")
        }
        for (position, value) in range.prefix.enumerated() { try term(key[position], "=", value) }
        if range.prefix.count < key.count {
            let next = key[range.prefix.count]
            if let lower = range.lower { try term(next, lower.inclusive ? ">=" : ">", lower.value) }
            if let upper = range.upper { try term(next, upper.inclusive ? "<=" : "<", upper.value) }
        }
        return (terms, binds)
    }

    func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>? {
        // The GiST index (layout, slot, box) finds the groups; `&&` counts
        // touching boxes as meeting. A hint: the store checks it against verified rows.
        guard let columns = try session.rows("""
            SELECT min(first_item), max(first_item) FROM cell_groups
            WHERE layout_id = $1 AND slot = $2
              AND box(point(min_cross, min_scroll), point(max_cross, max_scroll)) && box(point($3, $5), point($4, $6))
            """, .of(layoutID, slot, bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)).first,
            !columns.isNull(0), !columns.isNull(1)
        else { return nil }
        let (low, high) = (try columns.int(0), try columns.int(1))
        return low <= high ? low...high : nil
    }

    // MARK: Writes

    /// New specs and layouts take the next value of their table's identity;
    /// a cell group is numbered by the server as it is inserted (rows are
    /// sent in batches, without waiting for an answer).
    func nextNumber(_ table: RowTable, for row: Row) throws -> Int64? {
        guard table !== RowTable.cellGroups, let counted = table.counted else { return nil }
        let mapped = PostgresTable.of(table)
        guard let number = try session.scalarInt64(
            "SELECT nextval(pg_get_serial_sequence($1, $2))", .of(mapped.name ?? "", mapped.columns[counted])
        ) else {
            throw StoreError(.internal, "PostgreSQL gave no next number of \(table.name)", store: session.location)
        }
        return number
    }

    /// The columns an insert of `row` names: all but a number the server gives.
    static func inserted(_ table: PostgresTable, _ row: Row) -> [Int] {
        table.table.columns.indices.filter { $0 != table.table.counted || !row[$0].isNull }
    }

    /// An INSERT of `columns` (each row's values, or arrays of them when
    /// `batched`), `replacing` a row with the same primary key (else refused
    /// by it); its creation time is its first update time.
    static func insertSQL(_ table: PostgresTable, _ columns: [Int], batched: Bool, replacing: Bool = true) -> String {
        let name = table.name ?? ""
        var names = columns.map { table.columns[$0] }
        // A batch's values are the columns of its arrays, unnested as r(c0, c1, …).
        var values = columns.indices.map { batched ? "r.c\($0)" : "$\($0 + 1)::\(table.types[columns[$0]].rawValue)" }
        if let created = table.createdFrom, let position = columns.firstIndex(of: created) {
            names.append("created_at")
            values.append(batched ? "r.c\(position)" : "$\(position + 1)::float8")
        }
        let overriding = columns.contains { $0 == table.table.counted } ? " OVERRIDING SYSTEM VALUE" : ""
        var sql = "INSERT INTO \(name) (\(names.joined(separator: ", ")))\(overriding) "
        if batched {
            let arrays = columns.indices.map { "$\($0 + 1)::\(table.types[columns[$0]].rawValue)[]" }
            sql += "SELECT \(values.joined(separator: ", ")) FROM unnest(\(arrays.joined(separator: ", "))) AS r("
                + columns.indices.map { "c\($0)" }.joined(separator: ", ") + ")"
        } else {
            sql += "VALUES (\(values.joined(separator: ", ")))"
        }
        guard replacing else { return sql }
        let key = table.table.primaryKey
        let assigned = columns.filter { !key.contains($0) && $0 != table.table.counted }.map { table.columns[$0] }
        sql += " ON CONFLICT (\(key.map { table.columns[$0] }.joined(separator: ", "))) DO "
        sql += assigned.isEmpty ? "NOTHING" : "UPDATE SET " + assigned.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        return sql
    }

    func insert(_ table: RowTable, _ row: Row, replacing: Bool) throws {
        layoutsOfSpecs.removeAll()
        let mapped = PostgresTable.of(table)
        guard mapped.name != nil, session.sendsWrite() else { return }
        if table === RowTable.specs, let name = row[1].text { try session.lockSpecIfWriting(name) }
        if PendingRows.batched.contains(table.number) {
            session.pending.add(row, to: table)
            if session.pending.isFull { try session.flushPending() }
            return
        }
        let columns = Self.inserted(mapped, row)
        let sql = Self.insertSQL(mapped, columns, batched: false, replacing: replacing)
        try session.pipeline(sql, try Self.bindings(columns.map { try mapped.parameter(row[$0], $0) }))
    }

    func update(_ table: RowTable, _ row: Row, columns: [Int]?) throws {
        layoutsOfSpecs.removeAll()
        let mapped = PostgresTable.of(table)
        guard let name = mapped.name, session.sendsWrite() else { return }
        let key = table.primaryKey
        // PostgreSQL's triggers write its checksums over the columns they cover.
        let assigned = (columns ?? Array(table.columns.indices)).filter { !key.contains($0) && mapped.tests[$0] == nil }
        var binds: [PostgresData] = []
        func parameter(_ column: Int) throws -> String {
            binds.append(try mapped.parameter(row[column], column))
            return "$\(binds.count)::\(mapped.types[column].rawValue)"
        }
        let set = try assigned.map { "\(mapped.columns[$0]) = \(try parameter($0))" }
        // Nothing but checksums changed: they are the server's to write.
        guard !set.isEmpty else { return }
        let filter = try key.map { "\(mapped.columns[$0]) = \(try parameter($0))" }
        try session.pipeline(
            "UPDATE \(name) SET \(set.joined(separator: ", ")) WHERE \(filter.joined(separator: " AND "))", try Self.bindings(binds)
        )
    }

    func delete(_ table: RowTable, _ range: RowRange) throws {
        precondition(range.limit == .max && range.among == nil && !range.descending, "a delete takes whole ranges of a key")
        layoutsOfSpecs.removeAll()
        let mapped = PostgresTable.of(table)
        guard let name = mapped.name, session.sendsWrite() else { return }
        let (terms, binds) = try Self.filter(mapped, range)
        try session.pipeline("DELETE FROM \(name) AS t" + (terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND ")), try Self.bindings(binds))
    }

    private static func bindings(_ values: [PostgresData]) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }

    func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        try await session.savepoint(body)
    }

    func answering<T>(_ body: () throws -> T) async throws -> T {
        try await session.answering { _ in try body() }
    }
}
