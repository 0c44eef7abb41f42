import TesseraLayout

/// A layout's sections and cell groups, as a reader connection caches them.
struct CachedLayout {
    var sections: [SectionGeometry]
    /// Per section, its groups in item order.
    var groups: [SectionGroups]

    /// The non-empty sections whose scroll range meets [low, high], in order.
    func sections(from low: Double, through high: Double) -> [SectionGeometry] {
        // Section ends never decrease: binary search for the first one that
        // reaches `low`, then walk until a start passes `high`.
        var lower = 0
        var upper = sections.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if sections[middle].end < low { lower = middle + 1 } else { upper = middle }
        }
        var result: [SectionGeometry] = []
        var index = lower
        while index < sections.count, sections[index].start <= high {
            if !sections[index].isEmpty { result.append(sections[index]) }
            index += 1
        }
        return result
    }
}

/// The cell groups of one section: first items, ids and exact bounds, with
/// a bounds index when there are many.
struct SectionGroups {
    var firstItems: [Int] = []
    var ids: [Int64] = []
    var bounds: [QueryBounds] = []
    var index: FrameIndex?

    mutating func finish() {
        if bounds.count > 64 { index = FrameIndex(bounds: bounds) }
    }

    func forEachCandidate(in query: QueryBounds, _ body: ((id: Int64, firstItem: Int)) -> Void) {
        func visit(_ position: Int) {
            let group = bounds[position]
            if group.minCross <= query.maxCross, group.maxCross >= query.minCross,
               group.minScroll <= query.maxScroll, group.maxScroll >= query.minScroll {
                body((ids[position], firstItems[position]))
            }
        }
        if let index {
            index.forEachCandidate(in: query, frameCount: bounds.count, visit)
        } else {
            for position in bounds.indices { visit(position) }
        }
    }
}

/// Recently read layouts, kept per reader connection, so that a query needs
/// no SQL to find its sections and groups. Entries are keyed by layout id and
/// revision, both read inside the query's own transaction, so an entry is
/// never older than what the query sees: layout ids are never reused
/// (AUTOINCREMENT) and every change in place bumps the revision.
final class SectionCache {
    private static let maximumLayouts = 4

    private var entries: [(id: Int64, revision: Int64, layout: CachedLayout)] = []

    static func of(_ connection: Connection) -> SectionCache {
        if let cache = connection.attachment as? SectionCache { return cache }
        let cache = SectionCache()
        connection.attachment = cache
        return cache
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
