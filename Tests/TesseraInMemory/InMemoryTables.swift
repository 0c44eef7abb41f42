import TesseraLayout
import TesseraStore

/// Every row of an in-memory store, as one value: a read holds a copy (a
/// snapshot no later write changes), a write changes its own copy and
/// commits it whole. Dictionaries and arrays are copied on write, so a
/// snapshot costs nothing until a write changes what it shares.
///
/// The indexes (`specIDs`, `layoutIDs`, `groupPlaces`) are kept in step
/// with the rows by the mutating methods here and in the writer.
package struct InMemoryTables: Sendable {
    /// `specs`, by id.
    package var specs: [Int64: SpecRowData] = [:]
    /// The unique index of `specs` on name.
    var specIDs: [String: Int64] = [:]
    /// `spec_sections`, by spec id, in section order.
    package var specSections: [Int64: SortedRows<SpecSectionRow>] = [:]
    /// `spec_item_runs`, by spec id, in order of section and first item.
    package var itemRuns: [Int64: [ItemRunRow]] = [:]
    /// `layouts`, by id.
    package var layouts: [Int64: LayoutRow] = [:]
    /// The unique index of `layouts` on spec and extent.
    var layoutIDs: [LayoutPlace: Int64] = [:]
    /// `layout_sections`, by layout id, in section order.
    package var sections: [Int64: SortedRows<SectionRow>] = [:]
    /// Cell groups, by layout id and slot, in item order.
    package var groups: [Int64: [Int: SortedRows<GroupRow>]] = [:]
    /// Where each group is, by its id (what `visitFrames` is given).
    var groupPlaces: [Int64: GroupPlace] = [:]

    /// The next ids: never reused, as SQLite's AUTOINCREMENT (readers
    /// cache layouts by id and revision).
    var nextSpecID: Int64 = 1
    var nextLayoutID: Int64 = 1
    var nextGroupID: Int64 = 1

    /// A layout's place in the unique index.
    struct LayoutPlace: Hashable {
        var specID: Int64
        var crossExtent: Double
    }

    /// A group's place: its layout, slot and first item.
    struct GroupPlace: Hashable {
        var layoutID: Int64
        var slot: Int
        var firstItem: Int
    }

    /// The group whose id is `id`.
    func group(id: Int64) -> GroupRow? {
        guard let place = groupPlaces[id] else { return nil }
        return groups[place.layoutID]?[place.slot]?[place.firstItem]
    }

    /// A layout's spec name and extent, as far as its rows can still be read.
    func place(ofLayout id: Int64) -> (spec: String?, crossExtent: Double?) {
        guard let layout = layouts[id] else { return (nil, nil) }
        return (specs[layout.specID]?.name, layout.crossExtent)
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

/// Changes made behind the store's back, for tests: rows rewritten as
/// another program would write them (call `resum()` in `change`) or
/// damaged (leave the checksum). The indexes follow the changed rows.
extension InMemoryTables {
    package mutating func alterSpecs(_ change: (inout SpecRowData) -> Void) {
        for (id, var row) in specs {
            change(&row)
            specs[id] = row
        }
        specIDs = Dictionary(specs.values.map { ($0.name, $0.id) }, uniquingKeysWith: max)
    }

    package mutating func alterSpecSections(_ change: (inout SpecSectionRow) -> Void) {
        for id in specSections.keys { specSections[id]?.alter(change) }
    }

    package mutating func alterItemRuns(_ change: (inout ItemRunRow) -> Void) {
        for id in itemRuns.keys {
            for index in itemRuns[id, default: []].indices { change(&itemRuns[id, default: []][index]) }
        }
    }

    package mutating func alterLayouts(_ change: (inout LayoutRow) -> Void) {
        for (id, var row) in layouts {
            change(&row)
            layouts[id] = row
        }
        layoutIDs = Dictionary(layouts.values.map { (LayoutPlace(specID: $0.specID, crossExtent: $0.crossExtent), $0.id) }, uniquingKeysWith: max)
    }

    package mutating func alterSections(_ change: (inout SectionRow) -> Void) {
        for id in sections.keys { sections[id]?.alter(change) }
    }

    package mutating func alterGroups(_ change: (inout GroupRow) -> Void) {
        groupPlaces = [:]
        for (layoutID, slots) in groups {
            for (slot, var rows) in slots {
                rows.alter(change)
                for row in rows.rows { groupPlaces[row.id] = GroupPlace(layoutID: layoutID, slot: slot, firstItem: row.firstItem) }
                groups[layoutID]?[slot] = rows
            }
        }
    }
}
