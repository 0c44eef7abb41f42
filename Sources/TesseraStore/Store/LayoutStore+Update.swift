import TesseraLayout

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
        /// Sections of the old spec that are gone.
        public var removed = 0
        /// The whole layout was computed again (new axis, stale, or new width).
        public var fullRecompute = false
    }

    public var layouts: [Layout] = []
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
    @discardableResult
    public func update(name: String, with spec: Spec) throws -> UpdateReport {
        let stored = spec.resolvingItemFiles()
        let fingerprint = try SpecFingerprint(spec: stored)
        let report = try pool.write { connection in
            try applyUpdate(name: name, spec: stored, fingerprint: fingerprint, connection: connection)
        }
        return report
    }

    /// Appends `items` to section `section` of the spec stored under `name`
    /// and updates every stored layout of it in one transaction, going on
    /// from where each layout stopped: about the work of the new items.
    @discardableResult
    public func append(name: String, section: Int, items: [Item]) throws -> UpdateReport {
        try pool.write { connection in
            guard let old = try loadSpec(name: name, connection: connection) else { throw StoreError.noSuchSpec(name: name) }
            guard old.spec.sections.indices.contains(section) else {
                throw StoreError.invalidArgument("spec \"\(name)\" has no section \(section) (it has \(old.spec.sections.count))")
            }
            var spec = old.spec
            spec.sections[section].items = spec.sections[section].items.appending(items)
            let fingerprint = try SpecFingerprint(spec: spec)
            return try applyUpdate(name: name, spec: spec, fingerprint: fingerprint, connection: connection)
        }
    }

    /// The update, inside the caller's write transaction.
    func applyUpdate(name: String, spec: Spec, fingerprint: SpecFingerprint, connection: Connection) throws -> UpdateReport {
        guard let old = try loadSpec(name: name, connection: connection) else { throw StoreError.noSuchSpec(name: name) }
        // States are judged against the old content, before the spec row changes.
        let layouts = try Self.layouts(specID: old.id, connection: connection)
        let oldIdentities = try Self.sectionIdentities(specID: old.id, connection: connection)
        _ = try Self.upsertSpec(spec, name: name, fingerprint: fingerprint, connection: connection)
        var report = UpdateReport()
        for layout in layouts {
            if layout.state == .fresh, fingerprint.specHash == old.contentHash {
                // Nothing changed for this layout: no writes at all.
                var entry = UpdateReport.Layout(crossExtent: layout.crossExtent)
                entry.kept = spec.sections.count
                report.layouts.append(entry)
                continue
            }
            if layout.state == .stale || spec.axis != old.spec.axis {
                _ = try computeLayout(
                    spec: spec, name: name, specID: old.id, fingerprint: fingerprint,
                    crossExtent: layout.crossExtent, connection: connection, progress: nil
                )
                var entry = UpdateReport.Layout(crossExtent: layout.crossExtent)
                entry.fullRecompute = true
                entry.recomputed = spec.sections.count
                report.layouts.append(entry)
                continue
            }
            var updater = LayoutUpdater(
                engine: engine, connection: connection, layout: layout,
                oldSpec: old.spec, oldIdentities: oldIdentities, newSpec: spec, fingerprint: fingerprint
            )
            report.layouts.append(try updater.run())
        }
        return report
    }

    static func sectionIdentities(specID: Int64, connection: Connection) throws -> [(identity: String, hash: String)] {
        let query = try connection.cachedStatement(
            "SELECT identity, content_hash FROM spec_sections WHERE spec_id = ? ORDER BY section"
        )
        try query.bind(specID)
        var result: [(String, String)] = []
        while try query.step() { result.append((query.text(at: 0), query.text(at: 1))) }
        return result
    }
}
