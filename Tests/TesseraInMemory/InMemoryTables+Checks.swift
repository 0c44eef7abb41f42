import TesseraLayout
import TesseraStore

/// Finding every row that does not match its checksum, for the store's
/// check, and what the backend's own check finds: the indexes against the
/// rows, and each group's reach against its slot's bounds.
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

    /// Indexes that disagree with their rows, and reaches that disagree
    /// with their slots' bounds.
    func integrityProblems() -> [String] {
        var problems: [String] = []
        if specIDs.count != specs.count || specIDs.contains(where: { specs[$0.value]?.name != $0.key }) {
            problems.append("the index of specs by name disagrees with their rows")
        }
        if layoutIDs.count != layouts.count || layoutIDs.contains(where: { layouts[$0.value].map(\.specID) != $0.key.specID }) {
            problems.append("the index of layouts by spec and extent disagrees with their rows")
        }
        var groupCount = 0
        var unreached = 0
        for slots in groups.values {
            for rows in slots.values {
                var reach: GroupReach?
                for group in rows.rows {
                    groupCount += 1
                    if groupPlaces[group.id] != GroupPlace(layoutID: group.layoutID, slot: group.slot, firstItem: group.firstItem) {
                        problems.append("the cell group \(group.id) is missing from the index of groups by id")
                    }
                    reach = reach.map { $0.next(group.bounds) } ?? GroupReach(first: group.bounds)
                    if reach != group.reach { unreached += 1 }
                }
            }
        }
        if groupPlaces.count != groupCount { problems.append("the index of groups by id has \(groupPlaces.count - groupCount) rows more than there are groups") }
        if unreached > 0 { problems.append("\(unreached) cell groups' reach disagrees with the bounds of their slot's groups") }
        return problems
    }
}
