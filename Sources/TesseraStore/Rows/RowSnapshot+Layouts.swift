import TesseraLayout

extension RowSnapshot {
    /// What a layout's record needs of its spec.
    typealias SpecPlace = (name: String, axis: String, contentHash: String)

    /// `layout`'s record, fresh when computed from `spec`'s content by this engine version.
    private func record(of layout: LayoutRow, spec: SpecPlace) throws -> LayoutRecord {
        try verify(layout.isIntact, "the row of the layout of spec \(spec.name.quotedForMessage) at \(JSONWriter.format(layout.crossExtent))")
        let fresh = layout.status == "ready" && layout.specHash == spec.contentHash && layout.engineVersion == LayoutEngine.version
        return LayoutRecord(
            layout: StoredLayout(
                id: layout.id, specName: spec.name, axis: Axis(rawValue: spec.axis) ?? .vertical, crossExtent: layout.crossExtent,
                state: fresh ? .fresh : .stale, contentLength: layout.totals.contentLength, sectionCount: layout.totals.sectionCount,
                cellCount: layout.totals.cellCount, elementCount: layout.totals.elementCount, engineVersion: layout.engineVersion,
                computeSeconds: layout.computeSeconds
            ),
            overhang: layout.totals.overhang,
            revision: layout.revision,
            directorySummary: layout.directorySummary
        )
    }

    private func spec(id: Int64) throws -> SpecRow? {
        try first(SpecRow.self, .key(.integer(id))).map(verified)
    }

    /// The record of `name`'s layout at `crossExtent` from one row (``RowTable/layoutsByName``); the spec's hash and axis unverified.
    package func layoutRecord(name: String, crossExtent: Double) throws -> LayoutRecord? {
        var found: (layout: LayoutRow, place: SpecPlace)?
        try each(.layoutsByName, RowRange([.text(name), .real(crossExtent)], limit: 1)) { row in
            var decoder = RowDecoder(row, .layoutsByName)
            var layout = try LayoutRow(&decoder)
            layout.held = decoder.held
            let (_, contentHash, axis) = (try decoder.text(), try decoder.text(), try decoder.text())
            found = (layout, (name, axis, contentHash))
            return false
        }
        return try found.map { try record(of: $0.layout, spec: $0.place) }
    }

    /// The layout of a spec at an extent when it may be served (computed
    /// from the spec's current content by this engine version), else nil.
    package func freshLayoutRecord(name: String, crossExtent: Double) throws -> LayoutRecord? {
        try layoutRecord(name: name, crossExtent: crossExtent).flatMap { $0.layout.state == .fresh ? $0 : nil }
    }

    package func layoutRecord(id: Int64) throws -> LayoutRecord? {
        guard let layout = try first(LayoutRow.self, .key(.integer(id))), let spec = try spec(id: layout.specID) else { return nil }
        return try record(of: layout, spec: (spec.name, spec.axis, spec.contentHash))
    }

    /// The records of a spec's layouts, by extent.
    package func layoutRecords(specID: Int64) throws -> [LayoutRecord] {
        try spec(id: specID).map(layoutRecords(of:)) ?? []
    }

    /// The records of the layouts of `spec`, a row read and verified, by extent.
    package func layoutRecords(of spec: SpecRow) throws -> [LayoutRecord] {
        try all(LayoutRow.self, .key(.integer(spec.id), index: 1)).map { try record(of: $0, spec: (spec.name, spec.axis, spec.contentHash)) }
    }

    /// The layouts of the specs named after `after` through `last` (every spec by default), by name and extent.
    package func layoutRecords(namesAfter after: String? = nil, through last: String? = nil) throws -> [LayoutRecord] {
        let range = RowRange(
            index: 1, lower: after.map { .init(.text($0), inclusive: false) }, upper: last.map { .init(.text($0), inclusive: true) }
        )
        let specs = try all(SpecRow.self, range)
        guard !specs.isEmpty else { return [] }
        // Every layout of these specs in one scan: a statement per spec would
        // pass a backend's bound on a read's statements with many specs.
        let layouts = Dictionary(grouping: try all(LayoutRow.self, RowRange(index: 1, among: specs.map { .integer($0.id) })), by: \.specID)
        return try specs.flatMap { spec -> [LayoutRecord] in
            guard let rows = layouts[spec.id] else { return [] }
            _ = try verified(spec)
            return try rows.map { try record(of: $0, spec: (spec.name, spec.axis, spec.contentHash)) }
        }
    }

    package func layoutID(specID: Int64, crossExtent: Double) throws -> Int64? {
        try first(LayoutRow.self, .key(.integer(specID), .real(crossExtent), index: 1))?.id
    }
}

extension RowSnapshot {
    private func verified(_ row: SectionRow) throws -> SectionRecord {
        try verify(row.isIntact, "the row of section \(row.key) of layout \(row.layoutID)")
        return row.record
    }

    package func sections(layoutID: Int64) throws -> [SectionRecord] {
        try all(SectionRow.self, .key(.integer(layoutID))).map(verified)
    }

    package func forEachSection(layoutID: Int64, fromTheOneBeforeEndingAtOrAfter low: Double, _ body: (SectionRecord) throws -> Bool) throws {
        let ending = try first(SectionRow.self, RowRange(index: 1, [.integer(layoutID)], lower: .init(.real(low), inclusive: true)))
        guard let from = try ending.map({ $0.key - 1 })
                ?? first(SectionRow.self, RowRange([.integer(layoutID)], descending: true))?.key else { return }
        try each(SectionRow.self, RowRange([.integer(layoutID)], lower: .init(.init(from), inclusive: true))) { row in
            try body(verified(row))
        }
    }

    package func section(layoutID: Int64, index: Int) throws -> SectionRecord? {
        try first(SectionRow.self, .key(.integer(layoutID), .init(index))).map(verified)
    }

    package func placerState(layoutID: Int64, slot: Int) throws -> [UInt8]? {
        guard let row = try first(SectionRow.self, .key(.integer(layoutID), .init(slot), index: 2)) else { return nil }
        _ = try verified(row)
        return row.placerState
    }

    package func placerStates(layoutID: Int64) throws -> [Int: [UInt8]] {
        var states: [Int: [UInt8]] = [:]
        try each(SectionRow.self, .key(.integer(layoutID))) { row in
            guard let state = row.placerState else { return true }
            _ = try verified(row)
            states[row.record.slot] = state
            return true
        }
        return states
    }
}
