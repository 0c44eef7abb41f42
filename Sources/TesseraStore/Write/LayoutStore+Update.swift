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
            return try await write(naming: name) { storage in
                try await applyUpdate(
                    name: name, spec: stored, fingerprint: fingerprint, bodies: bodies, storage: storage,
                    progress: progress, cancellation: cancellation
                )
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
        guard let old = try await storage.read({ try loadSpec(name: name, storage: $0) }) else { throw StoreError.noSuchSpec(name: name) }
        // States are judged against the old content, before the spec row changes.
        let layouts = try await storage.read { try $0.layoutRecords(specID: old.id) }
        let oldIdentities = try await storage.read { try $0.sections(specID: old.id).map(\.sectionIdentity) }
        _ = try await writeSpec(spec, name: name, fingerprint: fingerprint, bodies: bodies, storage: storage, replacing: (old.id, oldIdentities))
        return try await updateLayouts(
            layouts, name: name, specID: old.id, header: spec, oldIdentities: oldIdentities, fingerprint: fingerprint, storage: storage,
            progress: progress, cancellation: cancellation, unchanged: fingerprint.specHash == old.contentHash,
            recomputeAll: spec.axis != old.spec.axis, wholeSpec: { spec }, oldSection: { old.spec.sections[$0] }, newSection: { spec.sections[$0] }
        )
    }

    /// Brings each of `layouts` (a spec's, read before this write changed its rows) up to date with `fingerprint`,
    /// inside the caller's write: kept, computed again from `wholeSpec()`, or updated by a ``LayoutUpdater``.
    func updateLayouts(
        _ layouts: [LayoutRecord], name: String, specID: Int64, header: Spec, oldIdentities: [SectionIdentity], fingerprint: SpecFingerprint,
        storage: RowTransaction, progress: (@Sendable (PrecomputeProgress) -> Void)?, cancellation: CancellationFlag?,
        unchanged: Bool = false, recomputeAll: Bool = false, wholeSpec: () async throws -> Spec,
        oldSection: @escaping (Int) async throws -> Section, newSection: @escaping (Int) async throws -> Section,
        configure: (inout LayoutUpdater) -> Void = { _ in }
    ) async throws -> UpdateReport {
        var report = UpdateReport()
        let sections = fingerprint.sectionIdentities.count
        // Read once, by the first layout computed again in full.
        var whole: Spec?
        for record in layouts {
            let extent = record.layout.crossExtent
            if record.layout.state == .fresh, unchanged {
                report.layouts.append(.kept(crossExtent: extent, sections: sections))
            } else if record.layout.state == .stale || recomputeAll {
                let spec = if let whole { whole } else { try await wholeSpec() }
                whole = spec
                try await storeLayout(
                    spec, name: name, specID: specID, fingerprint: fingerprint, crossExtent: extent, storage: storage,
                    progress: progress, cancellation: cancellation
                )
                report.layouts.append(.fullRecompute(crossExtent: extent, sections: sections))
            } else {
                var updater = LayoutUpdater(
                    store: self, storage: storage, record: record, header: header, oldIdentities: oldIdentities, fingerprint: fingerprint,
                    oldSection: oldSection, newSection: newSection, cancellation: cancellation
                )
                configure(&updater)
                report.layouts.append(try await updater.run())
            }
        }
        return report
    }
}
