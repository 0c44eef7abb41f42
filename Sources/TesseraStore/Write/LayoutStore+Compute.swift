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

    /// Replaces the layout of a spec at one extent inside the caller's write:
    /// the old rows are deleted and the new ones written, so a reader sees
    /// either all of the old layout or all of the new one.
    func computeLayout(
        spec: Spec,
        name: String,
        specID: Int64,
        fingerprint: SpecFingerprint,
        crossExtent: Double,
        storage: RowTransaction,
        progress: (@Sendable (PrecomputeProgress) -> Void)?,
        cancellation: CancellationFlag? = nil
    ) async throws -> Int64 {
        let started = Clock.monotonic()
        let layoutID = try await insertLayout(specID: specID, crossExtent: crossExtent, fingerprint: fingerprint, storage: storage)
        let recorder = DirectoryRecorder(storage)
        var writer = CellGroupWriter(storage: recorder, layoutID: layoutID)
        writer.cancellation = cancellation
        writer.progress = Self.cellProgress(progress, spec: spec, name: name, crossExtent: crossExtent)
        let summary = try engine.run(spec, crossExtent: crossExtent, into: &writer)
        try await storage.finishLayout(id: layoutID, LayoutTotals(summary, overhang: writer.overhang), computeSeconds: Clock.monotonic() - started)
        try await Self.writeNewLayoutSummary(
            layoutID: layoutID, sectionCount: summary.sectionCount, recorded: recorder, storage: storage, location: location
        )
        progress?(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: summary.cellCount, cellsExpected: summary.cellCount))
        return layoutID
    }

    /// Replaces the layout row of a spec at an extent with a new one: empty,
    /// or with the totals of a layout computed before (`finished`).
    /// `replacing` false: the caller knows there is no row to replace.
    func insertLayout(
        specID: Int64, crossExtent: Double, fingerprint: SpecFingerprint, storage: RowTransaction,
        replacing: Bool = true, finished: (totals: LayoutTotals, seconds: Double)? = nil
    ) async throws -> Int64 {
        if replacing, let old = try await storage.read({ try $0.layoutID(specID: specID, crossExtent: crossExtent) }) {
            try await storage.deleteLayout(id: old)
        }
        return try await storage.insertLayout(LayoutRow(
            specID: specID, crossExtent: crossExtent, engineVersion: LayoutEngine.version, specHash: fingerprint.specHash,
            totals: finished?.totals ?? .zero, computeSeconds: finished?.seconds ?? 0, updatedAt: Clock.wall()
        ))
    }

    /// A `CellGroupWriter` progress callback that reports every 64k cells:
    /// often enough for a progress bar, rarely enough to cost nothing.
    static func cellProgress(
        _ progress: (@Sendable (PrecomputeProgress) -> Void)?, spec: Spec, name: String, crossExtent: Double
    ) -> ((Int) -> Void)? {
        guard let progress else { return nil }
        let expected = spec.knownItemCount
        var lastReport = 0
        return { written in
            guard written - lastReport >= 65_536 else { return }
            lastReport = written
            progress(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: written, cellsExpected: expected))
        }
    }
}

extension LayoutTotals {
    /// The totals of a layout the engine ran.
    init(_ summary: LayoutSummary, overhang: Double) {
        self.init(
            contentLength: summary.contentLength, sectionCount: summary.sectionCount,
            cellCount: summary.cellCount, elementCount: summary.elementCount, overhang: overhang
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
