import TesseraLayout

/// A second reading of the contract, for tests, written without the
/// engine's query code: answers filtered by brute force from every element
/// of a layout (pinning, carousel offsets, right to left, as the contract
/// words them), and a carousel placed by laying out its one section as a
/// spec of the other axis.
public enum ContractReading {
    /// The answer for `rect` from `all`, every element of the layout left
    /// to right and unpinned, in the order of `all`: with `pinning`, pinned
    /// headers and footers moved; the cells of each orthogonal section
    /// matched against the rect moved by +offset across the feed and
    /// reported moved by −offset; right to left, the mirror of the
    /// left-to-right answer for the mirrored rect (M the content's width).
    public static func answer(
        _ all: [LayoutElement], spec: Spec, rect: Rect, pinning: Bool = false,
        offsets: [Int: Double] = [:], direction: LayoutDirection = .leftToRight, contentSize: Size
    ) -> [LayoutElement] {
        guard direction == .rightToLeft else { return leftToRight(all, spec: spec, rect: rect, pinning: pinning, offsets: offsets) }
        let width = contentSize.width
        return leftToRight(all, spec: spec, rect: mirrored(rect, width: width), pinning: pinning, offsets: offsets).map { element in
            var mirror = element
            mirror.frame = mirrored(element.frame, width: width)
            return mirror
        }
    }

    /// The cell of an item, from `all`, moved by its carousel's offset and
    /// mirrored right to left.
    public static func cell(
        _ all: [LayoutElement], spec: Spec, section: Int, item: Int, offsets: [Int: Double] = [:],
        direction: LayoutDirection = .leftToRight, contentSize: Size
    ) -> LayoutElement? {
        guard var cell = all.first(where: { $0.kind == .cell && $0.section == section && $0.item == item }) else { return nil }
        if spec.sections[section].orthogonal != nil, let offset = offsets[section] { cell.frame = across(cell.frame, by: -offset, axis: spec.axis) }
        if direction == .rightToLeft { cell.frame = mirrored(cell.frame, width: contentSize.width) }
        return cell
    }

    private static func leftToRight(_ all: [LayoutElement], spec: Spec, rect: Rect, pinning: Bool, offsets: [Int: Double]) -> [LayoutElement] {
        let axis = spec.axis
        let view = axis.localFrame(rect)
        var result: [LayoutElement] = []
        for element in all {
            var element = element
            let section = spec.sections[element.section]
            if pinning, element.kind == .header || element.kind == .footer {
                let cells = all.filter { $0.section == element.section && $0.kind == .cell }.map { axis.localFrame($0.frame) }
                if !cells.isEmpty {
                    let a = cells.map(\.scroll).min() ?? 0
                    let b = cells.map(\.scrollEnd).max() ?? 0
                    var frame = axis.localFrame(element.frame)
                    if element.kind == .header, let header = section.header, header.pinned {
                        frame.scroll = max(frame.scroll, min(view.scroll, b - header.size))
                        element.frame = axis.screenRect(frame)
                        element.zIndex = 2
                    } else if element.kind == .footer, let footer = section.footer, footer.pinned {
                        frame.scroll = max(a - section.insets.along(axis).scrollStart, min(frame.scroll, view.scrollEnd - footer.size))
                        element.frame = axis.screenRect(frame)
                        element.zIndex = 2
                    }
                }
            }
            if element.kind == .cell, section.orthogonal != nil, let offset = offsets[element.section] {
                if element.frame.intersects(across(rect, by: offset, axis: axis)) {
                    element.frame = across(element.frame, by: -offset, axis: axis)
                    result.append(element)
                }
            } else if element.frame.intersects(rect) {
                result.append(element)
            }
        }
        return result
    }

    /// `rect` moved by `offset` across the feed's scroll axis.
    public static func across(_ rect: Rect, by offset: Double, axis: Axis) -> Rect {
        switch axis {
        case .vertical: Rect(x: rect.x + offset, y: rect.y, width: rect.width, height: rect.height)
        case .horizontal: Rect(x: rect.x, y: rect.y + offset, width: rect.width, height: rect.height)
        }
    }

    /// The contract's mirror: [M − x − w, y, w, h].
    public static func mirrored(_ rect: Rect, width: Double) -> Rect {
        Rect(x: width - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height)
    }

    /// Orthogonal section `index` of `spec` placed as the contract says:
    /// its one section (no header, footer or background) laid out in a
    /// spec of the other axis at cross extent L, every frame then moved
    /// along the feed's scroll axis by the section's start + header size;
    /// with W, that spec's content length along its scroll axis.
    public static func carousel(_ spec: Spec, section index: Int, start: Double) throws -> (cells: [LayoutElement], contentLength: Double) {
        var section = spec.sections[index]
        guard let orthogonal = section.orthogonal else { return ([], 0) }
        let shift = start + (section.header?.size ?? 0)
        section.orthogonal = nil
        section.header = nil
        section.footer = nil
        section.background = false
        let other: Axis = spec.axis == .vertical ? .horizontal : .vertical
        let inner = try LayoutEngine().layout(Spec(axis: other, sections: [section]), crossExtent: orthogonal.length)
        let cells = inner.elements.map { element in
            var moved = element
            moved.section = index
            let frame = element.frame
            moved.frame = spec.axis == .vertical
                ? Rect(x: frame.x, y: frame.y + shift, width: frame.width, height: frame.height)
                : Rect(x: frame.x + shift, y: frame.y, width: frame.width, height: frame.height)
            return moved
        }
        let size = inner.contentSize
        return (cells, other == .horizontal ? size.width : size.height)
    }
}

extension SeededRandom {
    /// A query for random tests of carousels: offsets (from `offsets`) for
    /// about 60% of `sectionCount` sections, and a rect around content of
    /// `size` (reaching `across` past it on the right).
    public mutating func carouselQuery(
        sectionCount: Int, size: Size, offsets: ClosedRange<Double>, across: Double = 50
    ) -> (offsets: [Int: Double], rect: Rect) {
        var given: [Int: Double] = [:]
        for section in 0..<sectionCount where chance(0.6) { given[section] = quarter(offsets) }
        let rect = Rect(
            x: quarter(-50...(size.width + across)), y: quarter(-50...(size.height + 50)),
            width: quarter(0...500), height: quarter(0...900)
        )
        return (given, rect)
    }
}

extension ContractReading {
    /// Whether two answers hold the same elements in the same order, frames
    /// equal up to rounding (1e-9 relative): a pinned position is computed
    /// from the cells' union, which this reading adds up in another order.
    public static func sameElements(_ a: [LayoutElement], _ b: [LayoutElement]) -> Bool {
        func close(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= 1e-9 * max(1, abs(x), abs(y)) }
        return a.count == b.count && zip(a, b).allSatisfy { left, right in
            left.kind == right.kind && left.section == right.section && left.item == right.item && left.zIndex == right.zIndex
                && close(left.frame.x, right.frame.x) && close(left.frame.y, right.frame.y)
                && close(left.frame.width, right.frame.width) && close(left.frame.height, right.frame.height)
        }
    }
}
