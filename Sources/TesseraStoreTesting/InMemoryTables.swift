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
    package var specIDs: [String: Int64] = [:]
    /// `spec_sections`, by spec id, in section order.
    package var specSections: [Int64: SortedRows<SpecSectionRow>] = [:]
    /// `spec_item_runs`, by spec id, in order of section and first item.
    package var itemRuns: [Int64: [ItemRunRow]] = [:]
    /// `layouts`, by id.
    package var layouts: [Int64: LayoutRow] = [:]
    /// The unique index of `layouts` on spec and extent.
    package var layoutIDs: [LayoutPlace: Int64] = [:]
    /// `layout_sections`, by layout id, in section order.
    package var sections: [Int64: SortedRows<SectionRow>] = [:]
    /// Cell groups, by layout id and slot, in item order.
    package var groups: [Int64: [Int: SortedRows<GroupRow>]] = [:]
    /// Where each group is, by its id (what `visitFrames` is given).
    package var groupPlaces: [Int64: GroupPlace] = [:]

    /// The next ids: never reused, as SQLite's AUTOINCREMENT (readers
    /// cache layouts by id and revision).
    var nextSpecID: Int64 = 1
    var nextLayoutID: Int64 = 1
    var nextGroupID: Int64 = 1

    /// A layout's place in the unique index.
    package struct LayoutPlace: Hashable, Sendable {
        package var specID: Int64
        package var crossExtent: Double
    }

    /// A group's place: its layout, slot and first item.
    package struct GroupPlace: Hashable, Sendable {
        package var layoutID: Int64
        package var slot: Int
        package var firstItem: Int
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
}

extension LayoutRow {
    /// Where the row is in the unique index of layouts.
    package var place: InMemoryTables.LayoutPlace { .init(specID: specID, crossExtent: crossExtent) }
}

extension GroupRow {
    /// Where the group is in the index of groups by id.
    package var place: InMemoryTables.GroupPlace { .init(layoutID: layoutID, slot: slot, firstItem: firstItem) }
}
