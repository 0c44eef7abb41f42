import TesseraLayout
import TesseraStoreFormat

/// The store's writes over a backend's rows (Architecture.md): rows sealed with their checksums, deletions cascaded, each
/// step run through ``RowWriter/answering(_:)`` so a backend behind a network fetches without a thread that waits.
package final class RowTransaction: RowSnapshot, CellSink {
    package let writer: any RowWriter
    /// Layouts inserted in this transaction, or whose groups it deleted, and
    /// the groups it wrote of each since (by slot and first item): no other
    /// is stored, so none is looked for before a write.
    private var groupless: [Int64: Set<GroupPlace>] = [:]

    private struct GroupPlace: Hashable {
        var slot: Int
        var firstItem: Int
    }

    package init(_ writer: any RowWriter, location: String) {
        self.writer = writer
        super.init(writer, location: location)
    }

    package func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await writer.savepoint(body)
        } catch {
            // Groups deleted in the savepoint are back: forget what is known
            // of every layout's groups (writes then look them up), rather
            // than copy it all before every savepoint.
            groupless.removeAll()
            throw error
        }
    }

    package func read<T>(_ body: (RowSnapshot) throws -> T) async throws -> T {
        try await writer.answering { try body(self) }
    }

    /// Writes `row` with its checksums, over the row with its key if there is one,
    /// unless not `replacing` (a new spec's, layout's or group's row, freshly numbered).
    package func put<T: TableRow>(_ row: T, replacing: Bool = true) throws {
        try writer.insert(T.table, row.sealed, replacing: replacing)
    }

    /// Changes the row in `range`, if any, writing back sealed only the values that changed; `range.columns` may leave
    /// out columns no checksum covers that the change does not need. A damaged row is refused (sealing would hide the
    /// damage) unless not `verifying`: marking a layout stale is how a repair gets it computed again.
    func change<T: TableRow>(_: T.Type, _ range: RowRange, verifying: Bool = true, _ change: (inout T) -> Void) throws {
        guard let row = try first(T.self, range) else { return }
        try write(row, verifying: verifying, changedBy: change)
    }

    /// Writes `row` as `change` changes it, sealed, in the columns whose values changed.
    private func write<T: TableRow>(_ row: T, verifying: Bool = true, changedBy change: (inout T) -> Void) throws {
        if verifying { try verify(row.isIntact, "a row of \(T.table.name) about to be changed") }
        var changing = row
        change(&changing)
        let (before, after) = (row.row, changing.sealed)
        let changed = after.indices.filter { after[$0] != before[$0] }
        guard !changed.isEmpty else { return }
        try writer.update(T.table, after, columns: changed)
    }

    // MARK: Specs

    /// Inserts `spec` under a new id (its own is ignored), and returns the id.
    package func insertSpec(_ spec: SpecRow) async throws -> Int64 {
        try await writer.answering { try insertNumbered(spec, id: \.id) }
    }

    /// Inserts `row` under a new number in `id` (a spec's or layout's, numbered here), and returns the number.
    private func insertNumbered<T: TableRow>(_ row: T, id: WritableKeyPath<T, Int64>) throws -> Int64 {
        guard let number = try writer.nextNumber(T.table, for: []) else {
            throw StoreError(.internal, "the backend left a new row of \(T.table.name) unnumbered", store: location)
        }
        var row = row
        row[keyPath: id] = number
        try put(row, replacing: false)
        return number
    }

    /// Changes the spec with id `id` to `spec`, its id and name kept.
    package func updateSpec(id: Int64, _ spec: SpecRow) async throws {
        try await writer.answering {
            try change(SpecRow.self, .key(.integer(id))) { row in
                (row.body, row.contentHash, row.axis) = (spec.body, spec.contentHash, spec.axis)
                (row.sectionCount, row.updatedAt) = (spec.sectionCount, spec.updatedAt)
            }
        }
    }

    package func touchSpec(id: Int64, contentHash: String, updatedAt: Double) async throws {
        try await writer.answering {
            try change(SpecRow.self, .key(.integer(id))) { row in
                row.contentHash = contentHash
                row.updatedAt = updatedAt
            }
        }
    }

    package func deleteSpec(id: Int64) async throws {
        try await writer.answering {
            for layout in try all(LayoutRow.self, .key(.integer(id), index: 1)) { try deleteLayoutRows(id: layout.id) }
            try deleteSectionRows(specID: id)
            try writer.delete(.specHashPrefixes, .key(.integer(id)))
            try writer.delete(.specs, .key(.integer(id)))
        }
    }

    package func clearNameConflict(name: String) async throws {
        try await writer.answering { try writer.delete(.specNameConflicts, .key(.text(name))) }
    }

    package func deleteSectionBodies(specID: Int64) async throws {
        try await writer.answering { try deleteSectionRows(specID: specID) }
    }

    private func deleteSectionRows(specID: Int64) throws {
        try writer.delete(.specSections, .key(.integer(specID)))
        try writer.delete(.itemRuns, .key(.integer(specID)))
    }

    package func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) async throws {
        try await writer.answering {
            try put(SpecSectionRow(specID: specID, section: index, identity: identity, contentHash: contentHash, body: body))
        }
    }

    package func deleteItemRuns(specID: Int64, sections: [Int]) async throws {
        try await writer.answering {
            for section in sections { try writer.delete(.itemRuns, .key(.integer(specID), .init(section))) }
        }
    }

    package func appendItemRun(specID: Int64, _ run: ItemRun, contentHash: String) async throws {
        try await writer.answering {
            try put(ItemRunRow(specID: specID, run: run))
            try change(SpecSectionRow.self, .key(.integer(specID), .init(run.section))) { $0.contentHash = contentHash }
        }
    }

    package func writeSpecHashPrefix(specID: Int64, _ prefix: SpecHashPrefix) async throws {
        try await writer.answering { try put(SpecHashPrefixRow(specID: specID, prefix: prefix)) }
    }

    // MARK: Layouts

    /// Inserts `layout` under a new id (its own is ignored), and returns the id.
    package func insertLayout(_ layout: LayoutRow) async throws -> Int64 {
        try await writer.answering {
            let id = try insertNumbered(layout, id: \.id)
            groupless[id] = []
            return id
        }
    }

    /// Changes a layout's row, read without its directory summary (which
    /// its checksum does not cover): a change writes the summary only when it sets it.
    private func changeLayout(_ id: Int64, verifying: Bool = true, _ change: (inout LayoutRow) -> Void) async throws {
        try await writer.answering {
            try self.change(LayoutRow.self, RowRange([.integer(id)], columns: RowTable.layoutColumnsButSummary), verifying: verifying, change)
        }
    }

    package func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) async throws {
        try await changeLayout(id) { row in
            row.totals = summary
            row.computeSeconds = computeSeconds
        }
    }

    package func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) async throws {
        try await changeLayout(id) { row in
            row.totals = summary
            row.specHash = specHash
            row.revision += 1
            row.updatedAt = updatedAt
        }
    }

    package func writeDirectorySummary(layoutID: Int64, _ summary: [UInt8]?) async throws {
        // The summary alone: no checksum of the row covers it (it carries its own).
        var row = Row(repeating: .null, count: RowTable.layouts.columns.count)
        row[0] = .integer(layoutID)
        row[RowTable.layoutSummaryColumn] = .init(summary)
        try await writer.answering { try writer.update(.layouts, row, columns: [RowTable.layoutSummaryColumn]) }
    }

    package func markStale(layoutID: Int64, updatedAt: Double) async throws {
        try await changeLayout(layoutID, verifying: false) { Self.markStale(&$0, updatedAt: updatedAt) }
    }

    private static func markStale(_ row: inout LayoutRow, updatedAt: Double) {
        row.status = "stale"
        row.updatedAt = updatedAt
    }

    package func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) async throws -> Int {
        var range: RowRange = crossExtent.map { .key(.integer(specID), .real($0), index: 1) } ?? .key(.integer(specID), index: 1)
        range.columns = RowTable.layoutColumnsButSummary
        return try await writer.answering {
            // Each row changed as read by the scan: no second read of it.
            let layouts = try all(LayoutRow.self, range)
            for layout in layouts {
                try write(layout, verifying: false) { Self.markStale(&$0, updatedAt: updatedAt) }
            }
            return layouts.count
        }
    }

    package func deleteLayout(id: Int64) async throws {
        try await writer.answering { try deleteLayoutRows(id: id) }
    }

    private func deleteLayoutRows(id: Int64) throws {
        try deleteGroupRows(layoutID: id, slot: nil)
        try writer.delete(.layoutSections, .key(.integer(id)))
        try writer.delete(.layouts, .key(.integer(id)))
    }

    // MARK: Cells

    /// Synchronous: the engine feeds it as it computes. It reads nothing
    /// from a backend that numbers groups itself, nor for a layout without groups.
    package func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        var group = GroupRow(layoutID: layoutID, slot: slot, firstItem: firstItem, id: 0, bounds: bounds, reach: reach, frames: Array(frames))
        guard let number = try writer.nextNumber(.cellGroups, for: group.row) else {
            var row = group.sealed
            row[3] = .null // group_id: the backend's
            try writer.insert(.cellGroups, row, replacing: true)
            return nil
        }
        // A group written again keeps its id; a new one is inserted without a try at an update.
        let mayBeStored = groupless[layoutID]?.insert(GroupPlace(slot: slot, firstItem: firstItem)).inserted != true
        let key: [ColumnValue] = [.integer(layoutID), .init(slot), .init(firstItem)]
        if mayBeStored, let existing = try first(GroupRow.self, RowRange(key, columns: RowTable.directoryColumns)) {
            group.id = existing.id
            try writer.update(.cellGroups, group.sealed, columns: nil)
        } else {
            group.id = number
            try put(group, replacing: false)
        }
        return group.id
    }

    package func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        try put(SectionRow(layoutID: layoutID, record: section, end: section.geometry.end, placerState: placerState))
    }

    /// Moves sections of a layout along the scroll axis (by index: their
    /// new start and end), their other values kept: their rows read in one
    /// scan, then each written back (one round trip over a network).
    package func moveSections(layoutID: Int64, _ moves: [Int: (start: Double, end: Double)]) async throws {
        guard let first = moves.keys.min(), let last = moves.keys.max() else { return }
        let range = RowRange([.integer(layoutID)], lower: .init(.init(first), inclusive: true), upper: .init(.init(last), inclusive: true))
        try await writer.answering {
            for row in try all(SectionRow.self, range) {
                guard let move = moves[row.key] else { continue }
                try write(row) { row in
                    row.record.geometry.start = move.start
                    row.end = move.end
                }
            }
        }
    }

    package func deleteSections(layoutID: Int64) async throws {
        try await writer.answering { try writer.delete(.layoutSections, .key(.integer(layoutID))) }
    }

    package func deleteGroups(layoutID: Int64, slot: Int?) async throws {
        try await writer.answering { try deleteGroupRows(layoutID: layoutID, slot: slot) }
    }

    private func deleteGroupRows(layoutID: Int64, slot: Int?) throws {
        try writer.delete(.cellGroups, slot.map { .key(.integer(layoutID), .init($0)) } ?? .key(.integer(layoutID)))
        groupless[layoutID] = if let slot { groupless[layoutID]?.filter { $0.slot != slot } } else { [] }
    }
}
