import TesseraStoreTesting

/// Changes made behind the store's back, for tests: rows rewritten as
/// another program would write them (call `resum()` in `change`) or
/// damaged (leave the checksum). The indexes follow the changed rows.
extension InMemoryTables {
    /// Changes each of `rows` by `change`, then indexes them again by `key`.
    private static func alter<Row, Key: Hashable>(
        _ rows: inout [Int64: Row], index: inout [Key: Int64], key: (Row) -> (Key, Int64), _ change: (inout Row) -> Void
    ) {
        rows = rows.mapValues { row in
            var row = row
            change(&row)
            return row
        }
        index = Dictionary(rows.values.map(key), uniquingKeysWith: max)
    }

    package mutating func alterSpecs(_ change: (inout SpecRowData) -> Void) {
        Self.alter(&specs, index: &specIDs, key: { ($0.name, $0.id) }, change)
    }

    package mutating func alterSpecSections(_ change: (inout SpecSectionRow) -> Void) {
        for id in specSections.keys { specSections[id]?.alter(change) }
    }

    package mutating func alterItemRuns(_ change: (inout ItemRunRow) -> Void) {
        for id in itemRuns.keys {
            for index in itemRuns[id, default: []].indices { change(&itemRuns[id, default: []][index]) }
        }
    }

    package mutating func alterLayouts(_ change: (inout LayoutRow) -> Void) {
        Self.alter(&layouts, index: &layoutIDs, key: { ($0.place, $0.id) }, change)
    }

    package mutating func alterSections(_ change: (inout SectionRow) -> Void) {
        for id in sections.keys { sections[id]?.alter(change) }
    }

    package mutating func alterGroups(_ change: (inout GroupRow) -> Void) {
        groupPlaces = [:]
        for (layoutID, slots) in groups {
            for (slot, var rows) in slots {
                rows.alter(change)
                for row in rows.rows { groupPlaces[row.id] = row.place }
                groups[layoutID]?[slot] = rows
            }
        }
    }
}

extension SortedRows {
    /// Changes every row, then puts them in key order again (a change may
    /// renumber a row, as damage may).
    package mutating func alter(_ change: (inout Row) -> Void) {
        for index in rows.indices { change(&rows[index]) }
        rows.sort { $0.key < $1.key }
    }
}
