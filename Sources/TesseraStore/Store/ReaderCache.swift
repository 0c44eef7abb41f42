import TesseraLayout

/// What a reader connection remembers between queries, so that a warm query
/// runs no SQL but the reads of its cell groups.
///
/// - Resolved layouts (name and extent to layout id, revision, freshness),
///   valid while `PRAGMA data_version` is unchanged: SQLite changes it for
///   this connection whenever any other connection commits.
/// - Recently read layouts' sections and groups, keyed by layout id and
///   revision, both read in the query's own snapshot, so an entry is never
///   older than what the query sees: layout ids are never reused
///   (AUTOINCREMENT) and every change in place bumps the revision.
final class ReaderCache {
    private static let maximumLayouts = 4
    private static let maximumResolved = 64
    private static let dataVersionSQL = SQL("PRAGMA data_version")

    private struct ResolvedKey: Hashable {
        var name: String
        var crossExtent: Double
    }

    private var entries: [(id: Int64, revision: Int64, layout: CachedLayout)] = []
    private var resolved: [ResolvedKey: ResolvedLayout] = [:]
    private var resolvedVersion: Int64?

    static func of(_ connection: Connection) -> ReaderCache {
        if let cache = connection.attachment as? ReaderCache { return cache }
        let cache = ReaderCache()
        connection.attachment = cache
        return cache
    }

    /// The fresh layout of a spec at an extent, or nil when it is missing or
    /// stale. Call it inside the read transaction of the query.
    func resolvedLayout(name: String, crossExtent: Double, connection: Connection) throws -> ResolvedLayout? {
        // The version of the transaction's snapshot: it changes whenever
        // another connection committed before the snapshot began.
        let pragma = try connection.cachedStatement(Self.dataVersionSQL)
        guard try pragma.step() else { throw StoreError.invalidArgument("PRAGMA data_version returned no row") }
        let version = pragma.int64(at: 0)
        pragma.reset()
        if version != resolvedVersion {
            resolved.removeAll(keepingCapacity: true)
            resolvedVersion = version
        }
        let key = ResolvedKey(name: name, crossExtent: crossExtent)
        if let layout = resolved[key] { return layout }
        guard let layout = try LayoutStore.resolvedLayout(name: name, crossExtent: crossExtent, connection: connection) else {
            return nil
        }
        if resolved.count >= Self.maximumResolved { resolved.removeAll(keepingCapacity: true) }
        resolved[key] = layout
        return layout
    }

    func layout(_ layout: ResolvedLayout, connection: Connection) throws -> CachedLayout {
        if let entry = entries.first(where: { $0.id == layout.layout.id && $0.revision == layout.revision }) {
            return entry.layout
        }
        let sectionRows = try connection.cachedStatement(
            "SELECT \(SectionRow.columns) FROM layout_sections WHERE layout_id = ? ORDER BY section"
        )
        try sectionRows.bind(layout.layout.id)
        var sections: [SectionGeometry] = []
        var sectionOfSlot: [Int: Int] = [:]
        sections.reserveCapacity(layout.layout.sectionCount)
        while try sectionRows.step() {
            let geometry = SectionRow.geometry(from: sectionRows)
            sectionOfSlot[SectionRow.slot(from: sectionRows)] = geometry.index
            sections.append(geometry)
        }
        var groups = [SectionGroups](repeating: SectionGroups(), count: sections.count)
        let groupRows = try connection.cachedStatement("""
            SELECT slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll
            FROM cell_group_directory WHERE layout_id = ? ORDER BY slot, first_item
            """)
        try groupRows.bind(layout.layout.id)
        while try groupRows.step() {
            guard let section = sectionOfSlot[groupRows.int(at: 0)], groups.indices.contains(section) else { continue }
            groups[section].firstItems.append(groupRows.int(at: 1))
            groups[section].ids.append(groupRows.int64(at: 2))
            groups[section].bounds.append(QueryBounds(
                minCross: groupRows.double(at: 3), maxCross: groupRows.double(at: 4),
                minScroll: groupRows.double(at: 5), maxScroll: groupRows.double(at: 6)
            ))
        }
        for index in groups.indices { groups[index].finish() }
        let cached = CachedLayout(sections: sections, groups: groups)
        entries.removeAll { $0.id == layout.layout.id }
        if entries.count >= Self.maximumLayouts { entries.removeFirst() }
        entries.append((layout.layout.id, layout.revision, cached))
        return cached
    }
}
