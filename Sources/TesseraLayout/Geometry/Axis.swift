/// The scroll axis of a spec.
public enum Axis: String, Sendable, Hashable, CaseIterable, Codable {
    /// Content scrolls along y; the cross extent is the container's width.
    case vertical
    /// Content scrolls along x; the cross extent is the container's height.
    case horizontal

    /// Converts a frame in scroll/cross coordinates to an on-screen rectangle.
    @inlinable
    public func screenRect(_ frame: LocalFrame) -> Rect {
        switch self {
        case .vertical:
            Rect(x: frame.cross, y: frame.scroll, width: frame.crossLength, height: frame.scrollLength)
        case .horizontal:
            Rect(x: frame.scroll, y: frame.cross, width: frame.scrollLength, height: frame.crossLength)
        }
    }

    /// Converts an on-screen rectangle to scroll/cross coordinates.
    @inlinable
    public func localFrame(_ rect: Rect) -> LocalFrame {
        switch self {
        case .vertical:
            LocalFrame(cross: rect.x, scroll: rect.y, crossLength: rect.width, scrollLength: rect.height)
        case .horizontal:
            LocalFrame(cross: rect.y, scroll: rect.x, crossLength: rect.height, scrollLength: rect.width)
        }
    }

    /// An on-screen size as (cross, scroll) lengths.
    @inlinable
    package func lengths(of size: Size) -> (cross: Double, scroll: Double) {
        switch self {
        case .vertical: (size.width, size.height)
        case .horizontal: (size.height, size.width)
        }
    }

    /// The on-screen size of content `contentLength` long along this axis
    /// and `crossExtent` across it.
    @inlinable
    package func size(crossExtent: Double, contentLength: Double) -> Size {
        switch self {
        case .vertical: Size(width: crossExtent, height: contentLength)
        case .horizontal: Size(width: contentLength, height: crossExtent)
        }
    }

    /// An on-screen aspect ratio (width / height) as cross length per scroll
    /// length, the ratio every layout kind works with.
    @inlinable
    public func crossPerScroll(aspectRatio: Double) -> Double {
        switch self {
        case .vertical: aspectRatio
        case .horizontal: 1 / aspectRatio
        }
    }
}
