import TesseraStore

/// Every row of an in-memory store, as one value: a read holds a copy (a
/// snapshot no later write changes), a write changes its own copy and
/// commits it whole. Copies share storage until a write changes a part.
package struct InMemoryTables: Sendable {
    package var tables: [String: TableData] = [:]

    package init() {
        for table in RowTable.all { tables[table.name] = TableData(table) }
    }

    package subscript(table: RowTable) -> TableData {
        get { tables[table.name] ?? TableData(table) }
        set { tables[table.name] = newValue }
    }
}

/// One table: its rows by primary key and its unique keys, each kept
/// sorted as a B-tree index keeps its entries, in parts by the index's
/// first column (a layout's or a spec's id), so that a write copies only
/// the parts it changes.
package struct TableData: Sendable {
    package let table: RowTable
    /// Index 0 holds rows; the others hold the row's primary key.
    fileprivate var indexes: [[ColumnValue: [Entry]]]
    /// The last number `nextNumber` gave.
    fileprivate var counter: Int64 = 0

    fileprivate struct Entry: Sendable {
        var key: [ColumnValue]
        var row: Row
    }

    init(_ table: RowTable) {
        self.table = table
        indexes = Array(repeating: [:], count: 1 + table.uniqueKeys.count)
    }

    /// Every row, in primary-key order.
    package var rows: [Row] {
        indexes[0].keys.sorted().flatMap { indexes[0][$0]?.map(\.row) ?? [] }
    }

    /// How many rows the table holds.
    package var count: Int { indexes[0].values.reduce(0) { $0 + $1.count } }

    // MARK: Keys

    /// An index's entry for `row`: its key columns, then (for unique keys)
    /// the primary key, which the entry holds as its row.
    fileprivate func entry(for row: Row, index: Int) -> Entry {
        let key = table.key(of: row, index: index)
        return index == 0 ? Entry(key: key, row: row) : Entry(key: key, row: table.key(of: row))
    }

    /// The part of an index a key falls in: its first column, when the index has more than one.
    fileprivate func part(_ key: [ColumnValue], index: Int) -> ColumnValue {
        table.keyColumns(index).count > 1 ? key.first ?? .null : .null
    }

    /// The first `count` columns of `key` compared with `probe`'s.
    private static func compare(_ key: [ColumnValue], _ probe: [ColumnValue]) -> Int {
        for (left, right) in zip(key, probe) where left != right { return left < right ? -1 : 1 }
        return 0
    }

    /// The first position in `entries` whose key is not below `probe` (or, `after`, above it).
    private static func position(in entries: [Entry], of probe: [ColumnValue], after: Bool) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let order = compare(entries[middle].key, probe)
            if order < 0 || (after && order == 0) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The entries of `range`, in index order.
    fileprivate func entries(_ range: RowRange) -> [Entry] {
        let index = indexes[range.index]
        let parts: [[Entry]]
        if let first = range.prefix.first, table.keyColumns(range.index).count > 1 {
            parts = [index[first] ?? []]
        } else {
            parts = index.keys.sorted().map { index[$0] ?? [] }
        }
        var found: [Entry] = []
        for entries in parts {
            let low = range.lower.map { Self.position(in: entries, of: range.prefix + [$0.value], after: !$0.inclusive) }
                ?? Self.position(in: entries, of: range.prefix, after: false)
            let high = range.upper.map { Self.position(in: entries, of: range.prefix + [$0.value], after: $0.inclusive) }
                ?? Self.position(in: entries, of: range.prefix, after: true)
            if low < high { found += entries[low..<high] }
        }
        return range.descending ? found.reversed() : found
    }

    // MARK: Reads

    /// The row whose primary key is `key`.
    package func row(key: [ColumnValue]) -> Row? {
        let entries = indexes[0][part(key, index: 0)] ?? []
        let position = Self.position(in: entries, of: key, after: false)
        return position < entries.count && entries[position].key == key ? entries[position].row : nil
    }

    package func scan(_ range: RowRange, _ body: (Row) throws -> Bool) throws {
        var left = range.limit
        for part in range.parts {
            for entry in entries(part) where left > 0 {
                guard let row = range.index == 0 ? entry.row : row(key: entry.row) else { continue }
                left -= 1
                guard try body(row) else { return }
            }
        }
    }

    // MARK: Writes

    private mutating func add(_ entry: Entry, index: Int) {
        let part = part(entry.key, index: index)
        var entries = indexes[index].removeValue(forKey: part) ?? []
        entries.insert(entry, at: Self.position(in: entries, of: entry.key, after: false))
        indexes[index][part] = entries
    }

    private mutating func remove(keys: Set<[ColumnValue]>, part: ColumnValue, index: Int) {
        guard var entries = indexes[index].removeValue(forKey: part) else { return }
        entries.removeAll { keys.contains($0.key) }
        if !entries.isEmpty { indexes[index][part] = entries }
    }

    private mutating func removeAll(_ rows: [Row]) {
        for index in indexes.indices {
            let keys = rows.map { table.key(of: $0, index: index) }
            for (part, keys) in Dictionary(grouping: keys, by: { part($0, index: index) }) {
                remove(keys: Set(keys), part: part, index: index)
            }
        }
    }

    package mutating func nextNumber() -> Int64 {
        counter += 1
        return counter
    }

    package mutating func insert(_ row: Row) throws {
        for index in indexes.indices {
            let key = table.key(of: row, index: index)
            let entries = indexes[index][part(key, index: index)] ?? []
            let position = Self.position(in: entries, of: key, after: false)
            if position < entries.count && entries[position].key == key {
                throw StoreError(.internal, "a row of \(table.name) with the key \(key) is stored already")
            }
        }
        for index in indexes.indices { add(entry(for: row, index: index), index: index) }
        if let counted = table.counted, let number = row[counted].integer { counter = max(counter, number) }
    }

    package mutating func update(_ row: Row, columns: [Int]? = nil) throws -> Bool {
        guard let old = self.row(key: table.key(of: row)) else { return false }
        var new = columns == nil ? row : old
        for column in columns ?? [] { new[column] = row[column] }
        removeAll([old])
        do {
            try insert(new)
        } catch {
            try insert(old)
            throw error
        }
        return true
    }

    /// Deletes the rows in `range`; returns how many.
    @discardableResult
    package mutating func delete(_ range: RowRange) -> Int {
        var rows: [Row] = []
        try? scan(range) { rows.append($0); return true }
        removeAll(rows)
        return rows.count
    }

    /// Rebuilds every index from `rows`, as a program changing rows behind
    /// the store's back would leave them.
    package mutating func replaceRows(_ rows: [Row]) {
        let counter = counter
        self = TableData(table)
        self.counter = counter
        for row in rows {
            for index in indexes.indices { add(entry(for: row, index: index), index: index) }
        }
    }
}
