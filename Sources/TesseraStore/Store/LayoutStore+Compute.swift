import TesseraLayout

/// Computing and persisting layouts.
extension LayoutStore {
    /// The layout of the spec stored under `name` at `crossExtent`, computed
    /// and persisted first when it is missing or stale.
    ///
    /// - Returns: the stored layout and whether this call computed it.
    /// - Throws: ``StoreError`` with code `notFound` for an unknown spec
    ///   (found out without waiting for a writer), `invalidArgument` for an
    ///   extent that is not a finite number above 0, `conflict` when the
    ///   spec's items files changed since it was saved.
    @discardableResult
    public func layout(
        name: String,
        crossExtent: Double,
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) throws -> ComputedLayout {
        if let fresh = try freshLayoutOrCheck(name: name, crossExtent: crossExtent) {
            return ComputedLayout(layout: fresh, computed: false)
        }
        let result: ComputedLayout = try write { storage in
            // Another thread or process may have computed it meanwhile.
            if let fresh = try storage.layoutRecord(name: name, crossExtent: crossExtent, engineVersion: LayoutEngine.version),
               fresh.layout.state == .fresh {
                return ComputedLayout(layout: fresh.layout, computed: false)
            }
            guard let loaded = try loadSpec(name: name, storage: storage) else { throw StoreError.noSuchSpec(name: name) }
            let fingerprint = try SpecFingerprint(spec: loaded.spec)
            guard fingerprint.specHash == loaded.contentHash else {
                throw StoreError(.conflict,
                    "the items files of spec \"\(name)\" changed since it was saved; save the spec again to lay out the new items",
                    spec: name, crossExtent: crossExtent)
            }
            let id = try computeLayout(
                spec: loaded.spec, name: name, specID: loaded.id, fingerprint: fingerprint,
                crossExtent: crossExtent, storage: storage, progress: progress
            )
            guard let layout = try storage.layoutRecord(id: id, engineVersion: LayoutEngine.version) else {
                throw StoreError(.internal, "the layout of \"\(name)\" at \(JSONWriter.format(crossExtent)) vanished while it was written",
                                 spec: name, crossExtent: crossExtent)
            }
            return ComputedLayout(layout: layout.layout, computed: true)
        }
        if result.computed { backend.didWrite(cells: result.layout.cellCount) }
        return result
    }

    /// The fresh layout, from a read; nil when it must be computed. A spec
    /// that does not exist or an extent it cannot take is an error found on
    /// the read path, without waiting for a writer.
    func freshLayoutOrCheck(name: String, crossExtent: Double) throws -> StoredLayout? {
        try read { storage in
            if let record = try storage.layoutRecord(name: name, crossExtent: crossExtent, engineVersion: LayoutEngine.version),
               record.layout.state == .fresh {
                return record.layout
            }
            guard let spec = try storage.specSummaries(name: name).first else { throw StoreError.noSuchSpec(name: name) }
            try Self.checkCrossExtent(crossExtent, axis: spec.axis)
            return nil
        }
    }

    /// Lays out a stored spec at several extents, each computed only when
    /// missing or stale.
    @discardableResult
    public func precompute(
        name: String,
        crossExtents: [Double],
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) throws -> [ComputedLayout] {
        try crossExtents.map { try layout(name: name, crossExtent: $0, progress: progress) }
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
        storage: any StorageWriter,
        progress: (@Sendable (PrecomputeProgress) -> Void)?
    ) throws -> Int64 {
        let started = LayoutStore.monotonic()
        if let old = try storage.layoutID(specID: specID, crossExtent: crossExtent) {
            try storage.deleteLayout(id: old)
        }
        let layoutID = try storage.insertLayout(NewLayoutRow(
            specID: specID, crossExtent: crossExtent, engineVersion: LayoutEngine.version,
            specHash: fingerprint.specHash, createdAt: LayoutStore.timestamp()
        ))
        var writer = CellGroupWriter(storage: storage, layoutID: layoutID)
        if let progress {
            let expected = spec.sections.reduce(0 as Int?) { total, section in
                guard let total, let count = section.items.knownCount else { return nil }
                return total + count
            }
            var lastReport = 0
            writer.progress = { written in
                // Every 64k cells: often enough for a progress bar, rarely enough to cost nothing.
                guard written - lastReport >= 65_536 else { return }
                lastReport = written
                progress(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: written, cellsExpected: expected))
            }
        }
        let summary = try engine.run(spec, crossExtent: crossExtent, into: &writer)
        try storage.finishLayout(
            id: layoutID,
            LayoutTotals(
                contentLength: summary.contentLength, sectionCount: summary.sectionCount,
                cellCount: summary.cellCount, elementCount: summary.elementCount, overhang: writer.overhang
            ),
            computeSeconds: LayoutStore.monotonic() - started
        )
        progress?(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: summary.cellCount, cellsExpected: summary.cellCount))
        return layoutID
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
