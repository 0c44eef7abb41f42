import TesseraLayout

// The rows a write transaction changes, by role. What it reads, it reads
// through `WriteTransaction.read` with the snapshot protocols (``SpecReads``
// and the others): the reads are written once, for reads and writes alike.

/// What a write transaction changes of specs: their rows and their
/// sections' bodies.
package protocol SpecRows: AnyObject {
    func insertSpec(_ spec: SpecRow) async throws -> Int64
    func updateSpec(id: Int64, _ spec: SpecRow) async throws
    func touchSpec(id: Int64, contentHash: String, updatedAt: Double) async throws
    /// Deletes a spec's row and its sections' bodies (the store deletes its
    /// layouts first).
    func deleteSpec(id: Int64) async throws
    /// Forgets that the store holds more than one spec under names
    /// equivalent to `name` (after the store deleted them).
    func clearNameConflict(name: String) async throws
    /// Deletes a spec's sections' bodies and item runs.
    func deleteSectionBodies(specID: Int64) async throws
    /// Inserts or replaces a section's stored body (the item runs appended
    /// to the section it replaces are the caller's to delete).
    func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) async throws
    /// Deletes the item runs appended to `sections` of a spec, whose
    /// bodies were written anew: in one statement where the backend can.
    func deleteItemRuns(specID: Int64, sections: [Int]) async throws
    /// Appends a run of items to a stored section, and sets the section's
    /// content hash to `contentHash`: its body is not written.
    func appendItemRun(specID: Int64, _ run: ItemRun, contentHash: String) async throws
    /// Inserts or replaces what the spec's content hash goes on from (see ``SpecHashPrefix``).
    func writeSpecHashPrefix(specID: Int64, _ prefix: SpecHashPrefix) async throws
}

/// What a write transaction changes of layout rows.
package protocol LayoutRows: AnyObject {
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
    /// Stores a layout's directory summary (``DirectorySummary``), or
    /// clears it (nil), on its row; the row's other columns stay.
    func writeDirectorySummary(layoutID: Int64, _ summary: [UInt8]?) async throws
}

extension LayoutRows {
    package func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) async throws -> Int64 {
        let id = try await insertLayout(layout)
        try await finishLayout(id: id, summary, computeSeconds: computeSeconds)
        return id
    }
}

/// What a write transaction changes of a layout's sections and cell
/// groups: a ``CellSink`` (synchronous: the engine feeds it) that also
/// moves and deletes rows.
package protocol CellRows: CellSink {
    func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) async throws
    func deleteSections(layoutID: Int64) async throws
    /// Deletes the groups of a layout's slot, or of all its slots.
    func deleteGroups(layoutID: Int64, slot: Int?) async throws
}
