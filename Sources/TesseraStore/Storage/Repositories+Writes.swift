import TesseraLayout

// The rows a write transaction reads and changes, by role. The reads are
// those of the snapshot protocols a write needs (``SpecReads`` and the
// others), seen from inside the transaction: a backend whose snapshot
// answers at once implements both with the same synchronous methods.

/// What a write transaction reads and changes of specs: their rows and
/// their sections' bodies.
package protocol SpecRows: AnyObject {
    func specID(name: String) async throws -> Int64?
    func specRecord(name: String) async throws -> SpecRecord?
    /// The stored bodies of a spec's sections, in order.
    func sectionBodies(specID: Int64) async throws -> [String]
    func sectionBody(specID: Int64, index: Int) async throws -> String?
    func sectionIdentities(specID: Int64) async throws -> [SectionIdentity]

    func insertSpec(_ spec: SpecRow) async throws -> Int64
    func updateSpec(id: Int64, _ spec: SpecRow) async throws
    func touchSpec(id: Int64, contentHash: String, updatedAt: Double) async throws
    /// Deletes a spec's row and its sections' bodies (the store deletes its
    /// layouts first).
    func deleteSpec(id: Int64) async throws
    func deleteSectionBodies(specID: Int64) async throws
    /// Inserts or replaces a section's stored body.
    func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) async throws
}

/// What a write transaction reads and changes of layout rows.
package protocol LayoutRows: AnyObject {
    /// The layout of a spec at an extent, fresh or not.
    func layoutRecord(name: String, crossExtent: Double, engineVersion: Int) async throws -> LayoutRecord?
    func layoutRecord(id: Int64, engineVersion: Int) async throws -> LayoutRecord?
    /// Every layout of one spec (or of all specs), by name and extent.
    func layoutRecords(specID: Int64?, engineVersion: Int) async throws -> [LayoutRecord]
    func layoutID(specID: Int64, crossExtent: Double) async throws -> Int64?

    func insertLayout(_ layout: NewLayoutRow) async throws -> Int64
    func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) async throws
    /// Inserts a layout row whose totals are known: what `insertLayout`
    /// then `finishLayout` write, in one statement where the backend can.
    func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) async throws -> Int64
    func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) async throws
    /// Marks one layout stale, whatever its other columns hold.
    func markStale(layoutID: Int64, updatedAt: Double) async throws
    /// Marks layouts stale; returns how many.
    func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) async throws -> Int
    /// Deletes a layout and everything stored for it.
    func deleteLayout(id: Int64) async throws
}

extension LayoutRows {
    package func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) async throws -> Int64 {
        let id = try await insertLayout(layout)
        try await finishLayout(id: id, summary, computeSeconds: computeSeconds)
        return id
    }

    /// The layout of a spec at an extent when it may be served (see
    /// ``LayoutReads/freshLayout(name:crossExtent:)``), read from the rows.
    package func freshLayoutRecord(name: String, crossExtent: Double) async throws -> LayoutRecord? {
        guard let record = try await layoutRecord(name: name, crossExtent: crossExtent, engineVersion: LayoutEngine.version),
              record.layout.state == .fresh
        else { return nil }
        return record
    }
}

/// What a write transaction reads and changes of a layout's sections and
/// cell groups: a ``CellSink`` (synchronous: the engine feeds it) that
/// also reads, moves and deletes rows.
package protocol CellRows: CellSink {
    /// Every section row of a layout, in section order.
    func sections(layoutID: Int64) async throws -> [SectionRecord]
    func placerState(layoutID: Int64, slot: Int) async throws -> [UInt8]?
    func placerStates(layoutID: Int64) async throws -> [Int: [UInt8]]
    /// See ``CellGroupReads/groups(layoutID:slot:firstItems:alsoFirstItem:framesOf:)``.
    func groups(
        layoutID: Int64, slot: Int, firstItems: ClosedRange<Int>, alsoFirstItem: Int?, framesOf: ClosedRange<Int>?
    ) async throws -> [GroupRecord]
    /// The union of a slot's groups along the scroll axis; nil without groups.
    func scrollSpan(layoutID: Int64, slot: Int) async throws -> ClosedRange<Double>?

    func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) async throws
    func deleteSections(layoutID: Int64) async throws
    /// Deletes the groups of a layout's slot, or of all its slots.
    func deleteGroups(layoutID: Int64, slot: Int?) async throws
}
