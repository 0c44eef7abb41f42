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

    /// Every how many items of a section the consumer hears of the placer
    /// (``checkpoint(section:itemCount:placer:)``); nil, the default, never.
    var checkpointInterval: Int? { get }

    /// The placer after the section's first `itemCount` items (a multiple
    /// of ``checkpointInterval``), before its pending frames are written:
    /// a state to go on from later when an item after them changes. The
    /// default does nothing.
    mutating func checkpoint(section: Int, itemCount: Int, placer: any ItemPlacer) throws
}

extension LayoutConsumer {
    public var checkpointInterval: Int? { nil }

    public mutating func checkpoint(section: Int, itemCount: Int, placer: any ItemPlacer) throws {}
}

/// The items origin of a section, in absolute (cross, scroll) coordinates.
public struct SectionOrigin: Sendable, Hashable {
    /// The origin across the scroll axis (the cross-start inset).
    public var cross: Double
    /// The origin along the scroll axis.
    public var scroll: Double

    /// An origin at (`cross`, `scroll`).
    public init(cross: Double, scroll: Double) {
        self.cross = cross
        self.scroll = scroll
    }

    /// A cell frame relative to this origin, made absolute.
    @inlinable
    public func absolute(_ frame: LocalFrame) -> LocalFrame {
        frame.offsetBy(cross: cross, scroll: scroll)
    }
}

/// Totals of a computed layout.
public struct LayoutSummary: Sendable, Hashable {
    /// The spec's scroll axis.
    public var axis: Axis
    /// The container's cross extent the layout was computed for.
    public var crossExtent: Double
    /// The content length along the scroll axis.
    public var contentLength: Double
    /// The number of sections, empty ones included.
    public var sectionCount: Int
    /// The number of cells.
    public var cellCount: Int
    /// The number of elements: cells, headers, footers and backgrounds.
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
