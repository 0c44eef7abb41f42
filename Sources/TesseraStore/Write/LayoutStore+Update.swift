import TesseraLayout
import TesseraStoreFormat

/// What an update did to each stored layout of a spec.
public struct UpdateReport: Sendable, Hashable {
    /// One stored width.
    public struct Layout: Sendable, Hashable {
        public var crossExtent: Double
        /// Sections left exactly where they were.
        public var kept = 0
        /// Unchanged sections moved along the scroll axis or renumbered: one
        /// row each, their cells untouched.
        public var shifted = 0
        /// Sections that went on from their stored state with appended items.
        public var resumed = 0
        /// Sections laid out again.
        public var recomputed = 0
        /// Of those, sections whose stored placer state could not be read
        /// (another state version, or damaged): laid out again instead of
        /// going on from it.
        public var unreadableStates = 0
        /// Sections of the old spec that are gone.
        public var removed = 0
        /// The whole layout was computed again (new axis, stale, or new width).
        public var fullRecompute = false

        public init(crossExtent: Double) {
            self.crossExtent = crossExtent
        }

        /// A layout left as it was, all its `sections` kept.
        static func kept(crossExtent: Double, sections: Int) -> Layout {
            var entry = Layout(crossExtent: crossExtent)
            entry.kept = sections
            return entry
        }

        /// A layout computed again in full, all its `sections` recomputed.
        static func fullRecompute(crossExtent: Double, sections: Int) -> Layout {
            var entry = Layout(crossExtent: crossExtent)
            entry.fullRecompute = true
            entry.recomputed = sections
            return entry
        }
    }

    public var layouts: [Layout] = []

    public init(layouts: [Layout] = []) {
        self.layouts = layouts
    }
}

/// Incremental updates: a changed spec or appended items update every stored
/// layout of the spec in one transaction, laying out only what changed.
extension LayoutStore {
    /// Replaces the spec stored under `name` with `spec` and brings every
    /// stored layout of it up to date in the same transaction: sections
    /// before the first change are kept, unchanged sections after it are
    /// moved (one row each), sections whose items were only appended go on
    /// from their stored state, and only the others are laid out again. The
    /// result equals a full recompute of the new spec, frame for frame.
    /// `progress` hears of the layouts computed again in full (a new axis, a
    /// stale layout); it runs inside the write and must not write to the store.
    @discardableResult
    public func update(name: String, with spec: Spec, progress: (@Sendable (PrecomputeProgress) -> Void)? = nil) async throws -> UpdateReport {
        let name = try specName(name)
        return try await writeAsync { cancellation in
            let stored = spec.resolvingItemFiles()
            let (fingerprint, bodies) = try reportingSpecErrors(name: name) { try SpecFingerprint.withBodies(spec: stored) }
            return try await reportingSpecErrors(name: name) {
                try await write { storage in
                    try await applyUpdate(
                        name: name, spec: stored, fingerprint: fingerprint, bodies: bodies, storage: storage,
                        progress: progress, cancellation: cancellation
                    )
                }
            }
        }
    }


    /// The update, inside the caller's write.
    func applyUpdate(
        name: String,
        spec: Spec,
        fingerprint: SpecFingerprint,
        bodies: [String],
        storage: RowTransaction,
        progress: (@Sendable (PrecomputeProgress) -> Void)?,
        cancellation: CancellationFlag?
    ) async throws -> UpdateReport {
        guard let old = try await loadSpec(name: name, storage: storage) else { throw StoreError.noSuchSpec(name: name) }
        // States are judged against the old content, before the spec row changes.
        let layouts = try await storage.read { try $0.layoutRecords(specID: old.id, engineVersion: LayoutEngine.version) }.map(\.layout)
        let oldIdentities = try await storage.read { try $0.sectionIdentities(specID: old.id) }
        _ = try await writeSpec(spec, name: name, fingerprint: fingerprint, bodies: bodies, storage: storage, replacing: (old.id, oldIdentities))
        var report = UpdateReport()
        for layout in layouts {
            if layout.state == .fresh, fingerprint.specHash == old.contentHash {
                // Nothing changed for this layout: no writes at all.
                report.layouts.append(.kept(crossExtent: layout.crossExtent, sections: spec.sections.count))
                continue
            }
            if layout.state == .stale || spec.axis != old.spec.axis {
                _ = try await computeLayout(
                    spec: spec, name: name, specID: old.id, fingerprint: fingerprint,
                    crossExtent: layout.crossExtent, storage: storage, progress: progress, cancellation: cancellation
                )
                report.layouts.append(.fullRecompute(crossExtent: layout.crossExtent, sections: spec.sections.count))
                continue
            }
            var updater = LayoutUpdater(
                engine: engine, storage: storage, layout: layout, location: location, axis: spec.axis, sectionSpacing: spec.sectionSpacing,
                oldIdentities: oldIdentities, fingerprint: fingerprint,
                oldSection: { old.spec.sections[$0] }, newSection: { spec.sections[$0] },
                cancellation: cancellation
            )
            report.layouts.append(try await updater.run())
        }
        return report
    }
}
