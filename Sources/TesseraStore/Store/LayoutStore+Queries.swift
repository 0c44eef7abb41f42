import TesseraLayout

/// Rect queries answered from disk, computing the layout first when it is
/// missing or stale. Results equal the in-memory ``LayoutResult``'s, frame
/// for frame and in the same order.
extension LayoutStore {
    /// Every element that intersects `rect`.
    public func elements(name: String, crossExtent: Double, in rect: Rect) throws -> [LayoutElement] {
        try withFreshLayout(name: name, crossExtent: crossExtent) { reader in try reader.elements(in: rect, pinning: false) }
    }

    /// The elements visible in `viewport`, pinned headers and footers moved.
    public func visibleElements(name: String, crossExtent: Double, viewport: Rect) throws -> [LayoutElement] {
        try withFreshLayout(name: name, crossExtent: crossExtent) { reader in try reader.elements(in: viewport, pinning: true) }
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
                guard let layout = try Self.freshLayout(name: name, crossExtent: crossExtent, connection: connection) else { return nil }
                return try body(LayoutReader(layout: layout, connection: connection))
            }
            if let result { return result }
            try layout(name: name, crossExtent: crossExtent)
        }
        throw StoreError.invalidArgument("the layout of \"\(name)\" at \(crossExtent) keeps being replaced; try again")
    }
}

/// Queries on one stored layout, inside a read transaction.
struct LayoutReader {
    let layout: StoredLayout
    let connection: Connection

    func elements(in rect: Rect, pinning: Bool) throws -> [LayoutElement] {
        var result: [LayoutElement] = []
        let query = layout.axis.localFrame(rect)
        let overhang = try overhangMargin()
        let sections = try connection.cachedStatement("""
            SELECT \(SectionRow.columns) FROM layout_sections
            WHERE layout_id = ? AND end >= ? ORDER BY end, section
            """)
        try sections.bind(layout.id, query.scroll - overhang)
        var geometries: [SectionGeometry] = []
        while try sections.step() {
            let geometry = SectionRow.geometry(from: sections)
            // Section starts never decrease: past the rect, no later one meets it.
            if geometry.start > query.scrollEnd + overhang {
                sections.reset()
                break
            }
            if !geometry.isEmpty { geometries.append(geometry) }
        }
        for geometry in geometries {
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
                    try CellGroups.forEachCandidate(layoutID: layout.id, section: geometry.index, bounds: bounds, connection: connection, visit)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        return result
    }

    func cell(section: Int, item: Int) throws -> LayoutElement? {
        guard item >= 0, let geometry = try geometry(section: section), item < geometry.itemCount,
              let frame = try CellGroups.frame(layoutID: layout.id, section: section, item: item, connection: connection)
        else { return nil }
        return LayoutElement(kind: .cell, section: section, item: item, frame: layout.axis.screenRect(geometry.absolute(frame)))
    }

    func geometry(section: Int) throws -> SectionGeometry? {
        let query = try connection.cachedStatement(
            "SELECT \(SectionRow.columns) FROM layout_sections WHERE layout_id = ? AND section = ?"
        )
        try query.bind(layout.id, section)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return SectionRow.geometry(from: query)
    }

    private func overhangMargin() throws -> Double {
        let query = try connection.cachedStatement("SELECT overhang FROM layouts WHERE id = ?")
        try query.bind(layout.id)
        guard try query.step() else { return 0 }
        defer { query.reset() }
        return query.double(at: 0)
    }
}
