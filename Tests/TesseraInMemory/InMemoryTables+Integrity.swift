import TesseraLayout
import TesseraStore
import TesseraStoreTesting
import TesseraStoreFormat

extension InMemoryTables {
    /// What the in-memory tables hold that a B-tree would not allow, or
    /// that the store's writes should never leave: unique keys naming no
    /// row or another one, and reach that disagrees with its groups.
    func integrityProblems() -> [String] {
        var problems: [String] = []
        for table in RowTable.all {
            let rows = self[table].rows
            for index in table.uniqueKeys.indices {
                var found = 0
                try? self[table].scan(RowRange(index: index + 1)) { row in
                    found += 1
                    return true
                }
                if found != rows.count { problems.append("the unique key \(index + 1) of \(table.name) has \(found) entries for \(rows.count) rows") }
                for row in rows {
                    var named: Row?
                    try? self[table].scan(RowRange(index: index + 1, table.key(of: row, index: index + 1))) { named = $0; return false }
                    if named.map({ table.key(of: $0) != table.key(of: row) }) ?? true {
                        problems.append("the unique key \(index + 1) of \(table.name) does not name the row \(table.key(of: row))")
                    }
                }
            }
        }
        var unreached = 0
        var reach: GroupReach?
        var slot: [ColumnValue] = []
        for group in groupRows {
            let place: [ColumnValue] = [.integer(group.layoutID), .integer(Int64(group.slot))]
            if place != slot { reach = nil }
            slot = place
            reach = reach.map { $0.next(group.bounds) } ?? GroupReach(first: group.bounds)
            if reach != group.reach { unreached += 1 }
        }
        if unreached > 0 { problems.append("\(unreached) cell groups' reach disagrees with the bounds of their slot's groups") }
        return problems
    }

    /// About how many bytes the rows take, as a file would hold them.
    var byteCount: Int {
        var total = 0
        for table in RowTable.all {
            for row in self[table].rows {
                for value in row {
                    switch value {
                    case .null: total += 1
                    case .integer, .real: total += 8
                    case .text(let text): total += text.utf8.count
                    case .blob(let bytes): total += bytes.count
                    }
                }
            }
        }
        return total
    }
}
