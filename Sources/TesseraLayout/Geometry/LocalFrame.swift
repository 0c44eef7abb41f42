/// A frame in layout coordinates: `cross` runs across the scroll axis,
/// `scroll` along it. Layout kinds work in these coordinates only, which is
/// how every kind works on both axes.
public struct LocalFrame: Sendable, Hashable, Codable {
    /// The start across the scroll axis.
    public var cross: Double
    /// The start along the scroll axis.
    public var scroll: Double
    /// The length across the scroll axis.
    public var crossLength: Double
    /// The length along the scroll axis.
    public var scrollLength: Double

    /// A frame from its starts and lengths.
    @inlinable
    public init(cross: Double, scroll: Double, crossLength: Double, scrollLength: Double) {
        self.cross = cross
        self.scroll = scroll
        self.crossLength = crossLength
        self.scrollLength = scrollLength
    }

    /// The end across the scroll axis.
    @inlinable public var crossEnd: Double { cross + crossLength }
    /// The end along the scroll axis.
    @inlinable public var scrollEnd: Double { scroll + scrollLength }

    /// This frame moved by the given offsets.
    @inlinable
    public func offsetBy(cross crossOffset: Double, scroll scrollOffset: Double) -> LocalFrame {
        LocalFrame(cross: crossOffset + cross, scroll: scrollOffset + scroll, crossLength: crossLength, scrollLength: scrollLength)
    }

    /// Open-interior overlap, as in the contract.
    @inlinable
    public func intersects(_ other: LocalFrame) -> Bool {
        cross < other.crossEnd && other.cross < crossEnd && scroll < other.scrollEnd && other.scroll < scrollEnd
    }
}
