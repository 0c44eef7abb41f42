import TesseraLayout

/// Rect queries answered from storage, computing the layout first when it is
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

    /// Runs `body` on the fresh layout, all of it read from one snapshot,
    /// computing the layout first when needed. If a writer replaces the
    /// layout between the check and the read, the read is tried again.
    func withFreshLayout<T>(name: String, crossExtent: Double, _ body: (LayoutReader) throws -> T) throws -> T {
        for _ in 0..<3 {
            let result: T? = try read { storage in
                guard let resolved = try ReaderCache.of(storage).freshLayout(name: name, crossExtent: crossExtent, storage: storage) else {
                    return nil
                }
                return try body(LayoutReader(record: resolved, storage: storage, cacheLimit: readerCacheLimit))
            }
            if let result { return result }
            try layout(name: name, crossExtent: crossExtent)
        }
        throw StoreError(.conflict, "the layout of \"\(name)\" at \(JSONWriter.format(crossExtent)) keeps being replaced; try again",
                         spec: name, crossExtent: crossExtent)
    }
}
