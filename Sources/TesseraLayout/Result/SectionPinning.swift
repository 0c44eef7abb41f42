/// What a client needs to pin one section's headers and footers itself,
/// from elements it holds unpinned (a tile's, in the HTTP API article of TesseraHummingbird): the
/// contract's "Pinned headers and footers", section by section.
///
/// Scroll-axis positions (``start``, ``end``, ``cells``,
/// ``scrollStartInset``) are the stored left-to-right ones; ``header`` and
/// ``footer`` are elements of the answer they came with, in its direction.
/// ``pinned(viewport:axis:direction:contentSize:)`` applies the same
/// formulas as a viewport query, so its frames are the server's, bit for bit.
public struct SectionPinning: Sendable, Hashable {
    /// The section's index.
    public var section: Int
    /// The section's start along the scroll axis, left to right.
    public var start: Double
    /// The section's end along the scroll axis, left to right.
    public var end: Double
    /// The union of the section's cells along the scroll axis ([a, b] of
    /// the contract), left to right.
    public var cells: ClosedRange<Double>
    /// The section's inset before its items along the scroll axis
    /// (insets.top of a vertical spec): a pinned footer stays below a − inset.
    public var scrollStartInset: Double
    /// The section's header, unpinned; nil without one.
    public var header: LayoutElement?
    /// Whether the header pins.
    public var headerPinned: Bool
    /// The section's footer, unpinned; nil without one.
    public var footer: LayoutElement?
    /// Whether the footer pins.
    public var footerPinned: Bool

    /// A section's pinning data, as a tile carries it.
    public init(
        section: Int, start: Double, end: Double, cells: ClosedRange<Double>, scrollStartInset: Double,
        header: LayoutElement?, headerPinned: Bool, footer: LayoutElement?, footerPinned: Bool
    ) {
        self.section = section
        self.start = start
        self.end = end
        self.cells = cells
        self.scrollStartInset = scrollStartInset
        self.header = header
        self.headerPinned = headerPinned
        self.footer = footer
        self.footerPinned = footerPinned
    }

    /// The contract's pinned header position: max(original, min(viewport
    /// start, b − header size)).
    @inlinable
    package static func headerScroll(original: Double, viewportStart: Double, cellsEnd: Double, size: Double) -> Double {
        max(original, min(viewportStart, cellsEnd - size))
    }

    /// The contract's pinned footer position: max(a − scroll-start inset,
    /// min(original, viewport end − footer size)).
    @inlinable
    package static func footerScroll(original: Double, viewportEnd: Double, cellsStart: Double, inset: Double, size: Double) -> Double {
        max(cellsStart - inset, min(original, viewportEnd - size))
    }

    /// The pinned header and footer (zIndex 2) for `viewport`, in
    /// `direction` (the viewport's and the elements'); nil for one that
    /// does not pin. Right to left, pinned in the mirrored viewport and
    /// mirrored back, as the contract's "Right-to-left" says.
    public func pinned(viewport: Rect, axis: Axis, direction: LayoutDirection, contentSize: Size) -> (header: LayoutElement?, footer: LayoutElement?) {
        let mirror = direction == .rightToLeft ? Mirror(contentSize: contentSize) : nil
        let view = axis.localFrame(mirror.map { $0(viewport) } ?? viewport)
        func pin(_ element: LayoutElement?, _ place: (Double, Double) -> Double) -> LayoutElement? {
            guard var element else { return nil }
            var frame = axis.localFrame(mirror.map { $0(element.frame) } ?? element.frame)
            frame.scroll = place(frame.scroll, frame.scrollLength)
            element.frame = axis.screenRect(frame)
            element.zIndex = 2
            return mirror.map { $0(element) } ?? element
        }
        let header = headerPinned ? pin(header) { original, size in
            Self.headerScroll(original: original, viewportStart: view.scroll, cellsEnd: cells.upperBound, size: size)
        } : nil
        let footer = footerPinned ? pin(footer) { original, size in
            Self.footerScroll(original: original, viewportEnd: view.scrollEnd, cellsStart: cells.lowerBound, inset: scrollStartInset, size: size)
        } : nil
        return (header, footer)
    }
}

/// A viewport's elements put together from tiles (the HTTP API article of TesseraHummingbird): what a
/// client of the tile routes does, and what equals the server's `/visible`.
public enum TiledViewport {
    /// The elements visible in `viewport` from the elements and pinning
    /// data of the tiles that cover it (in any order, repeats allowed):
    /// pinned headers and footers moved and raised to zIndex 2, in the
    /// order of a viewport query (by section: header, cells by item,
    /// footer, background).
    public static func visibleElements(
        elements: some Sequence<LayoutElement>, pinning: some Sequence<SectionPinning>,
        viewport: Rect, axis: Axis, direction: LayoutDirection, contentSize: Size
    ) -> [LayoutElement] {
        var pinnedBySection: [Int: SectionPinning] = [:]
        for entry in pinning { pinnedBySection[entry.section] = entry }
        var seen = Set<ElementKey>()
        var result: [LayoutElement] = []
        for element in elements where element.frame.intersects(viewport) {
            if let entry = pinnedBySection[element.section],
               (element.kind == .header && entry.headerPinned) || (element.kind == .footer && entry.footerPinned) {
                continue
            }
            if seen.insert(ElementKey(element)).inserted { result.append(element) }
        }
        for entry in pinnedBySection.values {
            let pinned = entry.pinned(viewport: viewport, axis: axis, direction: direction, contentSize: contentSize)
            for element in [pinned.header, pinned.footer].compactMap({ $0 }) where element.frame.intersects(viewport) {
                result.append(element)
            }
        }
        return result.sorted { ElementKey($0) < ElementKey($1) }
    }

    /// The tiles whose elements can meet `viewport`: tile i holds the band
    /// [i·`tileLength`, (i+1)·`tileLength`) along `axis` (in the tiles'
    /// direction, the viewport's), the first tile everything before it
    /// and the last everything after it, so the range is clamped to
    /// 0…`tileCount` − 1.
    ///
    /// ```swift
    /// for index in TiledViewport.tiles(covering: viewport, axis: .vertical, tileLength: 2048, tileCount: 12) { … }
    /// ```
    public static func tiles(covering viewport: Rect, axis: Axis, tileLength: Double, tileCount: Int) -> ClosedRange<Int> {
        let last = max(0, tileCount - 1)
        let view = axis.localFrame(viewport)
        func clamped(_ value: Double) -> Int {
            guard value.isFinite else { return value > 0 ? last : 0 }
            return value <= 0 ? 0 : value >= Double(last) ? last : Int(value)
        }
        let first = clamped((view.scroll / tileLength).rounded(.down))
        return first...max(first, clamped((view.scrollEnd / tileLength).rounded(.up) - 1))
    }

    /// An element's identity and its place in a viewport answer.
    private struct ElementKey: Hashable, Comparable {
        var section: Int
        var rank: Int
        var item: Int

        init(_ element: LayoutElement) {
            section = element.section
            item = element.item ?? 0
            rank = switch element.kind {
            case .header: 0
            case .cell: 1
            case .footer: 2
            case .background: 3
            }
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.section, lhs.rank, lhs.item) < (rhs.section, rhs.rank, rhs.item)
        }
    }
}
