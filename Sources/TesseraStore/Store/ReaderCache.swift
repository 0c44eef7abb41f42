import TesseraLayout

/// What a reader remembers between queries, so that a warm query reads
/// nothing but its cell groups.
///
/// - Resolved layouts (name and extent to layout id, revision, freshness),
///   valid while the backend's change counter is unchanged: it changes
///   whenever another connection commits.
/// - Recently read layouts' sections and groups, keyed by layout id and
///   revision, both read in the query's own snapshot, so an entry is never
///   older than what the query sees: layout ids are never reused and every
///   change in place bumps the revision.
final class ReaderCache {
    private static let maximumLayouts = 4
    private static let maximumResolved = 64

    private struct ResolvedKey: Hashable {
        var name: String
        var crossExtent: Double
    }

    private var entries: [(id: Int64, revision: Int64, layout: CachedLayout)] = []
    private var resolved: [ResolvedKey: LayoutRecord] = [:]
    private var resolvedVersion: Int64?

    static func of(_ storage: any StorageReader) -> ReaderCache {
        if let cache = storage.attachment as? ReaderCache { return cache }
        let cache = ReaderCache()
        storage.attachment = cache
        return cache
    }

    /// The fresh layout of a spec at an extent, or nil when it is missing or
    /// stale. Call it inside the read of the query.
    func freshLayout(name: String, crossExtent: Double, storage: any StorageReader) throws -> LayoutRecord? {
        // Changes whenever another connection committed before the snapshot began.
        let version = try storage.changeCounter()
        if version != resolvedVersion {
            resolved.removeAll(keepingCapacity: true)
            resolvedVersion = version
        }
        let key = ResolvedKey(name: name, crossExtent: crossExtent)
        if let layout = resolved[key] { return layout }
        guard let layout = try storage.layoutRecord(name: name, crossExtent: crossExtent, engineVersion: LayoutEngine.version),
              layout.layout.state == .fresh
        else { return nil }
        if resolved.count >= Self.maximumResolved { resolved.removeAll(keepingCapacity: true) }
        resolved[key] = layout
        return layout
    }

    func layout(_ record: LayoutRecord, storage: any StorageReader) throws -> CachedLayout {
        let id = record.layout.id
        if let entry = entries.first(where: { $0.id == id && $0.revision == record.revision }) {
            return entry.layout
        }
        let sections = try storage.sections(layoutID: id)
        var sectionOfSlot: [Int: Int] = [:]
        for section in sections { sectionOfSlot[section.slot] = section.geometry.index }
        var groups = [SectionGroups](repeating: SectionGroups(), count: sections.count)
        try storage.forEachGroup(layoutID: id) { group in
            guard let section = sectionOfSlot[group.slot], groups.indices.contains(section) else { return }
            groups[section].firstItems.append(group.firstItem)
            groups[section].ids.append(group.id)
            groups[section].bounds.append(group.bounds)
        }
        for index in groups.indices { groups[index].finish() }
        let cached = CachedLayout(sections: sections, groups: groups)
        entries.removeAll { $0.id == id }
        if entries.count >= Self.maximumLayouts { entries.removeFirst() }
        entries.append((id, record.revision, cached))
        return cached
    }
}
