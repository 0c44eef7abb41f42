/// The direction a query's answer reads in: stored frames are always
/// left-to-right, and right-to-left is a query-time effect that costs no
/// stored bytes (the contract's "Right-to-left").
///
/// The answer for a rect R in ``rightToLeft`` is ``Mirror`` applied to every
/// element of the left-to-right answer for the mirrored rect, pinning (and
/// every other query-time effect) applied before mirroring:
///
/// ```swift
/// let visible = layout.visibleElements(viewport: viewport, direction: .rightToLeft)
/// ```
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
    /// Frames as stored: x grows to the right (the default).
    case leftToRight = "ltr"
    /// Frames mirrored across the content's width.
    case rightToLeft = "rtl"

    /// The answer for `rect` in this direction, from `query`, the
    /// left-to-right answer for a rect: `query(rect)` itself left to right;
    /// right to left, `query(mirror(rect))` with every element mirrored,
    /// in the same order. `contentSize` is the layout's on-screen content
    /// size, whose width is the mirror's M.
    @inlinable
    public func answer(
        for rect: Rect,
        contentSize: Size,
        _ query: (Rect) throws -> [LayoutElement]
    ) rethrows -> [LayoutElement] {
        switch self {
        case .leftToRight:
            return try query(rect)
        case .rightToLeft:
            let mirror = Mirror(contentSize: contentSize)
            return mirror(try query(mirror(rect)))
        }
    }

    /// `elements`, a left-to-right answer that does not depend on a rect
    /// (an item, a whole layout), in this direction.
    @inlinable
    public func apply(to elements: [LayoutElement], contentSize: Size) -> [LayoutElement] {
        switch self {
        case .leftToRight: elements
        case .rightToLeft: Mirror(contentSize: contentSize)(elements)
        }
    }

    /// `element`, a left-to-right element, in this direction.
    @inlinable
    public func apply(to element: LayoutElement, contentSize: Size) -> LayoutElement {
        switch self {
        case .leftToRight: element
        case .rightToLeft: Mirror(contentSize: contentSize)(element)
        }
    }
}

/// The contract's mirror: mirror(f) = [M − x − w, y, w, h], where M is the
/// width of the content (the cross extent of a vertical spec, the content
/// length of a horizontal one). Heights and y stay as they are.
public struct Mirror: Sendable, Hashable {
    /// M: the width mirrored across.
    public var width: Double

    /// The mirror across `width`.
    @inlinable
    public init(width: Double) {
        self.width = width
    }

    /// The mirror of a layout whose on-screen content size is `contentSize`.
    @inlinable
    public init(contentSize: Size) {
        self.init(width: contentSize.width)
    }

    /// [M − x − w, y, w, h].
    @inlinable
    public func callAsFunction(_ rect: Rect) -> Rect {
        Rect(x: width - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The element with its frame mirrored; kind, indices and zIndex kept.
    @inlinable
    public func callAsFunction(_ element: LayoutElement) -> LayoutElement {
        var mirrored = element
        mirrored.frame = self(element.frame)
        return mirrored
    }

    /// Every element mirrored, in the same order: in place when the caller
    /// hands over the only reference to the array (a query's fresh answer).
    @inlinable
    public func callAsFunction(_ elements: consuming [LayoutElement]) -> [LayoutElement] {
        var mirrored = elements
        for index in mirrored.indices { mirrored[index].frame = self(mirrored[index].frame) }
        return mirrored
    }
}
