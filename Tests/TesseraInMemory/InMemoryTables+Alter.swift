import TesseraStore
import TesseraStoreTesting

/// Changes made behind the store's back, for tests: rows rewritten as
/// another program would write them (call `resum()` in `change`) or
/// damaged (leave the checksum). The indexes follow the changed rows.
extension InMemoryTables {
    /// Every row of `T`'s table, decoded (rows that do not decode left out).
    package func rows<T: TableRow>(_: T.Type) -> [T] {
        self[T.table].rows.compactMap { try? T($0) }
    }

    package var layoutRows: [LayoutRow] { rows(LayoutRow.self) }
    package var groupRows: [GroupRow] { rows(GroupRow.self) }

    /// Changes each row of `T`'s table by `change`, then indexes them again.
    package mutating func alter<T: TableRow>(_: T.Type, _ change: (inout T) -> Void) {
        var data = self[T.table]
        data.replaceRows(data.rows.map { row in
            guard var typed = try? T(row) else { return row }
            change(&typed)
            return typed.row
        })
        self[T.table] = data
    }

    package mutating func alterSpecs(_ change: (inout SpecRow) -> Void) { alter(SpecRow.self, change) }
    package mutating func alterSpecSections(_ change: (inout SpecSectionRow) -> Void) { alter(SpecSectionRow.self, change) }
    package mutating func alterItemRuns(_ change: (inout ItemRunRow) -> Void) { alter(ItemRunRow.self, change) }
    package mutating func alterLayouts(_ change: (inout LayoutRow) -> Void) { alter(LayoutRow.self, change) }
    package mutating func alterSections(_ change: (inout SectionRow) -> Void) { alter(SectionRow.self, change) }
    package mutating func alterGroups(_ change: (inout GroupRow) -> Void) { alter(GroupRow.self, change) }
}
