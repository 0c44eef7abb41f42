import TesseraLayout
import TesseraStoreFormat

/// A layout computed into memory, outside any transaction, to be stored
/// in a short write: by a query that computes a missing layout, and by a
/// batch, which computes the next specs while the current ones are written.
package struct BufferedComputation: Sendable {
    var crossExtent: Double
    package var rows: BufferedLayout.Rows
    var totals: LayoutTotals
    var seconds: Double
}

extension LayoutStore {
    /// Lays out `spec` at `crossExtent` into memory.
    package func computeBuffered(
        _ spec: Spec, name: String, crossExtent: Double,
        progress: (@Sendable (PrecomputeProgress) -> Void)?, cancellation: CancellationFlag?
    ) throws -> BufferedComputation {
        let started = Clock.monotonic()
        let sink = BufferedLayout()
        let totals = try run(spec, name: name, crossExtent: crossExtent, into: sink, layoutID: 0, progress: progress, cancellation: cancellation)
        return BufferedComputation(crossExtent: crossExtent, rows: sink.rows, totals: totals, seconds: Clock.monotonic() - started)
    }

    /// Saves a spec the store does not hold (the caller checked, in this write) with its layouts computed before
    /// the write, inside it. For a batch, which reports counts only: the result's `layouts` are not read back.
    package func saveNew(_ prepared: PreparedSave, computed: [BufferedComputation], storage: RowTransaction) async throws -> SaveOutcome {
        let specID = try await writeSpec(prepared.spec, name: prepared.name, fingerprint: prepared.fingerprint, bodies: prepared.bodies, storage: storage)
        var report = UpdateReport()
        for layout in computed {
            try await storeLayout(
                prepared.spec, name: prepared.name, specID: specID, fingerprint: prepared.fingerprint, crossExtent: layout.crossExtent,
                computed: layout, replacing: false, storage: storage, progress: nil
            )
            report.layouts.append(.fullRecompute(crossExtent: layout.crossExtent, sections: prepared.spec.sections.count))
        }
        return SaveOutcome(result: SaveResult(layouts: [], report: report, created: true), unchanged: false)
    }
}
