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
    /// `progress` hears of the layouts computed again in full (a new axis, a
    /// stale layout); it runs inside the write and must not write to the store.
    @discardableResult
    public func update(
        name: String,
        with spec: Spec,
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) throws -> UpdateReport {
        let stored = spec.resolvingItemFiles()
        let fingerprint = try SpecFingerprint(spec: stored)
        let report = try pool.write { connection in
            try applyUpdate(name: name, spec: stored, fingerprint: fingerprint, connection: connection, progress: progress)
        }
        return report
    }

    /// Appends `items` to section `section` of the spec stored under `name`
    /// and updates every stored layout of it in one transaction, going on
    /// from where each layout stopped: about the work of the new items. Only
    /// the changed section of the stored spec is read and written.
    @discardableResult
    public func append(name: String, section: Int, items: [Item]) throws -> UpdateReport {
        try pool.write { connection in
            guard let row = try Self.specRow(name: name, connection: connection) else { throw StoreError.noSuchSpec(name: name) }
            guard case .object(var headerObject) = row.header else {
                throw StoreError.invalidArgument("the stored spec \"\(name)\" is damaged: its header is not an object")
            }
            headerObject["sections"] = .array([])
            let header = try Spec(json: .object(headerObject), registry: registry)
            let previous = try Self.sectionIdentities(specID: row.id, connection: connection)
            guard previous.indices.contains(section) else {
                throw StoreError.invalidArgument("spec \"\(name)\" has no section \(section) (it has \(previous.count))")
            }
            // States are judged against the old content, before the spec rows change.
            let layouts = try Self.layouts(specID: row.id, connection: connection)
            let old = try storedSection(specID: row.id, index: section, name: name, connection: connection)
            var changed = old
            changed.items = old.items.appending(items)
            var hashes = previous.map(\.hash)
            hashes[section] = try SpecFingerprint.hash(changed, index: section, axis: header.axis)
            let fingerprint = SpecFingerprint(
                axis: header.axis, sectionSpacing: header.sectionSpacing,
                sectionHashes: hashes, sectionIdentities: previous.map(\.identity)
            )
            let write = try connection.cachedStatement(
                "UPDATE spec_sections SET content_hash = ?, body = ? WHERE spec_id = ? AND section = ?"
            )
            try write.bind(hashes[section], JSONWriter.canonical(changed.jsonValue), row.id, section)
            try write.execute()
            let touch = try connection.cachedStatement("UPDATE specs SET content_hash = ?, updated_at = ? WHERE id = ?")
            try touch.bind(fingerprint.specHash, LayoutStore.timestamp(), row.id)
            try touch.execute()

            var report = UpdateReport()
            for layout in layouts {
                guard layout.state == .fresh else {
                    guard let spec = try loadSpec(name: name, connection: connection)?.spec else { throw StoreError.noSuchSpec(name: name) }
                    _ = try computeLayout(
                        spec: spec, name: name, specID: row.id, fingerprint: fingerprint,
                        crossExtent: layout.crossExtent, connection: connection, progress: nil
                    )
                    var entry = UpdateReport.Layout(crossExtent: layout.crossExtent)
                    entry.fullRecompute = true
                    entry.recomputed = previous.count
                    report.layouts.append(entry)
                    continue
                }
                var updater = LayoutUpdater(
                    engine: engine, connection: connection, layout: layout, axis: header.axis, sectionSpacing: header.sectionSpacing,
                    oldIdentities: previous, fingerprint: fingerprint,
                    oldSection: { index in
                        index == section ? old : try self.storedSection(specID: row.id, index: index, name: name, connection: connection)
                    },
                    newSection: { index in
                        index == section ? changed : try self.storedSection(specID: row.id, index: index, name: name, connection: connection)
                    }
                )
                report.layouts.append(try updater.run())
            }
            return report
        }
    }

    /// Section `index` of a stored spec, read on its own.
    func storedSection(specID: Int64, index: Int, name: String, connection: Connection) throws -> Section {
        let query = try connection.cachedStatement("SELECT body FROM spec_sections WHERE spec_id = ? AND section = ?")
        try query.bind(specID, index)
        guard try query.step() else { throw StoreError.invalidArgument("the stored spec \"\(name)\" has no section \(index)") }
        let body = query.text(at: 0)
        query.reset()
        do {
            return try Section(json: try Self.parseStored(body, name: name), index: index, registry: registry)
        } catch let error as SpecError {
            throw StoreError.invalidArgument("the stored spec \"\(name)\" cannot be read by this program: \(error)")
        }
    }

    /// The update, inside the caller's write transaction.
    func applyUpdate(
        name: String,
        spec: Spec,
        fingerprint: SpecFingerprint,
        connection: Connection,
        progress: (@Sendable (PrecomputeProgress) -> Void)?
    ) throws -> UpdateReport {
        guard let old = try loadSpec(name: name, connection: connection) else { throw StoreError.noSuchSpec(name: name) }
        // States are judged against the old content, before the spec row changes.
        let layouts = try Self.layouts(specID: old.id, connection: connection)
        let oldIdentities = try Self.sectionIdentities(specID: old.id, connection: connection)
        _ = try Self.upsertSpec(spec, name: name, fingerprint: fingerprint, connection: connection, previous: oldIdentities)
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
                    crossExtent: layout.crossExtent, connection: connection, progress: progress
                )
                var entry = UpdateReport.Layout(crossExtent: layout.crossExtent)
                entry.fullRecompute = true
                entry.recomputed = spec.sections.count
                report.layouts.append(entry)
                continue
            }
            var updater = LayoutUpdater(
                engine: engine, connection: connection, layout: layout, axis: spec.axis, sectionSpacing: spec.sectionSpacing,
                oldIdentities: oldIdentities, fingerprint: fingerprint,
                oldSection: { old.spec.sections[$0] }, newSection: { spec.sections[$0] }
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
