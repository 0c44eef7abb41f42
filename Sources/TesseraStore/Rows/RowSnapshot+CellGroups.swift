import TesseraLayout

extension RowSnapshot {
    private static func slot(_ layoutID: Int64, _ slot: Int) -> [ColumnValue] { [.integer(layoutID), .init(slot)] }

    private func verify(_ group: GroupRow, frames: Bool = false, reach: Bool = false) throws {
        let place = "the cell group of items \(group.firstItem)… of slot \(group.slot) of layout \(group.layoutID)"
        try verify(group.directoryIsIntact && (!frames || group.framesAreIntact), place)
        if reach { try verify(group.reachIsIntact, "the reach of \(place.dropFirst(4))") }
    }

    /// Each cell group of a layout without its frames, its directory row
    /// verified (not its reach: ``groups(layoutID:slot:firstItems:alsoFirstItem:framesOf:)`` verifies that).
    package func forEachGroup(layoutID: Int64, _ body: (GroupRow) throws -> Void) throws {
        try each(GroupRow.self, RowRange([.integer(layoutID)], columns: RowTable.directoryColumns)) { group in
            try verify(group)
            try body(group)
            return true
        }
    }

    /// The frames as stored of the groups with ids `groups`, unverified, in their order: the
    /// caller checks them against the checksums it holds, and takes an index
    /// skipped for a group missing. One scan for them all (one request over a network).
    package func visitFrames(_ groups: [Int64], _ body: (Int, UnsafeRawBufferPointer) -> Void) throws {
        guard groups.count > 1 else {
            guard let only = groups.first else { return }
            try rows.scan(.cellGroups, RowRange(index: 1, [.integer(only)], columns: RowTable.framesOnly)) { row in
                _ = row.withBytes(RowTable.framesColumn) { body(0, $0) }
                return false
            }
            return
        }
        var next = 0
        let range = RowRange(index: 1, columns: Self.framesByID, among: groups.map { .integer($0) })
        try rows.scan(.cellGroups, range) { row in
            guard let id = row[3].integer else { return true }
            while next < groups.count, groups[next] != id { next += 1 }
            guard next < groups.count else { return false }
            _ = row.withBytes(RowTable.framesColumn) { body(next, $0) }
            next += 1
            // The last one read: no step to find the end.
            return next < groups.count
        }
    }

    /// A group's id and its frames.
    private static let framesByID = [3, RowTable.framesColumn]

    package func withFrames<R>(layoutID: Int64, slot: Int, firstItem: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let group = try first(GroupRow.self, RowRange(Self.slot(layoutID, slot) + [.init(firstItem)])) else { return nil }
        try verify(group, frames: true)
        return try (group.frames ?? []).withUnsafeBytes(body)
    }

    package func groups(
        layoutID: Int64, slot: Int, firstItems: ClosedRange<Int>, alsoFirstItem: Int?, framesOf: ClosedRange<Int>?
    ) throws -> [GroupRow] {
        let place = Self.slot(layoutID, slot)
        // With frames when some are asked for (at most the two groups around
        // them come with frames no one needs: one statement, not three).
        let low = firstItems.lowerBound
        let high = firstItems.upperBound
        let framed = framesOf?.overlaps(firstItems) == true
        let range = RowRange(
            place, lower: .init(.init(low), inclusive: true), upper: .init(.init(high), inclusive: true),
            columns: framed ? nil : RowTable.directoryColumns
        )
        var found = try all(GroupRow.self, range)
        if let alsoFirstItem, alsoFirstItem > high,
           let also = try first(GroupRow.self, RowRange(place + [.init(alsoFirstItem)], columns: RowTable.directoryColumns)) {
            found.append(also)
        }
        for group in found { try verify(group, reach: true) }
        return found
    }

    package func scrollSpan(layoutID: Int64, slot: Int) throws -> ClosedRange<Double>? {
        // Every group of the slot: checked and read in place, not decoded.
        let directory = RowTable.cellGroups.checksums[0]
        var span: ClosedRange<Double>?
        try rows.scan(.cellGroups, RowRange(Self.slot(layoutID, slot), columns: RowTable.directoryChecksummed)) { row in
            guard directory.holds(in: row), let low = row[6].real, let high = row[7].real else { // min_scroll, max_scroll
                throw StoreError.damaged(store: location, "a cell group's directory row of slot \(slot) of layout \(layoutID) does not match its checksum")
            }
            span = span.map { min($0.lowerBound, low)...max($0.upperBound, high) } ?? low...high
            return true
        }
        return span
    }
}

extension RowSnapshot {
    /// Every row whose checksums do not hold, table by table.
    package func damagedRows() throws -> [DamagedRow] {
        var damaged: [DamagedRow] = []
        var specNames: [Int64: String] = [:]
        var places: [Int64: (spec: String?, crossExtent: Double)] = [:]
        func add(_ what: String, spec: String?) {
            damaged.append(DamagedRow(what: what, layoutID: nil, spec: spec, crossExtent: nil))
        }
        func add(_ what: String, layoutID: Int64) {
            let place = places[layoutID]
            damaged.append(DamagedRow(what: what, layoutID: layoutID, spec: place?.spec, crossExtent: place?.crossExtent))
        }
        func scan<T: TableRow>(_ type: T.Type, _ body: (T) -> Void) throws {
            try rows.scan(T.table, .all) { row in
                // A row whose values have the wrong types is damaged too.
                guard let decoded = try? T(row) else {
                    add("a row of \(T.table.name)", spec: nil)
                    return true
                }
                body(decoded)
                return true
            }
        }
        try scan(SpecRow.self) { spec in
            specNames[spec.id] = spec.name
            if !spec.isIntact { add("its row in specs", spec: spec.name) }
        }
        try scan(SpecSectionRow.self) { row in if !row.isIntact { add("a stored section of its spec", spec: specNames[row.specID]) } }
        try scan(ItemRunRow.self) { row in if !row.isIntact { add("items appended to a section of its spec", spec: specNames[row.specID]) } }
        try scan(SpecHashPrefixRow.self) { row in if !row.isIntact { add("what its content hash goes on from", spec: specNames[row.specID]) } }
        try scan(LayoutRow.self) { layout in
            places[layout.id] = (specNames[layout.specID], layout.crossExtent)
            if !layout.isIntact { add("its row in layouts", layoutID: layout.id) }
        }
        try scan(SectionRow.self) { row in
            if !row.isIntact { add("a section row", layoutID: row.layoutID) }
        }
        // One pass; each kind of damage is listed after the one before, as a check reads them.
        var broken: [[Int64]] = [[], [], []]
        try scan(GroupRow.self) { group in
            for (kind, intact) in [group.directoryIsIntact, group.reachIsIntact, group.framesAreIntact].enumerated() where !intact {
                broken[kind].append(group.layoutID)
            }
        }
        for (kind, what) in ["a cell group's directory row", "a cell group's reach", "a cell group's frame blob"].enumerated() {
            for layoutID in broken[kind] { add(what, layoutID: layoutID) }
        }
        return damaged
    }
}
