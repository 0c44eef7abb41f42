import TesseraLayout
import TesseraStore

/// Layout rows, joined with their spec's row as the SQLite backend's
/// statements join them.
extension InMemoryReader {
    /// A layout's row as readers get it, verified: fresh when it is ready,
    /// of its spec's current content and of `engineVersion`.
    private func record(of layout: LayoutRow, engineVersion: Int) throws -> LayoutRecord? {
        guard let spec = tables.specs[layout.specID] else { return nil }
        try verify(layout.isIntact, "the row of the layout of spec \(spec.name.quotedForMessage) at \(JSONWriter.format(layout.crossExtent))")
        let fresh = layout.status == "ready" && layout.specHash == spec.contentHash && layout.engineVersion == engineVersion
        return LayoutRecord(
            layout: StoredLayout(
                id: layout.id,
                specName: spec.name,
                axis: Axis(rawValue: spec.axis) ?? .vertical,
                crossExtent: layout.crossExtent,
                state: fresh ? .fresh : .stale,
                contentLength: layout.totals.contentLength,
                sectionCount: layout.totals.sectionCount,
                cellCount: layout.totals.cellCount,
                elementCount: layout.totals.elementCount,
                engineVersion: layout.engineVersion,
                computeSeconds: layout.computeSeconds
            ),
            overhang: layout.totals.overhang,
            revision: layout.revision,
            directorySummary: layout.directorySummary
        )
    }

    package func layoutRecord(name: String, crossExtent: Double, engineVersion: Int) throws -> LayoutRecord? {
        guard let specID = tables.specIDs[name], let id = try layoutID(specID: specID, crossExtent: crossExtent) else { return nil }
        return try layoutRecord(id: id, engineVersion: engineVersion)
    }

    package func layoutRecord(id: Int64, engineVersion: Int) throws -> LayoutRecord? {
        guard let layout = tables.layouts[id] else { return nil }
        return try record(of: layout, engineVersion: engineVersion)
    }

    /// By spec name (the byte order of its UTF-8, as the SQL backends'
    /// indexes give it), then extent.
    package func layoutRecords(specID: Int64?, engineVersion: Int) throws -> [LayoutRecord] {
        let layouts = tables.layouts.values.filter { specID == nil || $0.specID == specID }
        return try layouts.compactMap { try record(of: $0, engineVersion: engineVersion) }.sorted {
            $0.layout.specName.utf8.elementsEqual($1.layout.specName.utf8)
                ? $0.layout.crossExtent < $1.layout.crossExtent
                : $0.layout.specName.utf8.lexicographicallyPrecedes($1.layout.specName.utf8)
        }
    }

    package func layoutRecords(namesAfter after: String?, through last: String, engineVersion: Int) throws -> [LayoutRecord] {
        try layoutRecords(specID: nil, engineVersion: engineVersion).filter { record in
            let name = record.layout.specName.utf8
            return !last.utf8.lexicographicallyPrecedes(name) && after.map { $0.utf8.lexicographicallyPrecedes(name) } ?? true
        }
    }

    package func layoutID(specID: Int64, crossExtent: Double) throws -> Int64? {
        tables.layoutIDs[InMemoryTables.LayoutPlace(specID: specID, crossExtent: crossExtent)]
    }
}

/// A layout's section rows, each verified before it is returned.
extension InMemoryReader {
    /// The row's record, verified.
    private func verified(_ row: SectionRow) throws -> SectionRecord {
        try verify(row.isIntact, "the row of section \(row.record.geometry.index) of layout \(row.layoutID)")
        return row.record
    }

    package func sections(layoutID: Int64) throws -> [SectionRecord] {
        try (tables.sections[layoutID]?.rows ?? []).map(verified)
    }

    /// Where SQLite searches its index on `end`, this scans the rows for
    /// the first (by end, then section) ending at or after `low`.
    package func forEachSection(layoutID: Int64, fromTheOneBeforeEndingAtOrAfter low: Double, _ body: (SectionRecord) throws -> Bool) throws {
        guard let rows = tables.sections[layoutID]?.rows, let last = rows.last else { return }
        let first = rows.filter { $0.end >= low }.min { ($0.end, $0.key) < ($1.end, $1.key) }
        let from = first.map { $0.key - 1 } ?? last.key
        for row in rows where row.key >= from {
            guard try body(verified(row)) else { return }
        }
    }

    package func section(layoutID: Int64, index: Int) throws -> SectionRecord? {
        try tables.sections[layoutID]?[index].map(verified)
    }

    package func placerState(layoutID: Int64, slot: Int) throws -> [UInt8]? {
        guard let row = tables.sections[layoutID]?.rows.first(where: { $0.record.slot == slot }) else { return nil }
        _ = try verified(row)
        return row.placerState
    }

    package func placerStates(layoutID: Int64) throws -> [Int: [UInt8]] {
        var states: [Int: [UInt8]] = [:]
        for row in tables.sections[layoutID]?.rows ?? [] {
            guard let state = row.placerState else { continue }
            _ = try verified(row)
            states[row.record.slot] = state
        }
        return states
    }
}
