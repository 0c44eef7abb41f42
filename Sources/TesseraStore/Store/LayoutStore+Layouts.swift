import TesseraLayout

/// Reading, listing, invalidating and pruning layouts.
extension LayoutStore {
    /// Every stored layout with its state, by spec name and extent.
    public func layouts() throws -> [StoredLayout] {
        try pool.read { connection in try Self.layouts(specID: nil, connection: connection) }
    }

    /// Marks layouts stale: the spec's layout at `crossExtent`, or all of its
    /// layouts. A stale layout is never served; the next query recomputes it.
    ///
    /// - Returns: the number of layouts marked.
    @discardableResult
    public func invalidate(name: String, crossExtent: Double? = nil) throws -> Int {
        try pool.write { connection in
            guard let specID = try Self.specID(name: name, connection: connection) else { throw StoreError.noSuchSpec(name: name) }
            let sql = crossExtent == nil
                ? "UPDATE layouts SET status = 'stale', updated_at = ? WHERE spec_id = ?"
                : "UPDATE layouts SET status = 'stale', updated_at = ? WHERE spec_id = ? AND cross_extent = ?"
            let update = try connection.cachedStatement(sql)
            try update.bind(LayoutStore.timestamp(), specID)
            if let crossExtent { try update.bind(crossExtent, at: 3) }
            try update.execute()
            return connection.changes
        }
    }

    /// Deletes the spec's layout at one extent, all of its rows, at once.
    /// Returns whether there was one.
    @discardableResult
    public func deleteLayout(name: String, crossExtent: Double) throws -> Bool {
        try pool.write { connection in
            guard let specID = try Self.specID(name: name, connection: connection) else { throw StoreError.noSuchSpec(name: name) }
            guard let id = try Self.layoutID(specID: specID, crossExtent: crossExtent, connection: connection) else { return false }
            try Self.deleteLayout(id: id, connection: connection)
            return true
        }
    }

    /// What ``prune()`` removed.
    public struct PruneReport: Sendable, Hashable {
        public var layoutsDeleted: Int
        public var bytesBefore: Int
        public var bytesAfter: Int
    }

    /// Deletes every stale layout and gives the freed space (theirs, and that
    /// of layouts replaced or updated before) back to the file system.
    @discardableResult
    public func prune() throws -> PruneReport {
        let before = Self.fileSize(path)
        let deleted = try pool.write { connection in
            var count = 0
            for layout in try Self.layouts(specID: nil, connection: connection) where layout.state == .stale {
                try Self.deleteLayout(id: layout.id, connection: connection)
                count += 1
            }
            return count
        }
        try pool.withoutHeldSnapshots {
            try pool.writeWithoutTransaction { connection in
                // Pages freed by these deletions or earlier replacements; none: nothing to rewrite.
                if try connection.scalarInt64("PRAGMA freelist_count") ?? 0 > 0 {
                    try connection.execute("VACUUM")
                }
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        return PruneReport(layoutsDeleted: deleted, bytesBefore: before, bytesAfter: Self.fileSize(path))
    }

    // MARK: - Rows

    private static let layoutColumns = """
        l.id, s.name, s.axis, l.cross_extent,
        l.status = 'ready' AND l.spec_hash = s.content_hash AND l.engine_version = ?,
        l.content_length, l.section_count, l.cell_count, l.element_count, l.engine_version, l.compute_seconds,
        l.overhang, l.revision
        FROM layouts AS l JOIN specs AS s ON s.id = l.spec_id
        """

    private static let resolveSQL = SQL("SELECT \(layoutColumns) WHERE s.name = ? AND l.cross_extent = ?")

    private static func layout(from query: Statement) -> StoredLayout {
        StoredLayout(
            id: query.int64(at: 0),
            specName: query.text(at: 1),
            axis: Axis(rawValue: query.text(at: 2)) ?? .vertical,
            crossExtent: query.double(at: 3),
            state: query.bool(at: 4) ? .fresh : .stale,
            contentLength: query.double(at: 5),
            sectionCount: query.int(at: 6),
            cellCount: query.int(at: 7),
            elementCount: query.int(at: 8),
            engineVersion: query.int(at: 9),
            computeSeconds: query.double(at: 10)
        )
    }

    /// The fresh layout of a spec at an extent, or nil when it is missing or stale.
    static func freshLayout(name: String, crossExtent: Double, connection: Connection) throws -> StoredLayout? {
        try resolvedLayout(name: name, crossExtent: crossExtent, connection: connection)?.layout
    }

    /// The fresh layout with what a reader needs besides: one statement, the
    /// first of every query.
    static func resolvedLayout(name: String, crossExtent: Double, connection: Connection) throws -> ResolvedLayout? {
        let query = try connection.cachedStatement(resolveSQL)
        try query.bind(LayoutEngine.version, name, crossExtent)
        guard try query.step() else { return nil }
        defer { query.reset() }
        let layout = layout(from: query)
        guard layout.state == .fresh else { return nil }
        return ResolvedLayout(layout: layout, overhang: query.double(at: 11), revision: query.int64(at: 12))
    }

    static func layout(id: Int64, connection: Connection) throws -> StoredLayout? {
        let query = try connection.cachedStatement("SELECT \(layoutColumns) WHERE l.id = ?")
        try query.bind(LayoutEngine.version, id)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return layout(from: query)
    }

    static func layouts(specID: Int64?, connection: Connection) throws -> [StoredLayout] {
        let query = try connection.cachedStatement(
            "SELECT \(layoutColumns) WHERE ?2 IS NULL OR l.spec_id = ?2 ORDER BY s.name, l.cross_extent"
        )
        try query.bind(LayoutEngine.version, specID)
        var result: [StoredLayout] = []
        while try query.step() { result.append(layout(from: query)) }
        return result
    }

    /// Bytes the store takes on disk: the file and its write-ahead log.
    public var fileBytes: Int { Self.fileSize(path) }

    static func fileSize(_ path: String) -> Int {
        var total = 0
        for suffix in ["", "-wal"] {
            var info = stat()
            if stat(path + suffix, &info) == 0 { total += Int(info.st_size) }
        }
        return total
    }
}

#if canImport(Glibc)
import Glibc
#endif
