import TesseraLayout

/// Computing and persisting layouts.
extension LayoutStore {
    /// The layout of the spec stored under `name` at `crossExtent`, computed
    /// and persisted first when it is missing or stale.
    ///
    /// - Returns: the stored layout and whether this call computed it.
    @discardableResult
    public func layout(
        name: String,
        crossExtent: Double,
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) throws -> (layout: StoredLayout, computed: Bool) {
        if let fresh = try pool.read({ connection in try Self.freshLayout(name: name, crossExtent: crossExtent, connection: connection) }) {
            return (fresh, false)
        }
        let result: (layout: StoredLayout, computed: Bool) = try pool.write { connection in
            // Another thread or process may have computed it meanwhile.
            if let fresh = try Self.freshLayout(name: name, crossExtent: crossExtent, connection: connection) {
                return (fresh, false)
            }
            guard let loaded = try loadSpec(name: name, connection: connection) else { throw StoreError.noSuchSpec(name: name) }
            try LayoutEngine.checkCrossExtent(crossExtent, axis: loaded.spec.axis)
            let fingerprint = try SpecFingerprint(spec: loaded.spec)
            guard fingerprint.specHash == loaded.contentHash else {
                throw StoreError.invalidArgument(
                    "the items files of spec \"\(name)\" changed since it was saved; save the spec again to lay out the new items"
                )
            }
            let id = try computeLayout(
                spec: loaded.spec, name: name, specID: loaded.id, fingerprint: fingerprint,
                crossExtent: crossExtent, connection: connection, progress: progress
            )
            guard let layout = try Self.layout(id: id, connection: connection) else {
                throw StoreError.invalidArgument("the layout of \"\(name)\" at \(crossExtent) vanished while it was written")
            }
            return (layout, true)
        }
        if result.computed { checkpoint(afterWriting: result.layout.cellCount) }
        return result
    }

    /// Lays out a stored spec at several extents, each computed only when
    /// missing or stale.
    @discardableResult
    public func precompute(
        name: String,
        crossExtents: [Double],
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) throws -> [(layout: StoredLayout, computed: Bool)] {
        try crossExtents.map { try layout(name: name, crossExtent: $0, progress: progress) }
    }

    /// Replaces the layout of a spec at one extent inside the caller's write
    /// transaction: the old rows are deleted and the new ones written, so a
    /// reader sees either all of the old layout or all of the new one.
    func computeLayout(
        spec: Spec,
        name: String,
        specID: Int64,
        fingerprint: SpecFingerprint,
        crossExtent: Double,
        connection: Connection,
        progress: (@Sendable (PrecomputeProgress) -> Void)?
    ) throws -> Int64 {
        let started = LayoutStore.monotonic()
        if let old = try Self.layoutID(specID: specID, crossExtent: crossExtent, connection: connection) {
            try Self.deleteLayout(id: old, connection: connection)
        }
        let now = LayoutStore.timestamp()
        let insert = try connection.cachedStatement("""
            INSERT INTO layouts (spec_id, cross_extent, engine_version, spec_hash, content_length, section_count,
                                 cell_count, element_count, status, created_at, updated_at)
            VALUES (?, ?, ?, ?, 0, 0, 0, 0, 'ready', ?, ?)
            """)
        try insert.bind(specID, crossExtent, LayoutEngine.version, fingerprint.specHash, now, now)
        try insert.execute()
        let layoutID = connection.lastInsertRowID
        var writer = CellGroupWriter(connection: connection, layoutID: layoutID)
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
        let update = try connection.cachedStatement("""
            UPDATE layouts SET content_length = ?, section_count = ?, cell_count = ?, element_count = ?,
                               overhang = ?, compute_seconds = ? WHERE id = ?
            """)
        try update.bind(summary.contentLength, summary.sectionCount, summary.cellCount, summary.elementCount)
        try update.bind(writer.overhang, at: 5)
        try update.bind(LayoutStore.monotonic() - started, at: 6)
        try update.bind(layoutID, at: 7)
        try update.execute()
        progress?(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: summary.cellCount, cellsExpected: summary.cellCount))
        return layoutID
    }

    static func layoutID(specID: Int64, crossExtent: Double, connection: Connection) throws -> Int64? {
        let query = try connection.cachedStatement("SELECT id FROM layouts WHERE spec_id = ? AND cross_extent = ?")
        try query.bind(specID, crossExtent)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.int64(at: 0)
    }

    /// Deletes a layout and everything stored for it.
    static func deleteLayout(id: Int64, connection: Connection) throws {
        try CellGroups.delete(layoutID: id, connection: connection)
        let sections = try connection.cachedStatement("DELETE FROM layout_sections WHERE layout_id = ?")
        try sections.bind(id)
        try sections.execute()
        let layout = try connection.cachedStatement("DELETE FROM layouts WHERE id = ?")
        try layout.bind(id)
        try layout.execute()
    }
}
