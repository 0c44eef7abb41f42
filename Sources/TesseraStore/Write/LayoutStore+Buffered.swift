import Locking
import TesseraLayout
import TesseraStoreFormat

/// A layout computed into memory outside any transaction, to be stored in a
/// short write (by a query that computes a missing layout, by a batch), or
/// what a save's worker holds of it at the end, the rest handed on before.
package struct BufferedComputation: Sendable {
    package var rows: BufferedLayout.Rows
    var totals: LayoutTotals
    var seconds: Double
}

extension LayoutStore {
    /// Lays out `spec` at `crossExtent` into memory; the rows not handed on as they were written.
    package func computeBuffered(
        _ spec: Spec, name: String, crossExtent: Double, handingTo handOff: HandOff<BufferedLayout.Rows, BufferedComputation>? = nil,
        progress: (@Sendable (PrecomputeProgress) -> Void)?, cancellation: CancellationFlag?
    ) throws -> BufferedComputation {
        let started = Clock.monotonic()
        let sink = BufferedLayout(handingTo: handOff)
        let totals = try run(spec, name: name, crossExtent: crossExtent, into: sink, layoutID: 0, progress: progress, cancellation: cancellation)
        return BufferedComputation(rows: sink.rows, totals: totals, seconds: Clock.monotonic() - started)
    }

    /// Saves a spec the store does not hold (the caller checked, in this write) and its layouts at `prepared`'s extents in
    /// order, each as `computed` hands its rows over. Its `layouts` are not read back (a batch reports counts only).
    package func saveNew(
        _ prepared: PreparedSave, computed: [HandOff<BufferedLayout.Rows, BufferedComputation>], storage: RowTransaction,
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) async throws -> SaveOutcome {
        let specID = try await writeSpec(prepared.spec, name: prepared.name, fingerprint: prepared.fingerprint, bodies: prepared.bodies, storage: storage)
        var report = UpdateReport()
        for (extent, layout) in zip(prepared.crossExtents, computed) {
            try await storeLayout(
                prepared.spec, name: prepared.name, specID: specID, fingerprint: prepared.fingerprint, crossExtent: extent,
                computed: layout, replacing: false, storage: storage, progress: progress
            )
            report.layouts.append(.fullRecompute(crossExtent: extent, sections: prepared.spec.sections.count))
        }
        return SaveOutcome(result: SaveResult(layouts: [], report: report, created: true), unchanged: false)
    }
}
