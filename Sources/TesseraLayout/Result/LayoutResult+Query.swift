/// Rect queries and pinned headers.
extension LayoutResult {
    /// Every element that intersects `rect` (open interiors overlap; touching
    /// edges do not count), in the order of ``elements``. Equal to filtering
    /// every element, for every kind. Right to left, the mirror of the
    /// left-to-right answer for the mirrored rect (``LayoutDirection``).
    /// `offsets` scroll carousels (``OrthogonalOffsets``), before mirroring.
    public func elements(in rect: Rect, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none) -> [LayoutElement] {
        direction.answer(for: rect, contentSize: contentSize) { leftToRightElements(in: $0, offsets: offsets) }
    }

    /// The elements visible in a viewport, with pinned headers and footers
    /// moved as the contract says and raised to zIndex 2. Right to left,
    /// pinned in the mirrored viewport, then mirrored.
    public func visibleElements(viewport: Rect, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none) -> [LayoutElement] {
        direction.answer(for: viewport, contentSize: contentSize) { leftToRightVisibleElements(viewport: $0, offsets: offsets) }
    }

    /// The cell of an item in `direction`, a carousel's moved by its
    /// offset, or nil when there is no such item.
    public func element(section: Int, item: Int, direction: LayoutDirection, offsets: OrthogonalOffsets = .none) -> LayoutElement? {
        guard sections.indices.contains(section), cells[section].indices.contains(item) else { return nil }
        let geometry = sections[section]
        var element = cell(section: geometry, item: item)
        element.frame = SectionQuery(section: geometry, axis: axis, crossExtent: crossExtent, offsets: offsets)
            .scrolled(geometry.absolute(cells[section][item]))
        return direction.apply(to: element, contentSize: contentSize)
    }

    /// One entry per orthogonal section that holds any of `elements` (an
    /// answer of this layout): the contract's top-level `"orthogonal"`.
    public func orthogonalContent(of elements: some Sequence<LayoutElement>) -> [OrthogonalContent] {
        OrthogonalContent.of(elements) { sections.indices.contains($0) ? sections[$0].orthogonalContentLength : nil }
    }

    /// Every element (``elements``) in `direction`.
    public func elements(direction: LayoutDirection) -> [LayoutElement] {
        direction.apply(to: elements, contentSize: contentSize)
    }

    private func leftToRightElements(in rect: Rect, offsets: OrthogonalOffsets) -> [LayoutElement] {
        var result: [LayoutElement] = []
        forEachSection(overlapping: rect, margin: overhang) { section in
            appendElements(
                of: section,
                in: rect,
                offsets: offsets,
                header: supplementary(.header, of: section),
                footer: supplementary(.footer, of: section),
                to: &result
            )
        }
        return result
    }

    private func leftToRightVisibleElements(viewport: Rect, offsets: OrthogonalOffsets) -> [LayoutElement] {
        var result: [LayoutElement] = []
        // Pinned positions stay inside their section, so the same sections
        // are searched as for a plain rect query.
        forEachSection(overlapping: viewport, margin: overhang) { section in
            let pinned = PinnedSupplementaries(section: section, axis: axis, crossExtent: crossExtent, viewport: viewport)
            appendElements(
                of: section,
                in: viewport,
                offsets: offsets,
                header: pinned.header ?? supplementary(.header, of: section),
                footer: pinned.footer ?? supplementary(.footer, of: section),
                to: &result
            )
        }
        return result
    }

    /// Calls `body` for each non-empty section whose scroll range, widened by
    /// `margin`, meets the rect's.
    func forEachSection(overlapping rect: Rect, margin: Double, _ body: (SectionGeometry) -> Void) {
        let query = axis.localFrame(rect)
        let low = query.scroll - margin
        let high = query.scrollEnd + margin
        let range = SectionSearch.sections(
            from: low, through: high, count: sections.count, end: { sections[$0].end }, start: { sections[$0].start }
        )
        for section in sections[range] where !section.isEmpty { body(section) }
    }

    private func appendElements(
        of section: SectionGeometry,
        in rect: Rect,
        offsets: OrthogonalOffsets,
        header: LayoutElement?,
        footer: LayoutElement?,
        to result: inout [LayoutElement]
    ) {
        let frames = cells[section.index]
        let index = indexes[section.index]
        SectionQuery(section: section, axis: axis, crossExtent: crossExtent, offsets: offsets).appendElements(
            in: rect,
            header: header,
            footer: footer,
            to: &result
        ) { bounds, visit in
            index.forEachCandidate(in: bounds, frameCount: frames.count) { item in visit(item, frames[item]) }
        }
    }
}

/// A section's pinned header and footer for one viewport, or nil where the
/// section pins nothing.
package struct PinnedSupplementaries: Sendable {
    package var header: LayoutElement?
    package var footer: LayoutElement?

    /// Applies the contract: a pinned header sits at
    /// max(original, min(viewport start, b − header size)); a pinned footer at
    /// max(a − scroll-start inset, min(original, viewport end − footer size)),
    /// where [a, b] is the union of the section's cells along the scroll axis.
    package init(section: SectionGeometry, axis: Axis, crossExtent: Double, viewport: Rect) {
        guard !section.isEmpty, let span = section.absoluteCellSpan else { return }
        let view = axis.localFrame(viewport)
        if let header = section.header, header.pinned, var frame = section.headerFrame(crossExtent: crossExtent) {
            frame.scroll = SectionPinning.headerScroll(original: frame.scroll, viewportStart: view.scroll, cellsEnd: span.upperBound, size: header.size)
            self.header = LayoutElement(kind: .header, section: section.index, frame: axis.screenRect(frame), zIndex: 2)
        }
        if let footer = section.footer, footer.pinned, var frame = section.footerFrame(crossExtent: crossExtent) {
            frame.scroll = SectionPinning.footerScroll(
                original: frame.scroll, viewportEnd: view.scrollEnd, cellsStart: span.lowerBound, inset: section.scrollStartInset, size: footer.size
            )
            self.footer = LayoutElement(kind: .footer, section: section.index, frame: axis.screenRect(frame), zIndex: 2)
        }
    }
}
