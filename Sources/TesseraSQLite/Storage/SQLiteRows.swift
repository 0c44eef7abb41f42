import CSQLite
import Locking
import SQLiteToolkit
import TesseraLayout
import TesseraStore
import TesseraStoreFormat

/// The store's rows in a SQLite file, through the port of rows: each
/// logical table (``RowTable``) is the table of its name, except cell
/// groups, whose frames live in `cell_groups` under the directory row of
/// `cell_group_directory` and whose bounds the R*Tree indexes too.
final class SQLiteRows: RowWriter {
    let connection: Connection

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// A pooled reader whose snapshot the pool names exactly (see
    /// `Connection.exactSnapshot`) shares resolved names with every reader
    /// of that state; another keeps its own, under its serial and `PRAGMA
    /// data_version` (SQLite changes it for this connection whenever another
    /// connection commits). Word 0 of a WAL stamp holds the index's version
    /// (3007000), never all ones: the two kinds of tag never meet.
    var resolutionScope: ResolutionScope? {
        get throws {
            guard let reader = connection.attachment as? PooledReader else { return nil }
            if let words = connection.exactSnapshot { return ResolutionScope(tag: SnapshotTag(words: words)) }
            return ResolutionScope(tag: SnapshotTag(.max, reader.serial, UInt64(bitPattern: try dataVersion()), 0, 0, 0))
        }
    }

    private static let dataVersionSQL = SQL("PRAGMA data_version")

    /// `PRAGMA data_version`; a pooled reader that kept its snapshot knows
    /// nothing was committed since it last asked, and answers without SQL.
    private func dataVersion() throws -> Int64 {
        if let known = connection.knownChangeCounter { return known }
        let pragma = try connection.cachedStatement(Self.dataVersionSQL)
        guard try pragma.step() else { throw StoreError.damaged(store: connection.path, "PRAGMA data_version returned no row") }
        defer { pragma.reset() }
        let version = pragma.int64(at: 0)
        if connection.remembersChangeCounter { connection.knownChangeCounter = version }
        return version
    }

    private static let groupRangeSQL = SQL("""
        SELECT min(first_item), max(first_item) FROM cell_groups_rtree
        WHERE min_layout <= ?1 AND max_layout >= ?1 AND min_slot <= ?2 AND max_slot >= ?2
          AND min_cross <= ?4 AND max_cross >= ?3 AND min_scroll <= ?6 AND max_scroll >= ?5
        """)

    func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>? {
        // The R*Tree stores 32-bit floats rounded outward, and past 2^24
        // neighbouring layout ids and slots share a float: a hint, which
        // the store checks against verified directory rows.
        let query = try connection.cachedStatement(Self.groupRangeSQL)
        try query.bind(Double(layoutID), Double(slot), bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
        defer { query.reset() }
        guard try query.step(), !query.isNull(at: 0), !query.isNull(at: 1) else { return nil }
        let (low, high) = (query.int(at: 0), query.int(at: 1))
        return low <= high ? low...high : nil
    }

    // MARK: SQL

    /// What a statement does to which table with which range, without the
    /// values, packed in one word: table, operation, index, prefix length,
    /// kinds of bounds, order, and the columns asked for as a bit set.
    private static func shape(_ table: RowTable, _ operation: UInt64, _ range: RowRange? = nil) -> UInt64 {
        var key = UInt64(number(of: table)) | operation << 8
        guard let range else { return key }
        func kind(_ bound: RowRange.Bound?) -> UInt64 { bound.map { $0.inclusive ? 1 : 2 } ?? 0 }
        key |= UInt64(range.index) << 16 | UInt64(range.prefix.count) << 20 | kind(range.lower) << 28 | kind(range.upper) << 30
        key |= (range.descending ? 1 : 0) << 32
        if let columns = range.columns {
            key |= 1 << 33
            for column in columns { key |= 1 << UInt64(34 + column) }
        }
        return key
    }

    /// The table's place in `RowTable.all`: only the store's own tables are
    /// stored here, and none has more than 30 columns (a shape's bit set).
    private static func number(of table: RowTable) -> Int {
        precondition(table.number >= 0 && table.columns.count <= 30, "SQLite stores only the tables of RowTable.all, not \(table.name)")
        return table.number
    }

    /// A prepared shape: its SQL, and where a scan's results put each column (``positions(_:_:)``).
    private struct Prepared: Sendable {
        var sql: SQL
        var positions: [Int]
    }

    /// Each shape's SQL, made once per process; a connection prepares each once.
    /// Behind the package's lock, which ThreadSanitizer sees through (see `Locked`).
    private static let prepared = Locked<[UInt64: Prepared]>([:])

    private func statement(
        _ shape: UInt64, positions: @autoclosure () -> [Int] = [], bindsAll: Bool = false, _ make: () -> String
    ) throws -> (Statement, [Int]) {
        let prepared = Self.prepared.withLock { cache in
            if let prepared = cache[shape] { return prepared }
            let prepared = Prepared(sql: SQL(make()), positions: positions())
            cache[shape] = prepared
            return prepared
        }
        return (try connection.cachedStatement(prepared.sql, bindsAll: bindsAll), prepared.positions)
    }

    private static let groupsFrom = "cell_group_directory AS d LEFT JOIN cell_groups AS g ON g.id = d.group_id"

    /// The SQL expression of each column of `table`.
    private static func expressions(_ table: RowTable) -> [String] {
        if table.name == RowTable.layoutsByName.name {
            let layoutColumns = RowTable.layouts.columns.count
            return table.columns.enumerated().map { "\($0.offset < layoutColumns ? "l" : "s").\"\($0.element)\"" }
        }
        guard table.name == RowTable.cellGroups.name else { return table.columns.map { "\"\($0)\"" } }
        return table.columns.map { $0 == "frames" ? "g.frames" : "d.\($0)" }
    }

    /// `WHERE …` for `range` (parameters from ?1), and how many values it binds.
    private static func filter(_ table: RowTable, _ range: RowRange, _ columns: [String]? = nil) -> String {
        let columns = columns ?? expressions(table)
        let key = table.keyColumns(range.index).map { columns[$0] }
        var terms = key.prefix(range.prefix.count).map { "\($0) = ?" }
        if range.prefix.count < key.count {
            let next = key[range.prefix.count]
            if let lower = range.lower { terms.append("\(next) \(lower.inclusive ? ">=" : ">") ?") }
            if let upper = range.upper { terms.append("\(next) \(upper.inclusive ? "<=" : "<") ?") }
        }
        return terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND ")
    }

    /// The columns a scan of `range` reads.
    private static func wanted(_ table: RowTable, _ range: RowRange) -> [Int] {
        range.columns?.filter(table.columns.indices.contains) ?? Array(table.columns.indices)
    }

    /// For each column of `table`, its place among the results of a scan of `range` (-1: not read).
    private static func positions(_ table: RowTable, _ range: RowRange) -> [Int] {
        var positions = Array(repeating: -1, count: table.columns.count)
        for (position, column) in wanted(table, range).enumerated() { positions[column] = position }
        return positions
    }

    static func scanSQL(_ table: RowTable, _ range: RowRange) -> String {
        var columns = expressions(table)
        let wanted = wanted(table, range)
        var from = "\"\(table.name)\""
        if table.name == RowTable.layoutsByName.name {
            // What resolving a name reads: the spec's from the covering index, without its body (schema version 11).
            from = "specs AS s INDEXED BY specs_resolve JOIN layouts AS l ON l.spec_id = s.id"
        } else if table.name == RowTable.cellGroups.name {
            if range.index == 1, wanted.allSatisfy([3, RowTable.framesColumn].contains) {
                // Frames by group id: their own table alone, whose id is its rowid.
                from = "cell_groups AS g"
                columns[3] = "g.id"
            } else {
                from = wanted.contains(RowTable.framesColumn) ? groupsFrom : "cell_group_directory AS d"
            }
        }
        let key = table.keyColumns(range.index)
        // A whole key bound names one row at most: no order to ask for (a join would sort for it).
        let order = range.prefix.count == key.count
            ? "" : " ORDER BY " + key.map { columns[$0] + (range.descending ? " DESC" : "") }.joined(separator: ", ")
        return "SELECT \(wanted.map { columns[$0] }.joined(separator: ", ")) FROM \(from)\(filter(table, range, columns))\(order) LIMIT ?"
    }

    /// Binds the range's values from parameter 1; returns the next parameter.
    private static func bind(_ range: RowRange, to statement: Statement) throws -> Int {
        var index = 1
        for value in range.prefix {
            try bind(value, to: statement, at: index)
            index += 1
        }
        if let lower = range.lower {
            try bind(lower.value, to: statement, at: index)
            index += 1
        }
        if let upper = range.upper {
            try bind(upper.value, to: statement, at: index)
            index += 1
        }
        return index
    }

    private static func bind(_ value: ColumnValue, to statement: Statement, at index: Int) throws {
        switch value {
        case .null: try statement.bindNull(at: index)
        case .integer(let integer): try statement.bind(integer, at: index)
        case .real(let real): try statement.bind(real, at: index)
        case .text(let text): try statement.bind(text, at: index)
        case .blob(let bytes): try statement.bind(bytes, at: index)
        }
    }

    /// The row a statement stands on: `positions` maps each column of the
    /// table to the statement's result column, or -1 when it was not read.
    private struct StatementRow: ScannedRow {
        let statement: Statement
        let positions: [Int]

        subscript(column: Int) -> ColumnValue {
            let index = positions[column]
            guard index >= 0 else { return .null }
            return switch statement.type(at: index) {
            case SQLITE_INTEGER: .integer(statement.int64(at: index))
            case SQLITE_FLOAT: .real(statement.double(at: index))
            case SQLITE_TEXT: .text(statement.text(at: index))
            case SQLITE_BLOB: .blob(statement.blob(at: index))
            default: .null
            }
        }

        func add(_ columns: [Int], to record: inout ChecksumRecord) {
            for column in columns {
                let index = positions[column]
                guard index >= 0 else {
                    record.addNull()
                    continue
                }
                switch statement.type(at: index) {
                case SQLITE_INTEGER: record.add(statement.int64(at: index))
                case SQLITE_FLOAT: record.add(statement.double(at: index))
                case SQLITE_TEXT: statement.withText(at: index) { record.add(text: $0) }
                case SQLITE_BLOB: statement.withBlob(at: index) { record.add(blob: $0) }
                default: record.addNull()
                }
            }
        }

        func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
            let index = positions[column]
            guard index >= 0 else { return nil }
            switch statement.type(at: index) {
            case SQLITE_TEXT: return try statement.withText(at: index, body)
            case SQLITE_BLOB: return try statement.withBlob(at: index, body)
            default: return nil
            }
        }
    }

    // MARK: Reads

    func scan(_ table: RowTable, _ range: RowRange, _ body: (any ScannedRow) throws -> Bool) throws {
        guard range.among == nil else {
            if let run = Self.run(range) { return try scan(table, run, body) }
            // Each key looked up alone: a lookup in the file costs no round trip.
            var going = true
            for part in range.parts where going {
                try scan(table, part) { row in
                    going = try body(row)
                    return going
                }
            }
            return
        }
        // A scan binds its range's values and its limit: every parameter.
        let (statement, positions) = try statement(Self.shape(table, 0, range), positions: Self.positions(table, range), bindsAll: true) {
            Self.scanSQL(table, range)
        }
        let limit = try Self.bind(range, to: statement)
        try statement.bind(range.limit == .max ? -1 : Int64(range.limit), at: limit)
        defer { statement.reset() }
        let row = StatementRow(statement: statement, positions: positions)
        while try statement.step() {
            guard try body(row) else { return }
        }
    }

    /// `range` as one range from its first value to its last when they are
    /// consecutive ascending integers (a query's groups mostly are): one
    /// seek, where a lookup per value runs the statement again.
    static func run(_ range: RowRange) -> RowRange? {
        guard let among = range.among, among.count > 1, !range.descending, case .integer(let first)? = among.first else { return nil }
        for (offset, value) in among.enumerated() {
            guard case .integer(let next) = value, next == first &+ Int64(offset) else { return nil }
        }
        var run = range
        run.among = nil
        run.lower = .init(.integer(first), inclusive: true)
        run.upper = .init(.integer(first &+ Int64(among.count - 1)), inclusive: true)
        return run
    }

    // MARK: Writes

    func nextNumber(_ table: RowTable, for row: Row) throws -> Int64? {
        switch table.name {
        case RowTable.cellGroups.name:
            let frames = row.last?.blob?.count ?? 0
            return try nextGroupID(full: frames >= Self.fullGroupBytes)
        case RowTable.layouts.name:
            // Above every id the table ever held, as AUTOINCREMENT numbers them.
            return try connection.scalarInt64("""
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'layouts'), 0),
                           coalesce((SELECT max(id) FROM layouts), 0)) + 1
                """) ?? 1
        default:
            return try connection.scalarInt64("SELECT coalesce(max(id), 0) + 1 FROM \"\(table.name)\"") ?? 1
        }
    }

    /// Each table's insertions, made once, by table number.
    private static let insertions = RowTable.all.map(makeInsertions)

    /// The physical tables' columns a logical row fills, and where from:
    /// specs and layouts also keep when they were created.
    private static func makeInsertions(_ table: RowTable) -> [(table: String, columns: [String], values: [Int])] {
        let all = Array(table.columns.indices)
        switch table.name {
        case RowTable.cellGroups.name:
            let directory = Array(RowTable.directoryColumns)
            let frames = table.columns.count - 1
            let bounds = [4, 5, 6, 7]
            return [
                ("cell_groups", ["id", "frames"], [3, frames]),
                ("cell_group_directory", directory.map { table.columns[$0] }, directory),
                (
                    "cell_groups_rtree",
                    ["id", "min_layout", "max_layout", "min_slot", "max_slot", "min_cross", "max_cross", "min_scroll", "max_scroll", "first_item"],
                    [3, 0, 0, 1, 1] + bounds + [2]
                ),
            ]
        case RowTable.specs.name, RowTable.layouts.name:
            let updated = table.columns.firstIndex(of: "updated_at") ?? 0
            return [(table.name, table.columns + ["created_at"], all + [updated])]
        default:
            return [(table.name, table.columns, all)]
        }
    }

    func insert(_ table: RowTable, _ row: Row, replacing: Bool) throws {
        if replacing, table.name == RowTable.cellGroups.name {
            if try updated(table, row) { return }
            return try insert(table, row, replacing: false)
        }
        for (part, (name, columns, values)) in Self.insertions[Self.number(of: table)].enumerated() {
            let (statement, _) = try statement(Self.shape(table, replacing ? 2 : UInt64(10 + part))) {
                let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                return "INSERT \(replacing ? "OR REPLACE " : "")INTO \"\(name)\" (\(list)) VALUES (\(marks))"
            }
            try Self.execute(statement, row, values)
        }
    }

    /// Binds the values of `row` in `columns` to parameters 1… (a blob in
    /// place, not copied: frames are the bulk of what is written) and runs the statement.
    private static func execute(_ statement: Statement, _ row: Row, _ columns: [Int], from first: Int = 0) throws {
        for position in first..<columns.count {
            guard case .blob(let bytes) = row[columns[position]] else {
                try bind(row[columns[position]], to: statement, at: position + 1)
                continue
            }
            return try bytes.withUnsafeBytes { raw in
                try statement.withBlobBoundWithoutCopy(raw, at: position + 1) { try execute(statement, row, columns, from: position + 1) }
            }
        }
        try statement.execute()
    }

    /// For each physical table of `table`: its UPDATE, and which logical
    /// columns its parameters take, in order.
    private static func makeUpdates(_ table: RowTable) -> [(sql: String, values: [Int])] {
        makeInsertions(table).enumerated().map { position, insertion in
            let (name, columns, values) = insertion
            // The first physical table holds the logical key, but the frames and R*Tree rows are keyed by group id.
            let keyed = table.name == RowTable.cellGroups.name && position != 1 ? [0] : values.indices.filter { table.primaryKey.contains(values[$0]) }
            let assignments = values.indices.filter { !keyed.contains($0) && columns[$0] != "created_at" }
            let sql = "UPDATE \"\(name)\" SET " + assignments.map { "\"\(columns[$0])\" = ?" }.joined(separator: ", ")
                + " WHERE " + keyed.map { "\"\(columns[$0])\" = ?" }.joined(separator: " AND ")
            return (sql, (assignments + keyed).map { values[$0] })
        }
    }

    /// Each table's updates, made once, by table number.
    private static let updates = RowTable.all.map(makeUpdates)

    func update(_ table: RowTable, _ row: Row, columns: [Int]?) throws {
        if let columns { return try update(table, row, only: columns.sorted()) }
        _ = try updated(table, row)
    }

    /// Updates every column of the row with `row`'s key; false when there is none.
    private func updated(_ table: RowTable, _ row: Row) throws -> Bool {
        var changed = false
        for (position, (sql, values)) in Self.updates[Self.number(of: table)].enumerated() {
            let (statement, _) = try statement(Self.shape(table, UInt64(20 + position))) { sql }
            try Self.execute(statement, row, values)
            changed = changed || connection.changes > 0
        }
        return changed
    }

    /// The values of `columns` (in order) alone, by the primary key.
    private func update(_ table: RowTable, _ row: Row, only columns: [Int]) throws {
        precondition(table.name != RowTable.cellGroups.name, "a cell group is written whole")
        let key = table.primaryKey
        let (statement, _) = try statement(Self.shape(table, 25) | columns.reduce(0) { $0 | 1 << UInt64(34 + $1) }) {
            "UPDATE \"\(table.name)\" SET " + columns.map { "\"\(table.columns[$0])\" = ?" }.joined(separator: ", ")
                + " WHERE " + key.map { "\"\(table.columns[$0])\" = ?" }.joined(separator: " AND ")
        }
        try Self.execute(statement, row, columns + key)
    }

    func delete(_ table: RowTable, _ range: RowRange) throws {
        precondition(range.limit == .max && range.index == 0, "a delete takes whole ranges of the primary key")
        guard table.name == RowTable.cellGroups.name else {
            let (statement, _) = try statement(Self.shape(table, 30, range)) { "DELETE FROM \"\(table.name)\"\(Self.filter(table, range))" }
            _ = try Self.bind(range, to: statement)
            try statement.execute()
            return
        }
        let deletions: [(String) -> String] = [
            { "DELETE FROM cell_groups_rtree WHERE id IN (SELECT group_id FROM cell_group_directory\($0))" },
            { "DELETE FROM cell_groups WHERE id IN (SELECT group_id FROM cell_group_directory\($0))" },
            { "DELETE FROM cell_group_directory\($0)" },
        ]
        for (part, deletion) in deletions.enumerated() {
            // The directory's own columns, unqualified: these statements name no alias.
            let (statement, _) = try statement(Self.shape(table, UInt64(31 + part), range)) { deletion(Self.filter(table, range, table.columns)) }
            _ = try Self.bind(range, to: statement)
            try statement.execute()
        }
    }

    /// A blob at least this large shares its page with no other: half of
    /// the default 8 KiB page.
    static let fullGroupBytes = 4096
    /// Where the ids of groups smaller than that begin (2^62).
    static let partialGroupIDs: Int64 = 1 << 62

    /// The next ids of full and of smaller groups, kept in the
    /// connection's `transactionState` (cleared when a transaction begins).
    private struct GroupIDCounters {
        var full: Int64
        var partial: Int64
    }

    /// The next id in the range of full or of smaller groups: read once per
    /// write transaction (which holds the write lock, so nobody else adds
    /// groups meanwhile), then counted here. Blobs that fill a page get ids
    /// of a range of their own, so that smaller ones share pages with each
    /// other instead of each leaving the page before a large one mostly empty.
    private func nextGroupID(full: Bool) throws -> Int64 {
        var next = try connection.transactionState as? GroupIDCounters ?? {
            let full = try connection.scalarInt64("SELECT coalesce(max(id), 0) + 1 FROM cell_groups WHERE id < \(Self.partialGroupIDs)") ?? 1
            let partial = try connection.scalarInt64(
                "SELECT coalesce(max(id), \(Self.partialGroupIDs)) + 1 FROM cell_groups WHERE id >= \(Self.partialGroupIDs)"
            ) ?? Self.partialGroupIDs + 1
            return GroupIDCounters(full: full, partial: partial)
        }()
        defer { connection.transactionState = next }
        if full {
            defer { next.full += 1 }
            return next.full
        }
        defer { next.partial += 1 }
        return next.partial
    }

    func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        try await connection.savepoint(body)
    }

    func answering<T>(_ body: () throws -> T) async throws -> T { try body() }
}
