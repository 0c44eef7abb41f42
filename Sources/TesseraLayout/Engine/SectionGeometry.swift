/// Where a section sits along the scroll axis, and its parts.
///
/// Parts along the scroll axis: header, scroll-start inset, items region,
/// scroll-end inset, footer. Every position is derived from `start` by the
/// same additions in the same order, here only, so that a section moved by a
/// store and the same section laid out afresh have bit-identical frames.
public struct SectionGeometry: Sendable, Hashable {
    /// The section's index in the spec.
    public var index: Int
    /// The section's scroll-axis start (the header's top in a vertical spec).
    public var start: Double
    /// The section's header, if any.
    public var header: Supplementary?
    /// The section's footer, if any.
    public var footer: Supplementary?
    /// Whether the section has a background.
    public var background: Bool
    /// Insets as (scroll start, scroll end, cross start, cross end).
    package var scrollStartInset: Double
    package var scrollEndInset: Double
    @usableFromInline package var crossStartInset: Double
    /// The number of items (cells) in the section.
    public var itemCount: Int
    /// The items region's extent along the scroll axis.
    public var itemsExtent: Double
    /// The union of the cells along the scroll axis, relative to the items
    /// origin; nil without cells.
    package var cellSpan: ClosedRange<Double>?
    /// For an orthogonal section (a carousel), the extent of its items
    /// across the feed, insets.left and insets.right included (on screen,
    /// for a vertical spec); nil for a section that scrolls with the feed.
    public var orthogonalContentLength: Double?

    /// A geometry from stored fields, as a store reads it back.
    package init(
        index: Int,
        start: Double,
        header: Supplementary?,
        footer: Supplementary?,
        background: Bool,
        scrollStartInset: Double,
        scrollEndInset: Double,
        crossStartInset: Double,
        itemCount: Int,
        itemsExtent: Double,
        cellSpan: ClosedRange<Double>?,
        orthogonalContentLength: Double? = nil
    ) {
        self.index = index
        self.start = start
        self.header = header
        self.footer = footer
        self.background = background
        self.scrollStartInset = scrollStartInset
        self.scrollEndInset = scrollEndInset
        self.crossStartInset = crossStartInset
        self.itemCount = itemCount
        self.itemsExtent = itemsExtent
        self.cellSpan = cellSpan
        self.orthogonalContentLength = orthogonalContentLength
    }

    /// Whether the section scrolls across the feed (a carousel).
    @inlinable public var isOrthogonal: Bool { orthogonalContentLength != nil }

    /// No items, no header and no footer: zero extent, no elements.
    public var isEmpty: Bool { itemCount == 0 && header == nil && footer == nil }

    package var headerLength: Double { header?.size ?? 0 }
    package var footerLength: Double { footer?.size ?? 0 }

    /// The scroll-axis position of the items origin.
    @usableFromInline package var itemsScrollOrigin: Double { Self.itemsOrigin(start: start, headerLength: headerLength, inset: scrollStartInset) }

    /// The scroll-axis start of the footer.
    package var footerStart: Double { itemsScrollOrigin + itemsExtent + scrollEndInset }

    /// The scroll-axis end of the section.
    public var end: Double { isEmpty ? start : footerStart + footerLength }

    static func itemsOrigin(start: Double, headerLength: Double, inset: Double) -> Double {
        start + headerLength + inset
    }

    /// A cell frame relative to the items origin, made absolute.
    @inlinable
    public func absolute(_ frame: LocalFrame) -> LocalFrame {
        frame.offsetBy(cross: crossStartInset, scroll: itemsScrollOrigin)
    }

    /// The union of the cells along the scroll axis, absolute.
    package var absoluteCellSpan: ClosedRange<Double>? {
        guard let cellSpan else { return nil }
        let origin = itemsScrollOrigin
        return (origin + cellSpan.lowerBound)...(origin + cellSpan.upperBound)
    }

    /// How far the cells reach outside [start, end] along the scroll axis
    /// (0 or less when they stay inside); 0 without cells. Rect queries
    /// widen their section search by the largest overhang of a layout.
    package var overhang: Double {
        guard let span = absoluteCellSpan else { return 0 }
        return max(start - span.lowerBound, span.upperBound - end)
    }

    package func headerFrame(crossExtent: Double) -> LocalFrame? {
        guard let header, !isEmpty else { return nil }
        return LocalFrame(cross: 0, scroll: start, crossLength: crossExtent, scrollLength: header.size)
    }

    package func footerFrame(crossExtent: Double) -> LocalFrame? {
        guard let footer, !isEmpty else { return nil }
        return LocalFrame(cross: 0, scroll: footerStart, crossLength: crossExtent, scrollLength: footer.size)
    }

    package func backgroundFrame(crossExtent: Double) -> LocalFrame? {
        guard background, !isEmpty else { return nil }
        return LocalFrame(cross: 0, scroll: start, crossLength: crossExtent, scrollLength: end - start)
    }

    /// The number of elements the section produces.
    public var elementCount: Int {
        guard !isEmpty else { return 0 }
        return itemCount + (header == nil ? 0 : 1) + (footer == nil ? 0 : 1) + (background ? 1 : 0)
    }
}

/// Stacks sections along the scroll axis: each starts where the previous
/// non-empty one ended, plus `sectionSpacing` between two non-empty ones.
package struct SectionChain: Sendable {
    package let sectionSpacing: Double
    /// The end of the last non-empty section so far (the content length).
    package private(set) var end: Double = 0
    private var hasNonEmpty = false

    package init(sectionSpacing: Double) {
        self.sectionSpacing = sectionSpacing
    }

    /// A chain that places its next section, when not empty, at `start`:
    /// the chain of the sections before a non-empty section placed at
    /// `start`, for placing again only that section and those after it.
    package init(sectionSpacing: Double, nextNonEmptyAt start: Double) {
        self.sectionSpacing = sectionSpacing
        end = start
    }

    /// Where the next section starts if it turns out not to be empty.
    package var nextStart: Double { hasNonEmpty ? end + sectionSpacing : end }

    /// Positions a section of the given shape and moves past it.
    package mutating func place(_ geometry: SectionGeometry) -> SectionGeometry {
        var placed = geometry
        if placed.isEmpty {
            placed.start = end
        } else {
            placed.start = nextStart
            end = placed.end
            hasNonEmpty = true
        }
        return placed
    }
}
