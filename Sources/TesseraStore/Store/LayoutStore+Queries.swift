import TesseraLayout

/// Rect queries answered from disk, computing the layout first when it is
/// missing or stale. Results equal the in-memory ``LayoutResult``'s, frame
/// for frame and in the same order.
extension LayoutStore {
    /// Every element that intersects `rect`.
    public func elements(name: String, crossExtent: Double, in rect: Rect) throws -> [LayoutElement] {
        try query(name: name, crossExtent: crossExtent, rect: rect, pinning: false)
    }

    /// The elements visible in `viewport`, pinned headers and footers moved.
    public func visibleElements(name: String, crossExtent: Double, viewport: Rect) throws -> [LayoutElement] {
        try query(name: name, crossExtent: crossExtent, rect: viewport, pinning: true)
    }

    private func query(name: String, crossExtent: Double, rect: Rect, pinning: Bool) throws -> [LayoutElement] {
        try withFreshLayout(name: name, crossExtent: crossExtent) { reader in try reader.elements(in: rect, pinning: pinning) }
    }

    /// The cell of one item, or nil when there is no such item.
    public func element(name: String, crossExtent: Double, section: Int, item: Int) throws -> LayoutElement? {
        try withFreshLayout(name: name, crossExtent: crossExtent) { reader in try reader.cell(section: section, item: item) }
    }

    /// The on-screen content size.
    public func contentSize(name: String, crossExtent: Double) throws -> Size {
        try layout(name: name, crossExtent: crossExtent).layout.contentSize
    }

    /// Runs `body` in one read transaction on the fresh layout, computing it
    /// first when needed. If a writer replaces the layout between the check
    /// and the read, the read is tried again.
    func withFreshLayout<T>(name: String, crossExtent: Double, _ body: (LayoutReader) throws -> T) throws -> T {
        for _ in 0..<3 {
            let result: T? = try pool.read { connection in
                guard let resolved = try Self.resolvedLayout(name: name, crossExtent: crossExtent, connection: connection) else { return nil }
                return try body(LayoutReader(resolved: resolved, connection: connection, cacheLimit: readerCacheLimit))
            }
            if let result { return result }
            try layout(name: name, crossExtent: crossExtent)
        }
        throw StoreError.invalidArgument("the layout of \"\(name)\" at \(crossExtent) keeps being replaced; try again")
    }
}

/// A fresh layout as a reader resolves it.
struct ResolvedLayout {
    var layout: StoredLayout
    /// How far cells reach outside their section along the scroll axis.
    var overhang: Double
    /// Changes with every change to the layout's rows, for readers' caches.
    var revision: Int64
}

/// Queries on one stored layout, inside a read transaction.
struct LayoutReader {
    let resolved: ResolvedLayout
    let connection: Connection
    /// The largest layout (sections + cell groups) a connection caches.
    let cacheLimit: Int

    var layout: StoredLayout { resolved.layout }

    func elements(in rect: Rect, pinning: Bool) throws -> [LayoutElement] {
        var result: [LayoutElement] = []
        result.reserveCapacity(64)
        let query = layout.axis.localFrame(rect)
        let low = query.scroll - resolved.overhang
        let high = query.scrollEnd + resolved.overhang
        let cache = try cached()
        for geometry in try sections(from: low, through: high, cache: cache) {
            let sectionQuery = SectionQuery(section: geometry, axis: layout.axis, crossExtent: layout.crossExtent)
            var header = sectionQuery.supplementary(.header)
            var footer = sectionQuery.supplementary(.footer)
            if pinning {
                let pinned = PinnedSupplementaries(section: geometry, axis: layout.axis, crossExtent: layout.crossExtent, viewport: rect)
                header = pinned.header ?? header
                footer = pinned.footer ?? footer
            }
            var failure: Error?
            sectionQuery.appendElements(in: rect, header: header, footer: footer, to: &result) { bounds, visit in
                do {
                    try forEachCandidate(section: geometry, bounds: bounds, cache: cache, visit)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        return result
    }

    /// Whether the layout is small enough for a connection to cache.
    var isCacheable: Bool {
        let groups = layout.cellCount / CellGroupWriter.groupSize + layout.sectionCount
        return layout.sectionCount + groups <= cacheLimit
    }

    /// The layout's sections and cell groups as this connection caches
    /// them, or nil for a layout too large to cache.
    private func cached() throws -> CachedLayout? {
        guard isCacheable else { return nil }
        return try SectionCache.of(connection).layout(resolved, connection: connection)
    }

    /// Appends the cells of one section that may meet `bounds`, in item order.
    private func forEachCandidate(section: SectionGeometry, bounds: QueryBounds, cache: CachedLayout?, _ visit: (Int, LocalFrame) -> Void) throws {
        guard let cache else {
            try CellGroups.forEachCandidateFromIndex(layoutID: layout.id, slot: try slot(of: section.index), bounds: bounds, connection: connection, visit)
            return
        }
        let groups = cache.groups[section.index]
        var failure: Error?
        groups.forEachCandidate(in: bounds) { group in
            guard failure == nil else { return }
            do {
                try CellGroups.forEachFrame(groupID: group.id, firstItem: group.firstItem, bounds: bounds, connection: connection, visit)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The non-empty sections whose scroll range meets [low, high], in order:
    /// from this connection's cache when the layout is small enough, else
    /// from the section index.
    private func sections(from low: Double, through high: Double, cache: CachedLayout?) throws -> [SectionGeometry] {
        if let cache { return cache.sections(from: low, through: high) }
        let statement = try connection.cachedStatement("""
            SELECT \(SectionRow.columns) FROM layout_sections
            WHERE layout_id = ? AND end >= ? ORDER BY end, section
            """)
        try statement.bind(layout.id, low)
        var result: [SectionGeometry] = []
        while try statement.step() {
            let geometry = SectionRow.geometry(from: statement)
            // Section starts never decrease: past the rect, no later one meets it.
            if geometry.start > high {
                statement.reset()
                break
            }
            if !geometry.isEmpty { result.append(geometry) }
        }
        return result
    }

    func cell(section: Int, item: Int) throws -> LayoutElement? {
        guard item >= 0, let (geometry, slot) = try row(section: section), item < geometry.itemCount,
              let frame = try CellGroups.frame(layoutID: layout.id, slot: slot, item: item, connection: connection)
        else { return nil }
        return LayoutElement(kind: .cell, section: section, item: item, frame: layout.axis.screenRect(geometry.absolute(frame)))
    }

    func row(section: Int) throws -> (SectionGeometry, Int)? {
        let query = try connection.cachedStatement(
            "SELECT \(SectionRow.columns) FROM layout_sections WHERE layout_id = ? AND section = ?"
        )
        try query.bind(layout.id, section)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return (SectionRow.geometry(from: query), SectionRow.slot(from: query))
    }

    private func slot(of section: Int) throws -> Int {
        guard let (_, slot) = try row(section: section) else {
            throw StoreError.invalidArgument("the layout of \"\(layout.specName)\" has no section \(section)")
        }
        return slot
    }
}

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
