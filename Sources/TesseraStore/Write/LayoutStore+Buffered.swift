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
        var writer = CellGroupWriter(storage: sink, layoutID: 0)
        writer.cancellation = cancellation
        writer.progress = Self.cellProgress(progress, spec: spec, name: name, crossExtent: crossExtent)
        let summary = try reportingSpecErrors(name: name) { try engine.run(spec, crossExtent: crossExtent, into: &writer) }
        return BufferedComputation(
            crossExtent: crossExtent, rows: sink.rows, totals: LayoutTotals(summary, overhang: writer.overhang),
            seconds: Clock.monotonic() - started
        )
    }

    /// Stores a layout computed into memory as the spec's layout at its
    /// extent (replacing one stored, unless `replacing` is false), inside the
    /// caller's write: its row goes in whole, then its cells. Returns its id.
    func storeBuffered(
        _ computed: BufferedComputation, specID: Int64, fingerprint: SpecFingerprint, storage: RowTransaction, replacing: Bool = true
    ) async throws -> Int64 {
        let id = try await insertLayout(
            specID: specID, crossExtent: computed.crossExtent, fingerprint: fingerprint, storage: storage,
            replacing: replacing, finished: (computed.totals, computed.seconds)
        )
        let recorder = DirectoryRecorder(storage)
        try computed.rows.replay(into: recorder, layoutID: id)
        try await Self.writeNewLayoutSummary(
            layoutID: id, sectionCount: computed.totals.sectionCount, recorded: recorder, storage: storage, location: location
        )
        return id
    }

    /// Saves a spec the store does not hold (the caller checked, in this
    /// write), with its layouts computed before the write (at each extent of
    /// `prepared`, in order), inside the caller's write. For a batch, which
    /// reports counts only: the result's `layouts` are not read back.
    package func saveNew(_ prepared: PreparedSave, computed: [BufferedComputation], storage: RowTransaction) async throws -> SaveOutcome {
        let specID = try await writeSpec(prepared.spec, name: prepared.name, fingerprint: prepared.fingerprint, bodies: prepared.bodies, storage: storage)
        var report = UpdateReport()
        for layout in computed {
            report.layouts.append(try await storeNewLayout(layout, of: prepared, specID: specID, storage: storage))
        }
        return SaveOutcome(result: SaveResult(layouts: [], report: report, created: true), unchanged: false)
    }

    /// Stores a layout of a spec this write inserted (none to replace), and
    /// what its report says of it.
    func storeNewLayout(
        _ layout: BufferedComputation, of prepared: PreparedSave, specID: Int64, storage: RowTransaction
    ) async throws -> UpdateReport.Layout {
        _ = try await storeBuffered(layout, specID: specID, fingerprint: prepared.fingerprint, storage: storage, replacing: false)
        return .fullRecompute(crossExtent: layout.crossExtent, sections: prepared.spec.sections.count)
    }
}

extension LayoutStore.PreparedSave {
    /// The extents to lay out, in order, each once.
    package var distinctCrossExtents: [Double] {
        var extents: [Double] = []
        for extent in crossExtents.sorted() where extents.last != extent { extents.append(extent) }
        return extents
    }
}
