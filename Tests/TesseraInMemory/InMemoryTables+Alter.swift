import TesseraStoreTesting

/// Changes made behind the store's back, for tests: rows rewritten as
/// another program would write them (call `resum()` in `change`) or
/// damaged (leave the checksum). The indexes follow the changed rows.
extension InMemoryTables {
    /// `rows`, each changed by `change`.
    private static func altered<Row>(_ rows: [Int64: Row], _ change: (inout Row) -> Void) -> [Int64: Row] {
        rows.mapValues { row in
            var row = row
            change(&row)
            return row
        }
    }

    package mutating func alterSpecs(_ change: (inout SpecRowData) -> Void) {
        specs = Self.altered(specs, change)
        specIDs = Dictionary(specs.values.map { ($0.name, $0.id) }, uniquingKeysWith: max)
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
        layouts = Self.altered(layouts, change)
        layoutIDs = Dictionary(layouts.values.map { ($0.place, $0.id) }, uniquingKeysWith: max)
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
