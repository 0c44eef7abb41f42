import TesseraLayout

/// The store's writes, written once over a backend's rows: each row is
/// sealed with its checksums here, and a deleted parent takes its children.
package final class RowTransaction: RowSnapshot, WriteTransaction, SpecRows, LayoutRows, CellRows {
    let writer: any RowWriter

    package init(_ writer: any RowWriter, location: String) {
        self.writer = writer
        super.init(writer, location: location)
    }

    package func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        try await writer.savepoint(body)
    }

    /// Writes `row` with its checksums, over the row with its key if there is one.
    func put<T: TableRow>(_ row: T) throws {
        try writer.insert(T.table, row.sealed, replacing: true)
    }

    /// Inserts a new row (a new spec's or layout's, freshly numbered).
    func insert<T: TableRow>(_ row: T) throws {
        try writer.insert(T.table, row.sealed, replacing: false)
    }

    /// Changes the row with its key, which exists.
    func update<T: TableRow>(_ row: T) throws {
        try writer.update(T.table, row.sealed, columns: nil)
    }

    /// Changes the row in `range`, if there is one, and writes back sealed
    /// only the values that changed (a layout's directory summary, say, is
    /// not written again with its totals). `range.columns` may leave out
    /// columns no checksum covers that the change does not need.
    func change<T: TableRow>(_: T.Type, _ range: RowRange, _ change: (inout T) -> Void) throws {
        guard var row = try first(T.self, range) else { return }
        let before = row.row
        change(&row)
        let after = row.sealed
        let changed = after.indices.filter { after[$0] != before[$0] }
        guard !changed.isEmpty else { return }
        try writer.update(T.table, after, columns: changed)
    }

    // MARK: Specs

    package func insertSpec(_ spec: SpecRow) throws -> Int64 {
        let id = try writer.nextNumber(.specs, for: [])
        try insert(SpecRowData(
            id: id, name: spec.name, body: spec.header, contentHash: spec.contentHash, axis: spec.axis.rawValue,
            sectionCount: spec.sectionCount, updatedAt: spec.updatedAt
        ))
        return id
    }

    package func updateSpec(id: Int64, _ spec: SpecRow) throws {
        try change(SpecRowData.self, .key(.integer(id))) { row in
            row.body = spec.header
            row.contentHash = spec.contentHash
            row.axis = spec.axis.rawValue
            row.sectionCount = spec.sectionCount
            row.updatedAt = spec.updatedAt
        }
    }

    package func touchSpec(id: Int64, contentHash: String, updatedAt: Double) throws {
        try change(SpecRowData.self, .key(.integer(id))) { row in
            row.contentHash = contentHash
            row.updatedAt = updatedAt
        }
    }

    package func deleteSpec(id: Int64) throws {
        for layout in try all(LayoutRow.self, .key(.integer(id), index: 1)) { try deleteLayout(id: layout.id) }
        try deleteSectionBodies(specID: id)
        try writer.delete(.specHashPrefixes, .key(.integer(id)))
        try writer.delete(.specs, .key(.integer(id)))
    }

    package func clearNameConflict(name: String) throws {
        try writer.delete(.specNameConflicts, .key(.text(name)))
    }

    package func deleteSectionBodies(specID: Int64) throws {
        try writer.delete(.specSections, .key(.integer(specID)))
        try writer.delete(.itemRuns, .key(.integer(specID)))
    }

    package func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws {
        try put(SpecSectionRow(specID: specID, section: index, identity: identity, contentHash: contentHash, body: body))
    }

    package func deleteItemRuns(specID: Int64, sections: [Int]) throws {
        for section in sections { try writer.delete(.itemRuns, .key(.integer(specID), .init(section))) }
    }

    package func appendItemRun(specID: Int64, _ run: ItemRun, contentHash: String) throws {
        try put(ItemRunRow(specID: specID, run: run))
        try change(SpecSectionRow.self, .key(.integer(specID), .init(run.section))) { $0.contentHash = contentHash }
    }

    package func writeSpecHashPrefix(specID: Int64, _ prefix: SpecHashPrefix) throws {
        try put(SpecHashPrefixRow(specID: specID, prefix: prefix))
    }

    // MARK: Layouts

    package func insertLayout(_ layout: NewLayoutRow) throws -> Int64 {
        try insertFinishedLayout(layout, .zero, computeSeconds: 0)
    }

    package func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64 {
        let id = try writer.nextNumber(.layouts, for: [])
        try insert(LayoutRow(
            id: id, specID: layout.specID, crossExtent: layout.crossExtent, engineVersion: layout.engineVersion,
            specHash: layout.specHash, totals: summary, status: "ready", revision: 0, computeSeconds: computeSeconds,
            updatedAt: layout.createdAt
        ))
        return id
    }

    /// Changes a layout's row, read without its directory summary (which
    /// its checksum does not cover): a change writes the summary only when it sets it.
    private func changeLayout(_ id: Int64, _ change: (inout LayoutRow) -> Void) throws {
        try self.change(LayoutRow.self, RowRange([.integer(id)], columns: RowTable.layoutColumnsButSummary), change)
    }

    package func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) throws {
        try changeLayout(id) { row in
            row.totals = summary
            row.computeSeconds = computeSeconds
        }
    }

    package func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) throws {
        try changeLayout(id) { row in
            row.totals = summary
            row.specHash = specHash
            row.revision += 1
            row.updatedAt = updatedAt
        }
    }

    package func writeDirectorySummary(layoutID: Int64, _ summary: [UInt8]?) throws {
        // The summary alone: no checksum of the row covers it (it carries its own).
        var row = Row(repeating: .null, count: RowTable.layouts.columns.count)
        row[0] = .integer(layoutID)
        row[RowTable.layoutSummaryColumn] = .init(summary)
        try writer.update(.layouts, row, columns: [RowTable.layoutSummaryColumn])
    }

    package func markStale(layoutID: Int64, updatedAt: Double) throws {
        try changeLayout(layoutID) { row in
            row.status = "stale"
            row.updatedAt = updatedAt
        }
    }

    package func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) throws -> Int {
        let range: RowRange = crossExtent.map { .key(.integer(specID), .real($0), index: 1) } ?? .key(.integer(specID), index: 1)
        let layouts = try all(LayoutRow.self, range)
        for layout in layouts { try markStale(layoutID: layout.id, updatedAt: updatedAt) }
        return layouts.count
    }

    package func deleteLayout(id: Int64) throws {
        try deleteGroups(layoutID: id, slot: nil)
        try deleteSections(layoutID: id)
        try writer.delete(.layouts, .key(.integer(id)))
    }

    // MARK: Cells

    package func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        let key: [ColumnValue] = [.integer(layoutID), .init(slot), .init(firstItem)]
        var group = GroupRow(layoutID: layoutID, slot: slot, firstItem: firstItem, id: 0, bounds: bounds, reach: reach, frames: Array(frames))
        // A group written again keeps its id; a new one is numbered and inserted without a try at an update.
        if let existing = try first(GroupRow.self, RowRange(key, columns: RowTable.directoryColumns)) {
            group.id = existing.id
            try update(group)
        } else {
            group.id = try writer.nextNumber(.cellGroups, for: group.row)
            try insert(group)
        }
        return group.id
    }

    package func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        try put(SectionRow(layoutID: layoutID, record: section, end: section.geometry.end, placerState: placerState))
    }

    package func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) throws {
        try change(SectionRow.self, .key(.integer(layoutID), .init(index))) { row in
            row.record.geometry.start = start
            row.end = end
        }
    }

    package func deleteSections(layoutID: Int64) throws {
        try writer.delete(.layoutSections, .key(.integer(layoutID)))
    }

    package func deleteGroups(layoutID: Int64, slot: Int?) throws {
        try writer.delete(.cellGroups, slot.map { .key(.integer(layoutID), .init($0)) } ?? .key(.integer(layoutID)))
    }
}
