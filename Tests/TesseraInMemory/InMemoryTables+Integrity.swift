import TesseraLayout
import TesseraStore
import TesseraStoreTesting

/// What the tests' backend checks and measures of the tables: the indexes
/// against the rows, each group's reach against its slot's bounds, and the
/// bytes the rows take.
extension InMemoryTables {
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
                    if groupPlaces[group.id] != group.place {
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

    /// Bytes the rows take, roughly: their texts, blobs and numbers.
    var byteCount: Int {
        var total = 0
        for spec in specs.values { total += 64 + spec.name.utf8.count + spec.body.utf8.count + spec.contentHash.utf8.count }
        for rows in specSections.values {
            for row in rows.rows { total += 32 + row.identity.utf8.count + row.contentHash.utf8.count + row.body.utf8.count }
        }
        for rows in itemRuns.values {
            for row in rows { total += 48 + row.run.items.utf8.count + row.run.hashState.count }
        }
        for layout in layouts.values { total += 128 + layout.specHash.utf8.count }
        for rows in sections.values {
            for row in rows.rows { total += 160 + (row.placerState?.count ?? 0) }
        }
        for slots in groups.values {
            for rows in slots.values {
                for row in rows.rows { total += 112 + row.frames.count }
            }
        }
        return total
    }
}
