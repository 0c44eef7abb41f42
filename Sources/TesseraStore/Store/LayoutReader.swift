import TesseraLayout

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
        return try ReaderCache.of(connection).layout(resolved, connection: connection)
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
