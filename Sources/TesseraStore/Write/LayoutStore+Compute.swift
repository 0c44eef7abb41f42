import Locking
import TesseraLayout
import TesseraStoreFormat

/// Computing and persisting layouts.
extension LayoutStore {
    /// In one read: the fresh layout's record, or nil when it is missing or
    /// stale and may be computed; a spec that does not exist, or an extent
    /// it cannot take, is an error (`notFound`, `invalidArgument`).
    func freshRecord(name: String, crossExtent: Double, storage: RowSnapshot) throws -> LayoutRecord? {
        if let record = try resolvedLayout(name: name, crossExtent: crossExtent, storage: storage) {
            return record
        }
        guard let spec = try storage.specSummary(name: name) else { throw StoreError.noSuchSpec(name: name) }
        try Self.checkCrossExtent(crossExtent, axis: spec.axis)
        return nil
    }

    /// An extent the engine can lay out at, else `invalidArgument`.
    static func checkCrossExtent(_ crossExtent: Double, axis: Axis) throws {
        do {
            try LayoutEngine.checkCrossExtent(crossExtent, axis: axis)
        } catch let error as SpecError {
            throw StoreError(.invalidArgument, error.reason, crossExtent: crossExtent, cause: error)
        }
    }

    /// Stores the layout of a spec at one extent inside the caller's write, in place of the one stored
    /// (`replacing` false: the caller knows there is none): computed here, its cells streamed into their
    /// rows, or `computed` outside the write, into memory before it or by a worker as it goes. Returns its id.
    @discardableResult
    func storeLayout(
        _ spec: Spec, name: String, specID: Int64, fingerprint: SpecFingerprint, crossExtent: Double,
        computed: HandOff<BufferedLayout.Rows, BufferedComputation>? = nil, replacing: Bool = true, storage: RowTransaction,
        progress: (@Sendable (PrecomputeProgress) -> Void)?, cancellation: CancellationFlag? = nil
    ) async throws -> Int64 {
        let started = Clock.monotonic()
        if replacing, let old = try await storage.read({ try $0.layoutID(specID: specID, crossExtent: crossExtent) }) {
            try await storage.deleteLayout(id: old)
        }
        // Computed already: its row is inserted whole, not updated after its cells.
        let done = computed?.finished
        let id = try await storage.insertLayout(LayoutRow(
            specID: specID, crossExtent: crossExtent, engineVersion: LayoutEngine.version, specHash: fingerprint.specHash,
            totals: done?.totals ?? .zero, computeSeconds: done?.seconds ?? 0, updatedAt: Clock.wall()
        ))
        let recorder = DirectoryRecorder(storage)
        let totals: LayoutTotals
        if let computed {
            let last = try await computed.forEach { try $0.replay(into: recorder, layoutID: id) }
            try last.rows.replay(into: recorder, layoutID: id)
            totals = last.totals
            if done == nil { try await storage.finishLayout(id: id, totals, computeSeconds: last.seconds) }
        } else {
            totals = try run(spec, name: name, crossExtent: crossExtent, into: recorder, layoutID: id, progress: progress, cancellation: cancellation)
            try await storage.finishLayout(id: id, totals, computeSeconds: Clock.monotonic() - started)
        }
        try await Self.writeNewLayoutSummary(layoutID: id, sectionCount: totals.sectionCount, recorded: recorder, storage: storage)
        progress?(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: totals.cellCount, cellsExpected: totals.cellCount))
        return id
    }

    /// Lays out `spec` at `crossExtent` into `sink`, as the rows of layout
    /// `layoutID`, reporting progress every 64k cells: often enough for a
    /// progress bar, rarely enough to cost nothing.
    func run(
        _ spec: Spec, name: String, crossExtent: Double, into sink: any CellSink, layoutID: Int64,
        progress: (@Sendable (PrecomputeProgress) -> Void)?, cancellation: CancellationFlag?
    ) throws -> LayoutTotals {
        var writer = CellGroupWriter(storage: sink, layoutID: layoutID)
        writer.cancellation = cancellation
        if let progress {
            let expected = spec.knownItemCount
            var lastReport = 0
            writer.progress = { written in
                guard written - lastReport >= 65_536 else { return }
                lastReport = written
                progress(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: written, cellsExpected: expected))
            }
        }
        let summary = try reportingSpecErrors(name: name) { try engine.run(spec, crossExtent: crossExtent, into: &writer) }
        return LayoutTotals(
            contentLength: summary.contentLength, sectionCount: summary.sectionCount, cellCount: summary.cellCount,
            elementCount: summary.elementCount, overhang: writer.overhang
        )
    }
}

/// A stored layout, and whether the call that returned it computed it.
public struct ComputedLayout: Sendable, Hashable {
    /// The fresh layout as stored.
    public var layout: StoredLayout
    /// Whether this call computed and stored it (it was missing or stale).
    public var computed: Bool

    public init(layout: StoredLayout, computed: Bool) {
        self.layout = layout
        self.computed = computed
    }
}
