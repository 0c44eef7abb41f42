/// Receives a layout while it is computed, section by section and in chunks
/// of cells, so that a feed of millions of items is never held whole.
public protocol LayoutConsumer {
    /// A section begins; `origin` is where its items origin will be if the
    /// section turns out not to be empty (an empty one has no cells).
    mutating func beginSection(_ index: Int, origin: SectionOrigin) throws

    /// Cell frames relative to the items origin, in the order the kind wrote them.
    mutating func consumeCells(_ frames: [PlacedFrame], section: Int, origin: SectionOrigin) throws

    /// The section is complete. `placer` holds the layout state after the
    /// section's last item, before its pending frames were written.
    mutating func endSection(_ geometry: SectionGeometry, placer: any ItemPlacer) throws
}

/// The items origin of a section, in absolute (cross, scroll) coordinates.
public struct SectionOrigin: Sendable, Hashable {
    public var cross: Double
    public var scroll: Double

    public init(cross: Double, scroll: Double) {
        self.cross = cross
        self.scroll = scroll
    }

    @inlinable
    public func absolute(_ frame: LocalFrame) -> LocalFrame {
        frame.offsetBy(cross: cross, scroll: scroll)
    }
}

/// Totals of a computed layout.
public struct LayoutSummary: Sendable, Hashable {
    public var axis: Axis
    public var crossExtent: Double
    /// The content length along the scroll axis.
    public var contentLength: Double
    public var sectionCount: Int
    public var cellCount: Int
    public var elementCount: Int

    package init(axis: Axis, crossExtent: Double, contentLength: Double, sectionCount: Int, cellCount: Int, elementCount: Int) {
        self.axis = axis
        self.crossExtent = crossExtent
        self.contentLength = contentLength
        self.sectionCount = sectionCount
        self.cellCount = cellCount
        self.elementCount = elementCount
    }

    /// The on-screen content size.
    public var contentSize: Size { axis.size(crossExtent: crossExtent, contentLength: contentLength) }
}
