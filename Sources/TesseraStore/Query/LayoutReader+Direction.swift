import TesseraLayout

/// Answers of a stored layout in a direction and with carousels scrolled:
/// stored frames are left to right and unscrolled, and both effects are
/// applied at query time (`LayoutDirection`, `OrthogonalOffsets`), so they
/// cost no stored bytes.
extension LayoutReader {
    /// The elements that intersect `rect` (visible in it, pinned headers
    /// and footers moved, when `pinning`) in `direction`, carousels
    /// scrolled by `offsets` before mirroring.
    func elements(in rect: Rect, pinning: Bool, direction: LayoutDirection, offsets: OrthogonalOffsets = .none) throws -> [LayoutElement] {
        try answer(in: rect, pinning: pinning, direction: direction, offsets: offsets).elements
    }

    /// ``elements(in:pinning:direction:offsets:)`` with the content length
    /// of each orthogonal section that holds any of them.
    func answer(
        in rect: Rect, pinning: Bool, direction: LayoutDirection, offsets: OrthogonalOffsets
    ) throws -> (elements: [LayoutElement], orthogonal: [OrthogonalContent]) {
        var lengths: [Int: Double] = [:]
        let found = try direction.answer(for: rect, contentSize: layout.contentSize) {
            try self.elements(in: $0, pinning: pinning, offsets: offsets, orthogonalLengths: &lengths)
        }
        return (found, lengths.isEmpty ? [] : OrthogonalContent.of(found) { lengths[$0] })
    }

    /// The cell of one item in `direction`, a carousel's scrolled by its
    /// offset, with its section's content length when it is orthogonal;
    /// nil when there is no such item.
    func cell(
        section: Int, item: Int, direction: LayoutDirection, offsets: OrthogonalOffsets = .none
    ) throws -> (element: LayoutElement, orthogonal: [OrthogonalContent])? {
        guard let (cell, geometry) = try cell(section: section, item: item, offsets: offsets) else { return nil }
        let orthogonal = geometry.orthogonalContentLength.map { [OrthogonalContent(section: section, contentLength: $0)] } ?? []
        return (direction.apply(to: cell, contentSize: layout.contentSize), orthogonal)
    }
}
