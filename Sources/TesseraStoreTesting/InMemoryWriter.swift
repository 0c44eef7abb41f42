import TesseraLayout
import TesseraStore

/// One write of an in-memory store: it changes its own copy of the tables
/// (see `WriteTransaction`), which `InMemoryStorage.write` commits whole when
/// the write's body returns. It reads what it wrote, as a transaction does.
final class InMemoryWriter: InMemoryReader, WriteTransaction, SpecRows, LayoutRows, CellRows {
    /// None: the tables change under the write.
    override package var resolutionScope: ResolutionScope? { nil }

    /// Runs `body` on the tables as they are, and puts them back as they
    /// were when it throws.
    package func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        let saved = tables
        do {
            return try await body()
        } catch {
            tables = saved
            throw error
        }
    }

    // MARK: Specs

    package func insertSpec(_ spec: SpecRow) throws -> Int64 {
        let id = tables.nextSpecID
        tables.nextSpecID += 1
        var row = SpecRowData(
            id: id, name: spec.name, body: spec.header, contentHash: spec.contentHash, axis: spec.axis.rawValue,
            sectionCount: spec.sectionCount, updatedAt: spec.updatedAt
        )
        row.resum()
        tables.specs[id] = row
        tables.specIDs[spec.name] = id
        return id
    }

    /// Changes the row `id` of `table` and stores its new checksum.
    func change<Row: ChecksummedRow>(_ table: WritableKeyPath<InMemoryTables, [Int64: Row]>, id: Int64, _ change: (inout Row) -> Void) {
        guard var row = tables[keyPath: table][id] else { return }
        change(&row)
        row.resum()
        tables[keyPath: table][id] = row
    }

    package func updateSpec(id: Int64, _ spec: SpecRow) throws {
        change(\.specs, id: id) { row in
            row.body = spec.header
            row.contentHash = spec.contentHash
            row.axis = spec.axis.rawValue
            row.sectionCount = spec.sectionCount
            row.updatedAt = spec.updatedAt
        }
    }

    package func touchSpec(id: Int64, contentHash: String, updatedAt: Double) throws {
        change(\.specs, id: id) { row in
            row.contentHash = contentHash
            row.updatedAt = updatedAt
        }
    }

    package func deleteSpec(id: Int64) throws {
        guard let row = tables.specs.removeValue(forKey: id) else { return }
        tables.specIDs[row.name] = nil
        tables.specSections[id] = nil
        tables.itemRuns[id] = nil
    }

    package func clearNameConflict(name: String) throws {}

    package func deleteSectionBodies(specID: Int64) throws {
        tables.specSections[specID] = nil
        tables.itemRuns[specID] = nil
    }

    package func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws {
        var row = SpecSectionRow(specID: specID, section: index, identity: identity, contentHash: contentHash, body: body)
        row.resum()
        tables.specSections[specID, default: SortedRows()].upsert(row)
    }

    package func deleteItemRuns(specID: Int64, sections: [Int]) throws {
        let rewritten = Set(sections)
        tables.itemRuns[specID]?.removeAll { rewritten.contains($0.run.section) }
    }

    /// Keeps none: an append reads every section's identity.
    package func writeSpecHashPrefix(specID: Int64, _ prefix: SpecHashPrefix) {}

    package func appendItemRun(specID: Int64, _ run: ItemRun, contentHash: String) throws {
        var row = ItemRunRow(specID: specID, run: run)
        row.resum()
        var runs = tables.itemRuns[specID, default: []]
        runs.removeAll { $0.run.section == run.section && $0.run.firstItem == run.firstItem }
        runs.append(row)
        runs.sort { ($0.run.section, $0.run.firstItem) < ($1.run.section, $1.run.firstItem) }
        tables.itemRuns[specID] = runs
        tables.specSections[specID]?.update(key: run.section) { section in
            section.contentHash = contentHash
            section.resum()
        }
    }

    // MARK: Sections

    package func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        var row = SectionRow(layoutID: layoutID, record: section, end: section.geometry.end, placerState: placerState)
        row.resum()
        tables.sections[layoutID, default: SortedRows()].upsert(row)
    }

    package func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) throws {
        tables.sections[layoutID]?.update(key: index) { row in
            row.record.geometry.start = start
            row.end = end
            row.resum()
        }
    }

    package func deleteSections(layoutID: Int64) throws {
        tables.sections[layoutID] = nil
    }
}

/// Layout rows: inserted, finished, updated, marked stale, deleted.
extension InMemoryWriter {
    package func insertLayout(_ layout: NewLayoutRow) throws -> Int64 {
        try insertFinishedLayout(layout, .zero, computeSeconds: 0)
    }

    /// A `ready` layout row of revision 0, under an id never used before.
    package func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64 {
        let id = tables.nextLayoutID
        tables.nextLayoutID += 1
        var row = LayoutRow(
            id: id, specID: layout.specID, crossExtent: layout.crossExtent, engineVersion: layout.engineVersion,
            specHash: layout.specHash, totals: summary, status: "ready", revision: 0, computeSeconds: computeSeconds,
            updatedAt: layout.createdAt
        )
        row.resum()
        tables.layouts[id] = row
        tables.layoutIDs[row.place] = id
        return id
    }

    package func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) throws {
        change(\.layouts, id: id) { row in
            row.totals = summary
            row.computeSeconds = computeSeconds
        }
    }

    package func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) throws {
        change(\.layouts, id: id) { row in
            row.totals = summary
            row.specHash = specHash
            row.revision += 1
            row.updatedAt = updatedAt
        }
    }

    package func writeDirectorySummary(layoutID: Int64, _ summary: [UInt8]?) throws {
        change(\.layouts, id: layoutID) { $0.directorySummary = summary }
    }

    package func markStale(layoutID: Int64, updatedAt: Double) throws {
        change(\.layouts, id: layoutID) { row in
            row.status = "stale"
            row.updatedAt = updatedAt
        }
    }

    package func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) throws -> Int {
        let ids = tables.layouts.values.filter { $0.specID == specID && (crossExtent == nil || $0.crossExtent == crossExtent) }.map(\.id)
        for id in ids { try markStale(layoutID: id, updatedAt: updatedAt) }
        return ids.count
    }

    package func deleteLayout(id: Int64) throws {
        try deleteGroups(layoutID: id, slot: nil)
        try deleteSections(layoutID: id)
        guard let row = tables.layouts.removeValue(forKey: id) else { return }
        tables.layoutIDs[row.place] = nil
    }
}

/// Cell groups: written with their three checksums, deleted by slot or layout.
extension InMemoryWriter {
    /// Keeps the group's id when it replaces one, as the SQLite backend does.
    package func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        let id: Int64
        if let existing = slotGroups(layoutID: layoutID, slot: slot)[firstItem] {
            id = existing.id
        } else {
            id = tables.nextGroupID
            tables.nextGroupID += 1
        }
        var row = GroupRow(
            layoutID: layoutID, slot: slot, firstItem: firstItem, id: id, bounds: bounds, framesChecksum: 0, reach: reach, frames: Array(frames)
        )
        row.resumAll()
        tables.groups[layoutID, default: [:]][slot, default: SortedRows()].upsert(row)
        tables.groupPlaces[id] = row.place
        return id
    }

    package func deleteGroups(layoutID: Int64, slot: Int?) throws {
        let slots = slot.map { [$0] } ?? Array((tables.groups[layoutID] ?? [:]).keys)
        for slot in slots {
            for group in slotGroups(layoutID: layoutID, slot: slot).rows { tables.groupPlaces[group.id] = nil }
            tables.groups[layoutID]?[slot] = nil
        }
        if tables.groups[layoutID]?.isEmpty == true { tables.groups[layoutID] = nil }
    }
}
