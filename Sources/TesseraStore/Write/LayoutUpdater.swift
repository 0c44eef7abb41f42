import Locking
import TesseraLayout
import TesseraStoreFormat

/// Brings one stored layout up to date with a new spec, inside a write. Cells are stored per section slot relative to the section's
/// items origin, so an unchanged section moves by rewriting its row only.
struct LayoutUpdater {
    let store: LayoutStore
    let storage: RowTransaction
    /// The layout's row as stored: its totals let an append read only the
    /// rows from its section on (see `appendWindow()`).
    let record: LayoutRecord
    /// The new spec's header (its sections need not be there).
    let header: Spec
    /// The old spec's sections: identities and content hashes, in order.
    let oldIdentities: [SectionIdentity]
    /// The new spec's.
    let fingerprint: SpecFingerprint
    /// Section `i` of the old and of the new spec, asked for only when it
    /// changed: an append reads one section, not the whole spec.
    let oldSection: (Int) async throws -> Section
    let newSection: (Int) async throws -> Section
    /// Checked between chunks of cells.
    var cancellation: CancellationFlag? = nil
    /// Sections (new indices) whose items changed from this item on, and
    /// not before it (a resize): they go on from the latest stored state
    /// at or before it.
    var changedFrom: [Int: Int] = [:]
    /// Sections (new indices, at their old index) that only had items
    /// appended: a layout that holds all their earlier items goes on from
    /// its stored state without reading them.
    var appended: [Int: AppendedSection] = [:]

    var layout: StoredLayout { record.layout }
    var axis: Axis { header.axis }
    private var location: String { store.location }

    /// A section that had `items` appended after its first `before` items.
    struct AppendedSection {
        var before: Int
        /// The section as its stored body holds it (its items need not be all those before).
        var base: Section
        var items: AppendedItems
    }

    private enum Plan {
        case reuse(SectionRecord)
        /// Go on from the latest stored state after at most `limit` items.
        case resume(SectionRecord, limit: Int)
        case recompute(replacing: SectionRecord?)
    }

    private struct Placed {
        var geometry: SectionGeometry
        var slot: Int
        /// The placer state to store, or nil to keep the stored one (reused sections).
        var state: [UInt8]??
        var moved: Bool
    }

    mutating func run() async throws -> UpdateReport.Layout {
        var entry = UpdateReport.Layout(crossExtent: layout.crossExtent)
        let window = try await appendWindow()
        // With a window, `oldSections` holds the rows from section `first` on.
        let first = window?.first ?? 0
        let oldSections = if let window { window.rows } else { try await storage.read { try $0.sections(layoutID: layout.id) } }
        let oldByIdentity = Dictionary(zip(oldIdentities.map(\.identity), oldIdentities.indices), uniquingKeysWith: { first, _ in first })
        var used = Set<Int>()
        var plans: [Plan] = []
        for (index, identity) in fingerprint.sectionIdentities.enumerated() where index >= first {
            guard let oldIndex = oldByIdentity[identity], !used.contains(oldIndex), oldSections.indices.contains(oldIndex - first) else {
                plans.append(.recompute(replacing: nil))
                continue
            }
            used.insert(oldIndex)
            let old = oldSections[oldIndex - first]
            if oldIdentities[oldIndex].hash == fingerprint.sectionHashes[index] {
                plans.append(.reuse(old))
                continue
            }
            if let append = appended[index], oldIndex == index, old.geometry.itemCount == append.before {
                plans.append(.resume(old, limit: append.before))
                continue
            }
            let (before, after) = (try await oldSection(oldIndex), try await newSection(index))
            let sameShape = SpecFingerprint.shape(of: before, crossExtent: layout.crossExtent)
                == SpecFingerprint.shape(of: after, crossExtent: layout.crossExtent)
            if sameShape, try sameItems(before, after, oldIndex: oldIndex) {
                // Changed only where this extent does not look (a breakpoint of another extent).
                plans.append(.reuse(old))
            } else if sameShape, let first = changedFrom[index] {
                plans.append(.resume(old, limit: first))
            } else if sameShape, before.items.knownCount == old.geometry.itemCount, after.items.extends(before.items) {
                // Only items appended: it goes on from the stored state.
                plans.append(.resume(old, limit: old.geometry.itemCount))
            } else {
                plans.append(.recompute(replacing: old))
            }
        }
        for (offset, old) in oldSections.enumerated() where !used.contains(first + offset) {
            try await storage.deleteGroups(layoutID: layout.id, slot: old.slot)
            entry.removed += 1
        }

        // With a window, the slots of the rows before it are read only when a section needs a new slot.
        var nextSlot: Int? = window == nil ? (oldSections.map(\.slot).max() ?? -1) + 1 : nil
        var writer = CellGroupWriter(storage: storage, layoutID: layout.id)
        writer.cancellation = cancellation
        writer.location = location
        var placed: [Placed] = []
        for (offset, plan) in plans.enumerated() {
            let index = first + offset
            switch plan {
            case .reuse(let old):
                var geometry = old.geometry
                let moved = geometry.index != index
                geometry.index = index
                placed.append(Placed(geometry: geometry, slot: old.slot, state: .none, moved: moved))
            case .resume(let old, let limit):
                let stored = try await storage.read { try $0.placerState(layoutID: layout.id, slot: old.slot) }.map(StoredStates.init(bytes:))
                let start = stored?.latest(atMost: limit, itemCount: old.geometry.itemCount)
                // An append that goes on after all the earlier items reads none of them.
                let append = appended[index].flatMap { $0.before == start?.itemCount ? $0 : nil }
                let section = if let append { append.base } else { try await newSection(index) }
                let restored = try start.map { try resumablePlacer(for: section, index: index, state: $0.state) }
                guard case .placer(let placer) = restored, let start else {
                    placed.append(try await recompute(try await newSection(index), index: index, replacing: old, slot: &nextSlot, writer: &writer))
                    entry.recomputed += 1
                    if case .unreadable = restored { entry.unreadableStates += 1 }
                    continue
                }
                writer.slots[index] = old.slot
                writer.checkpoints = stored?.checkpoints.filter { $0.itemCount <= start.itemCount } ?? []
                writer.resumedGroup = try await ResumedGroup.read(
                    layoutID: layout.id, slot: old.slot, section: index, firstWritten: placer.firstWrittenItem(after: start.itemCount),
                    storage: storage
                )
                var (geometry, finalPlacer) = try store.engine.resumeSection(
                    section, index: index, axis: axis, crossExtent: layout.crossExtent, start: 0,
                    placer: placer, after: start.itemCount, appended: append?.items, into: &writer
                )
                // Writes the last open group (rows are written below, once placed).
                let state = try writer.closeSection(geometry, placer: finalPlacer)
                // This call wrote only the new and open cells: the span comes
                // from all the section's groups, exactly.
                geometry.cellSpan = try await storage.read { try $0.scrollSpan(layoutID: layout.id, slot: old.slot) }
                placed.append(Placed(geometry: geometry, slot: old.slot, state: .some(state), moved: true))
                entry.resumed += 1
            case .recompute(let old):
                placed.append(try await recompute(try await newSection(index), index: index, replacing: old, slot: &nextSlot, writer: &writer))
                entry.recomputed += 1
            }
        }

        // Place the sections as the engine does; then write the rows that changed.
        let renumbered = placed.count != oldSections.count || placed.contains { $0.moved && $0.state == nil }
        let keptStates = renumbered ? try await storage.read { try $0.placerStates(layoutID: layout.id) } : [:]
        // A window's sections keep their indices: never renumbered (that would drop the rows before it).
        assert(window == nil || !renumbered)
        if renumbered { try await storage.deleteSections(layoutID: layout.id) }
        var chain = window.map { SectionChain(sectionSpacing: header.sectionSpacing, nextNonEmptyAt: $0.rows[0].geometry.start) } ?? SectionChain(sectionSpacing: header.sectionSpacing)
        var overhang = window?.overhangBefore ?? 0
        var cellCount = window?.cellsBefore ?? 0
        var elementCount = window?.elementsBefore ?? 0
        // The sections before the window neither change nor move.
        entry.kept += first
        var moves: [Int: (start: Double, end: Double)] = [:]
        for (offset, section) in placed.enumerated() {
            let index = first + offset
            let oldStart = section.geometry.start
            let geometry = chain.place(section.geometry)
            if case .reuse = plans[offset] {
                if section.moved || geometry.start != oldStart { entry.shifted += 1 } else { entry.kept += 1 }
            }
            overhang = max(overhang, geometry.overhang)
            cellCount += geometry.isEmpty ? 0 : geometry.itemCount
            elementCount += geometry.elementCount
            let record = SectionRecord(geometry: geometry, slot: section.slot)
            if let state = section.state {
                try storage.writeSection(layoutID: layout.id, record, placerState: state)
            } else if renumbered {
                try storage.writeSection(layoutID: layout.id, record, placerState: keptStates[section.slot])
            } else if geometry.start != oldStart {
                moves[index] = (geometry.start, geometry.end)
            }
        }
        try await storage.moveSections(layoutID: layout.id, moves)
        try await storage.updateLayout(
            id: layout.id,
            LayoutTotals(contentLength: chain.end, sectionCount: first + placed.count, cellCount: cellCount, elementCount: elementCount, overhang: overhang),
            specHash: fingerprint.specHash,
            updatedAt: Clock.wall()
        )
        try await LayoutStore.writeDirectorySummary(layoutID: layout.id, storage: storage)
        return entry
    }

    private func recompute(
        _ section: Section,
        index: Int,
        replacing old: SectionRecord?,
        slot nextSlot: inout Int?,
        writer: inout CellGroupWriter
    ) async throws -> Placed {
        if let old { try await storage.deleteGroups(layoutID: layout.id, slot: old.slot) }
        let slot = if let nextSlot { nextSlot } else {
            (try await storage.read { try $0.sections(layoutID: layout.id) }.map(\.slot).max() ?? -1) + 1
        }
        nextSlot = slot + 1
        writer.slots[index] = slot
        let (geometry, placer) = try store.engine.layoutSection(
            section, index: index, axis: axis, crossExtent: layout.crossExtent, start: 0, into: &writer
        )
        // Writes the last open group (rows are written below, once placed).
        let state = try writer.closeSection(geometry, placer: placer)
        return Placed(geometry: geometry, slot: slot, state: .some(state), moved: true)
    }

    /// The placer of a section restored from its stored state.
    private func resumablePlacer(for section: Section, index: Int, state: [UInt8]) throws -> PlacerState.Restored {
        let context = try SectionPlacement(section, index: index, axis: axis, crossExtent: layout.crossExtent).context
        return PlacerState.decode(state, like: try section.layout.makePlacer(in: context))
    }

    /// Whether the items of `new` are those of `old`, section `oldIndex`
    /// of the old spec, item files holding what they held when it was
    /// stored (its content hashes as stored).
    private func sameItems(_ old: Section, _ new: Section, oldIndex: Int) throws -> Bool {
        guard old.items == new.items else { return false }
        guard !new.items.itemFiles.isEmpty else { return true }
        return try SpecFingerprint.hash(old, index: oldIndex, axis: axis) == oldIdentities[oldIndex].hash
    }
}
