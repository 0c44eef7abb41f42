/// Answers a rect query within one section, given a way to enumerate the
/// candidate cells; shared by in-memory layouts and stores, so both return
/// the same elements, bit for bit and in the same order.
package struct SectionQuery: Sendable {
    package let section: SectionGeometry
    package let axis: Axis
    package let crossExtent: Double
    /// How far the query scrolls the section's cells across the feed: its
    /// offset for a carousel, 0 for a section that scrolls with the feed.
    package let offset: Double

    package init(section: SectionGeometry, axis: Axis, crossExtent: Double, offsets: OrthogonalOffsets = .none) {
        self.section = section
        self.axis = axis
        self.crossExtent = crossExtent
        offset = section.isOrthogonal ? offsets[section.index] : 0
    }

    /// Enumerates the cells whose frames (relative to the items origin) may
    /// meet closed `bounds`, calling `visit(item, frame)` in ascending item
    /// order; it may include cells that do not meet them.
    package typealias CandidateCells = (_ bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) -> Void

    /// Appends the section's elements that intersect `rect`, in the order
    /// header, cells by item, footer, background. `header` and `footer` are
    /// the supplementaries to test (pinned or not). A carousel's cells are
    /// matched against `rect` moved by +``offset`` across the feed and
    /// reported moved by −``offset`` (0 moves nothing, bit for bit).
    package func appendElements(
        in rect: Rect,
        header: LayoutElement?,
        footer: LayoutElement?,
        to result: inout [LayoutElement],
        candidates: CandidateCells
    ) {
        guard !section.isEmpty else { return }
        if let header, header.frame.intersects(rect) { result.append(header) }
        if section.itemCount > 0 {
            let absolute = itemsQuery(rect)
            candidates(relativeBounds(of: absolute)) { item, frame in
                let placed = section.absolute(frame)
                if placed.intersects(absolute) {
                    result.append(LayoutElement(kind: .cell, section: section.index, item: item, frame: scrolled(placed)))
                }
            }
        }
        if let footer, footer.frame.intersects(rect) { result.append(footer) }
        if let background = supplementary(.background), background.frame.intersects(rect) { result.append(background) }
    }

    /// The bounds ``appendElements(in:header:footer:to:candidates:)`` asks
    /// its candidates for, or nil where it asks none (no items).
    package func candidateBounds(in rect: Rect) -> QueryBounds? {
        section.isEmpty || section.itemCount == 0 ? nil : relativeBounds(of: itemsQuery(rect))
    }

    /// `rect` in the section's axes, moved by +``offset`` across the feed.
    private func itemsQuery(_ rect: Rect) -> LocalFrame { axis.localFrame(rect).offsetBy(cross: offset, scroll: 0) }

    /// A cell's absolute frame on screen, moved by −``offset`` across the feed.
    @inline(__always)
    package func scrolled(_ placed: LocalFrame) -> Rect {
        axis.screenRect(placed.offsetBy(cross: -offset, scroll: 0))
    }

    /// The section's header, footer or background, unpinned.
    package func supplementary(_ kind: LayoutElement.Kind) -> LayoutElement? {
        let frame: LocalFrame? = switch kind {
        case .header: section.headerFrame(crossExtent: crossExtent)
        case .footer: section.footerFrame(crossExtent: crossExtent)
        case .background: section.backgroundFrame(crossExtent: crossExtent)
        case .cell: nil
        }
        guard let frame else { return nil }
        return LayoutElement(kind: kind, section: section.index, frame: axis.screenRect(frame))
    }

    /// A query moved to the items origin. Rounding may put it off by an ulp,
    /// so it is widened a little; every candidate is then tested exactly in
    /// absolute coordinates.
    package func relativeBounds(of absolute: LocalFrame) -> QueryBounds {
        let origin = section.itemsScrollOrigin
        let slack = 1e-9 * (abs(absolute.scroll) + abs(absolute.scrollLength) + abs(origin)) + 1e-9
        let crossSlack = 1e-9 * (abs(absolute.cross) + abs(absolute.crossLength) + crossExtent) + 1e-9
        return QueryBounds(
            minCross: absolute.cross - section.crossStartInset - crossSlack,
            maxCross: absolute.crossEnd - section.crossStartInset + crossSlack,
            minScroll: absolute.scroll - origin - slack,
            maxScroll: absolute.scrollEnd - origin + slack
        )
    }
}
