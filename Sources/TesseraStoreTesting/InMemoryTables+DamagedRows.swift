import TesseraLayout
import TesseraStore

/// Finding every row that does not match its checksum, for the store's check.
extension InMemoryReader {
    package func damagedRows() throws -> [DamagedRow] {
        tables.damagedRows()
    }
}

extension InMemoryTables {
    /// Every damaged row, table by table, named as the other backends name them.
    func damagedRows() -> [DamagedRow] {
        var damaged: [DamagedRow] = []
        func add(_ what: String, layoutID: Int64) {
            let (spec, crossExtent) = place(ofLayout: layoutID)
            damaged.append(DamagedRow(what: what, layoutID: layoutID, spec: spec, crossExtent: crossExtent))
        }
        for spec in specs.values.sorted(by: { $0.id < $1.id }) where !spec.isIntact {
            damaged.append(DamagedRow(what: "its row in specs", layoutID: nil, spec: spec.name, crossExtent: nil))
        }
        for (specID, rows) in specSections.sorted(by: { $0.key < $1.key }) {
            for row in rows.rows where !row.isIntact {
                damaged.append(DamagedRow(what: "a stored section of its spec", layoutID: nil, spec: specs[specID]?.name, crossExtent: nil))
            }
        }
        for (specID, rows) in itemRuns.sorted(by: { $0.key < $1.key }) {
            for row in rows where !row.isIntact {
                damaged.append(DamagedRow(what: "items appended to a section of its spec", layoutID: nil, spec: specs[specID]?.name, crossExtent: nil))
            }
        }
        for id in layouts.keys.sorted() where layouts[id]?.isIntact == false { add("its row in layouts", layoutID: id) }
        for (layoutID, rows) in sections.sorted(by: { $0.key < $1.key }) {
            for row in rows.rows where !row.isIntact { add("a section row", layoutID: layoutID) }
        }
        let allGroups = groups.sorted { $0.key < $1.key }.flatMap { $0.value.sorted { $0.key < $1.key }.flatMap(\.value.rows) }
        for group in allGroups where !group.isIntact { add("a cell group's directory row", layoutID: group.layoutID) }
        for group in allGroups where !group.reachIsIntact { add("a cell group's reach", layoutID: group.layoutID) }
        for group in allGroups where !group.framesAreIntact { add("a cell group's frame blob", layoutID: group.layoutID) }
        return damaged
    }
}
