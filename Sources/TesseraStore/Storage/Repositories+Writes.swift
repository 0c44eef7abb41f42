import TesseraLayout

/// What a write transaction changes of specs: their rows and their sections' bodies.
package protocol SpecWrites: AnyObject {
    func insertSpec(_ spec: SpecRow) throws -> Int64
    func updateSpec(id: Int64, _ spec: SpecRow) throws
    func touchSpec(id: Int64, contentHash: String, updatedAt: Double) throws
    /// Deletes a spec's row and its sections' bodies (the store deletes its
    /// layouts first).
    func deleteSpec(id: Int64) throws
    func deleteSectionBodies(specID: Int64) throws
    /// Inserts or replaces a section's stored body.
    func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws
}

/// What a write transaction changes of layout rows.
package protocol LayoutWrites: AnyObject {
    func insertLayout(_ layout: NewLayoutRow) throws -> Int64
    func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) throws
    /// Inserts a layout row whose totals are known: what `insertLayout`
    /// then `finishLayout` write, in one statement where the backend can.
    func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64
    func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) throws
    /// Marks one layout stale, whatever its other columns hold.
    func markStale(layoutID: Int64, updatedAt: Double) throws
    /// Marks layouts stale; returns how many.
    func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) throws -> Int
    /// Deletes a layout and everything stored for it.
    func deleteLayout(id: Int64) throws
}

extension LayoutWrites {
    package func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64 {
        let id = try insertLayout(layout)
        try finishLayout(id: id, summary, computeSeconds: computeSeconds)
        return id
    }
}

/// What a write transaction changes of a layout's sections and cell groups:
/// a ``CellSink`` that also moves and deletes rows.
package protocol CellWrites: CellSink {
    func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) throws
    func deleteSections(layoutID: Int64) throws
    /// Deletes the groups of a layout's slot, or of all its slots.
    func deleteGroups(layoutID: Int64, slot: Int?) throws
}
