import TesseraLayout

/// Right-to-left answers from a stored layout: stored frames are left to
/// right, and `LayoutDirection` mirrors an answer at query time, so it
/// costs no stored bytes.
extension LayoutReader {
    /// The elements that intersect `rect` (visible in it, pinned headers
    /// and footers moved, when `pinning`) in `direction`.
    func elements(in rect: Rect, pinning: Bool, direction: LayoutDirection) throws -> [LayoutElement] {
        try direction.answer(for: rect, contentSize: layout.contentSize) { try elements(in: $0, pinning: pinning) }
    }

    /// The cell of one item in `direction`, or nil when there is no such item.
    func cell(section: Int, item: Int, direction: LayoutDirection) throws -> LayoutElement? {
        try cell(section: section, item: item).map { direction.apply(to: $0, contentSize: layout.contentSize) }
    }
}
