import TesseraLayout

extension LayoutUpdater {
    /// What an update reads of a layout's section rows when only items were appended to one section: the
    /// rows from it on, and what those before add to the totals, from the layout's row. On a 3,000-section
    /// feed an append to the last section reads two or three rows instead of 3,000, each verified all the same.
    struct AppendWindow {
        /// The first section read: the one items were appended to.
        var first: Int
        /// The rows from `first` on, in section order; the first is not empty,
        /// so the sections before end where it starts.
        var rows: [SectionRecord]
        /// What the sections before `first` add to the layout's totals.
        var cellsBefore: Int
        var elementsBefore: Int
        var overhangBefore: Double
    }

    /// The window of an append, or nil when the update must read every row: more than one section changed,
    /// the sections are not the stored layout's in order, the section was empty, or the largest overhang may
    /// be its own (then that of those before it is not known from the totals).
    func appendWindow() async throws -> AppendWindow? {
        guard appended.count == 1, let (first, append) = appended.first, case let totals = record.totals, totals.sectionCount == oldIdentities.count, oldIdentities.indices.contains(first),
              fingerprint.sectionIdentities.count == oldIdentities.count
        else { return nil }
        for (index, old) in oldIdentities.enumerated() where fingerprint.sectionIdentities[index] != old.identity
            || (index != first && fingerprint.sectionHashes[index] != old.hash) {
            return nil
        }
        let rows = try await storage.read { snapshot -> [SectionRecord]? in
            guard let row = try snapshot.section(layoutID: layout.id, index: first),
                  !row.geometry.isEmpty, row.geometry.itemCount == append.before
            else { return nil }
            var rows: [SectionRecord] = []
            try snapshot.forEachSection(layoutID: layout.id, fromTheOneBeforeEndingAtOrAfter: row.geometry.end) { record in
                if record.geometry.index >= first { rows.append(record) }
                return true
            }
            return rows
        }
        guard let rows, rows.count == oldIdentities.count - first,
              rows.enumerated().allSatisfy({ $0.element.geometry.index == first + $0.offset })
        else { return nil }
        let overhang = rows.reduce(0) { max($0, $1.geometry.overhang) }
        // The totals' overhang is the largest of every section's and 0.
        guard overhang < totals.overhang || totals.overhang == 0 else { return nil }
        return AppendWindow(
            first: first, rows: rows,
            cellsBefore: totals.cellCount - rows.reduce(0) { $0 + ($1.geometry.isEmpty ? 0 : $1.geometry.itemCount) },
            elementsBefore: totals.elementCount - rows.reduce(0) { $0 + $1.geometry.elementCount },
            overhangBefore: overhang < totals.overhang ? totals.overhang : 0
        )
    }
}
