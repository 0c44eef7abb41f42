/// A computed layout held in memory: every element's frame, the content
/// size, rect queries and pinned headers.
///
/// Cells are kept per section as 32-byte frames relative to the section's
/// items origin, plus a small bounds index; headers, footers and backgrounds
/// are derived from the section geometry.
public struct LayoutResult: Sendable {
    /// The spec's scroll axis.
    public let axis: Axis
    /// The container's cross extent the layout was computed for.
    public let crossExtent: Double
    /// The layout's totals.
    public let summary: LayoutSummary
    /// Every section, empty ones included, in spec order.
    public let sections: [SectionGeometry]
    let cells: [[LocalFrame]]
    let indexes: [FrameIndex]
    /// How far cells reach outside their section's [start, end] along the
    /// scroll axis; widens the section search of rect queries.
    let overhang: Double

    init(summary: LayoutSummary, sections: [SectionGeometry], cells: [[LocalFrame]]) {
        self.axis = summary.axis
        self.crossExtent = summary.crossExtent
        self.summary = summary
        self.sections = sections
        self.cells = cells
        self.indexes = cells.map(FrameIndex.init(frames:))
        self.overhang = sections.reduce(0) { max($0, $1.overhang) }
    }

    /// The on-screen content size.
    public var contentSize: Size { summary.contentSize }

    /// The number of elements: cells, headers, footers and backgrounds.
    public var elementCount: Int { summary.elementCount }

    /// Every element: per section its header, its cells in item order, its
    /// footer and its background.
    public var elements: [LayoutElement] {
        var result: [LayoutElement] = []
        result.reserveCapacity(elementCount)
        for section in sections { appendElements(of: section, to: &result) }
        return result
    }

    /// The elements of one section, in the order of ``elements``.
    public func elements(ofSection index: Int) -> [LayoutElement] {
        guard sections.indices.contains(index) else { return [] }
        var result: [LayoutElement] = []
        appendElements(of: sections[index], to: &result)
        return result
    }

    private func appendElements(of section: SectionGeometry, to result: inout [LayoutElement]) {
        guard !section.isEmpty else { return }
        if let header = supplementary(.header, of: section) { result.append(header) }
        for item in cells[section.index].indices { result.append(cell(section: section, item: item)) }
        if let footer = supplementary(.footer, of: section) { result.append(footer) }
        if let background = supplementary(.background, of: section) { result.append(background) }
    }

    /// The cell of an item, or nil when there is no such item.
    public func element(section: Int, item: Int) -> LayoutElement? {
        guard sections.indices.contains(section), cells[section].indices.contains(item) else { return nil }
        return cell(section: sections[section], item: item)
    }

    /// A section's header, footer or background, unpinned.
    public func supplementary(_ kind: LayoutElement.Kind, section: Int) -> LayoutElement? {
        guard sections.indices.contains(section) else { return nil }
        return supplementary(kind, of: sections[section])
    }

    func cell(section: SectionGeometry, item: Int) -> LayoutElement {
        let frame = section.absolute(cells[section.index][item])
        return LayoutElement(kind: .cell, section: section.index, item: item, frame: axis.screenRect(frame))
    }

    func supplementary(_ kind: LayoutElement.Kind, of section: SectionGeometry) -> LayoutElement? {
        SectionQuery(section: section, axis: axis, crossExtent: crossExtent).supplementary(kind)
    }
}

extension LayoutResult {
    /// Bytes held by the layout's storage (frames, index, section
    /// geometry), for memory budgets; excludes the fixed size of the value.
    public var storageBytes: Int {
        var bytes = sections.capacity * MemoryLayout<SectionGeometry>.stride
        for (frames, index) in zip(cells, indexes) {
            bytes += frames.capacity * MemoryLayout<LocalFrame>.stride + index.byteCount
        }
        return bytes
    }
}
