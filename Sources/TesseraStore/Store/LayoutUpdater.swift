import TesseraLayout

/// Brings one stored layout up to date with a new spec, inside a write
/// transaction. Cells are stored per section slot relative to the section's
/// items origin, so an unchanged section moves by rewriting its row only.
struct LayoutUpdater {
    let engine: LayoutEngine
    let connection: Connection
    let layout: StoredLayout
    let axis: Axis
    let sectionSpacing: Double
    /// The old spec's sections: identities and content hashes, in order.
    let oldIdentities: [(identity: String, hash: String)]
    /// The new spec's.
    let fingerprint: SpecFingerprint
    /// Section `i` of the old and of the new spec, asked for only when it
    /// changed: an append reads one section, not the whole spec.
    let oldSection: (Int) throws -> Section
    let newSection: (Int) throws -> Section

    private struct OldSection {
        var geometry: SectionGeometry
        var slot: Int
    }

    private enum Plan {
        case reuse(OldSection)
        case resume(OldSection)
        case recompute(replacing: OldSection?)

        var isReuse: Bool {
            if case .reuse = self { true } else { false }
        }
    }

    private struct Placed {
        var geometry: SectionGeometry
        var slot: Int
        /// The placer state to store, or nil to keep the stored one (reused sections).
        var state: [UInt8]??
        var moved: Bool
    }

    mutating func run() throws -> UpdateReport.Layout {
        var entry = UpdateReport.Layout(crossExtent: layout.crossExtent)
        let oldSections = try loadSections()
        var oldByIdentity: [String: Int] = [:]
        for (index, info) in oldIdentities.enumerated() where oldByIdentity[info.identity] == nil {
            oldByIdentity[info.identity] = index
        }
        var used = Set<Int>()
        var plans: [Plan] = []
        for (index, identity) in fingerprint.sectionIdentities.enumerated() {
            guard let oldIndex = oldByIdentity[identity], !used.contains(oldIndex), oldSections.indices.contains(oldIndex) else {
                plans.append(.recompute(replacing: nil))
                continue
            }
            used.insert(oldIndex)
            let old = oldSections[oldIndex]
            if oldIdentities[oldIndex].hash == fingerprint.sectionHashes[index] {
                plans.append(.reuse(old))
            } else if Self.onlyAppends(old: try oldSection(oldIndex), new: try newSection(index), oldCount: old.geometry.itemCount) {
                plans.append(.resume(old))
            } else {
                plans.append(.recompute(replacing: old))
            }
        }
        for (index, old) in oldSections.enumerated() where !used.contains(index) {
            try CellGroups.delete(layoutID: layout.id, slot: old.slot, connection: connection)
            entry.removed += 1
        }

        var nextSlot = (oldSections.map(\.slot).max() ?? -1) + 1
        var writer = CellGroupWriter(connection: connection, layoutID: layout.id)
        writer.writesSectionRows = false
        var placed: [Placed] = []
        for (index, plan) in plans.enumerated() {
            switch plan {
            case .reuse(let old):
                var geometry = old.geometry
                let moved = geometry.index != index
                geometry.index = index
                placed.append(Placed(geometry: geometry, slot: old.slot, state: .none, moved: moved))
            case .resume(let old):
                let section = try newSection(index)
                guard let state = try placerState(slot: old.slot), let placer = try resumablePlacer(for: section, index: index, state: state) else {
                    placed.append(try recompute(section, index: index, replacing: old, slot: &nextSlot, writer: &writer))
                    entry.recomputed += 1
                    continue
                }
                writer.slots[index] = old.slot
                writer.mergesExistingGroups = true
                defer { writer.mergesExistingGroups = false }
                var (geometry, finalPlacer) = try engine.resumeSection(
                    section, index: index, axis: axis, crossExtent: layout.crossExtent, start: 0,
                    placer: placer, after: old.geometry.itemCount, into: &writer
                )
                // Writes the last open group (rows are written below, once placed).
                try writer.endSection(geometry, placer: finalPlacer)
                // This call wrote only the new and open cells: the span comes
                // from all the section's groups, exactly.
                geometry.cellSpan = try CellGroups.scrollSpan(layoutID: layout.id, slot: old.slot, connection: connection)
                placed.append(Placed(geometry: geometry, slot: old.slot, state: .some(try PlacerState.encode(finalPlacer)), moved: true))
                entry.resumed += 1
            case .recompute(let old):
                placed.append(try recompute(try newSection(index), index: index, replacing: old, slot: &nextSlot, writer: &writer))
                entry.recomputed += 1
            }
        }

        // Place the sections as the engine does; then write the rows that changed.
        let renumbered = placed.count != oldSections.count || placed.contains { $0.moved && $0.state == nil }
        let keptStates = renumbered ? try allPlacerStates() : [:]
        if renumbered {
            let clear = try connection.cachedStatement("DELETE FROM layout_sections WHERE layout_id = ?")
            try clear.bind(layout.id)
            try clear.execute()
        }
        var chain = SectionChain(sectionSpacing: sectionSpacing)
        var overhang = 0.0
        var cellCount = 0
        var elementCount = 0
        for (index, section) in placed.enumerated() {
            let oldStart = section.geometry.start
            let geometry = chain.place(section.geometry)
            if plans[index].isReuse {
                if section.moved || geometry.start != oldStart { entry.shifted += 1 } else { entry.kept += 1 }
            }
            if let span = geometry.absoluteCellSpan {
                overhang = max(overhang, geometry.start - span.lowerBound, span.upperBound - geometry.end)
            }
            cellCount += geometry.isEmpty ? 0 : geometry.itemCount
            elementCount += geometry.elementCount
            if let state = section.state {
                try SectionRow(geometry: geometry, slot: section.slot, placerState: state).insert(layoutID: layout.id, into: connection)
            } else if renumbered {
                try SectionRow(geometry: geometry, slot: section.slot, placerState: keptStates[section.slot] ?? nil)
                    .insert(layoutID: layout.id, into: connection)
            } else if geometry.start != oldStart {
                let move = try connection.cachedStatement("UPDATE layout_sections SET start = ?, end = ? WHERE layout_id = ? AND section = ?")
                try move.bind(geometry.start, geometry.end, layout.id, index)
                try move.execute()
            }
        }
        let update = try connection.cachedStatement("""
            UPDATE layouts SET content_length = ?, section_count = ?, cell_count = ?, element_count = ?, overhang = ?,
                               spec_hash = ?, revision = revision + 1, updated_at = ? WHERE id = ?
            """)
        try update.bind(chain.end, placed.count, cellCount, elementCount, overhang, fingerprint.specHash, LayoutStore.timestamp(), layout.id)
        try update.execute()
        return entry
    }

    private func recompute(
        _ section: Section,
        index: Int,
        replacing old: OldSection?,
        slot nextSlot: inout Int,
        writer: inout CellGroupWriter
    ) throws -> Placed {
        if let old { try CellGroups.delete(layoutID: layout.id, slot: old.slot, connection: connection) }
        let slot = nextSlot
        nextSlot += 1
        writer.slots[index] = slot
        let (geometry, placer) = try engine.layoutSection(
            section, index: index, axis: axis, crossExtent: layout.crossExtent, start: 0, into: &writer
        )
        // Writes the last open group (rows are written below, once placed).
        try writer.endSection(geometry, placer: placer)
        return Placed(geometry: geometry, slot: slot, state: .some(try PlacerState.encode(placer)), moved: true)
    }

    /// The placer of a section restored from its stored state, or nil for a
    /// kind that cannot resume.
    private func resumablePlacer(for section: Section, index: Int, state: [UInt8]) throws -> (any ResumableItemPlacer)? {
        let sides = section.insets.along(axis)
        let context = SectionContext(
            axis: axis, section: index, crossExtent: layout.crossExtent,
            available: layout.crossExtent - sides.crossStart - sides.crossEnd
        )
        return try PlacerState.decode(state, like: try section.layout.makePlacer(in: context))
    }

    private func loadSections() throws -> [OldSection] {
        let query = try connection.cachedStatement(
            "SELECT \(SectionRow.columns) FROM layout_sections WHERE layout_id = ? ORDER BY section"
        )
        try query.bind(layout.id)
        var result: [OldSection] = []
        while try query.step() {
            result.append(OldSection(geometry: SectionRow.geometry(from: query), slot: SectionRow.slot(from: query)))
        }
        return result
    }

    private func placerState(slot: Int) throws -> [UInt8]? {
        let query = try connection.cachedStatement("SELECT placer_state FROM layout_sections WHERE layout_id = ? AND slot = ?")
        try query.bind(layout.id, slot)
        guard try query.step(), !query.isNull(at: 0) else { return nil }
        defer { query.reset() }
        return query.blob(at: 0)
    }

    private func allPlacerStates() throws -> [Int: [UInt8]?] {
        let query = try connection.cachedStatement("SELECT slot, placer_state FROM layout_sections WHERE layout_id = ?")
        try query.bind(layout.id)
        var states: [Int: [UInt8]?] = [:]
        while try query.step() { states[query.int(at: 0)] = query.isNull(at: 1) ? nil : query.blob(at: 1) }
        return states
    }

    /// Whether `new` is `old` with items added at the end and nothing else
    /// changed, so that its layout can go on from the stored state.
    static func onlyAppends(old: Section, new: Section, oldCount: Int) -> Bool {
        func withoutItems(_ section: Section) -> String {
            guard case .object(var object) = section.jsonValue else { return "" }
            object["items"] = nil
            return JSONWriter.canonical(.object(object))
        }
        guard withoutItems(old) == withoutItems(new), old.items.knownCount == oldCount else { return false }
        return new.items.extends(old.items)
    }
}

extension ItemSource {
    /// Whether these items are `other`'s followed by more (or none).
    func extends(_ other: ItemSource) -> Bool {
        switch (other, self) {
        case (.list(let old), .list(let new)):
            return new.count >= old.count && Array(new.prefix(old.count)) == old
        case (.cycle(let oldCount, let oldCycle), .cycle(let newCount, let newCycle)):
            return oldCycle == newCycle && newCount >= oldCount
        case (.segments(let old), .segments(let new)):
            guard let lastOld = old.last, new.count >= old.count, Array(new.prefix(old.count - 1)) == Array(old.dropLast()) else { return false }
            return new[old.count - 1].extends(lastOld)
        case (_, .segments(let new)):
            guard let first = new.first else { return false }
            if case .file = other { return false }
            return first == other || first.extends(other)
        default:
            return false
        }
    }
}
