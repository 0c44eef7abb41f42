/// A row numbered within its table's partition: a section by its index, a
/// cell group by its first item.
package protocol KeyedRow: Sendable {
    var key: Int { get }
}

/// The rows of one partition (a layout's sections, a slot's groups) in key
/// order, as a B-tree index would keep them: found by binary search, read
/// in order, one row per key.
package struct SortedRows<Row: KeyedRow>: Sendable {
    /// Every row, in key order (a test that damages rows keeps the order).
    package var rows: [Row] = []

    package init() {}

    /// Where `key` is, or where it would go.
    private func position(of key: Int) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    package var isEmpty: Bool { rows.isEmpty }

    /// The row with `key`.
    package subscript(key: Int) -> Row? {
        let index = position(of: key)
        return index < rows.count && rows[index].key == key ? rows[index] : nil
    }

    /// The rows whose keys lie in `keys`, in key order.
    package func rows(in keys: ClosedRange<Int>) -> ArraySlice<Row> {
        let end = keys.upperBound == .max ? rows.count : position(of: keys.upperBound + 1)
        return rows[position(of: keys.lowerBound)..<end]
    }

    /// Inserts `row`, or replaces the row with its key.
    package mutating func upsert(_ row: Row) {
        let index = position(of: row.key)
        if index < rows.count && rows[index].key == row.key {
            rows[index] = row
        } else {
            rows.insert(row, at: index)
        }
    }

    /// Changes the row with `key`, if there is one.
    package mutating func update(key: Int, _ change: (inout Row) -> Void) {
        let index = position(of: key)
        guard index < rows.count && rows[index].key == key else { return }
        change(&rows[index])
    }
}
