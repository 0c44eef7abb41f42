/// Closed bounds in (cross, scroll) coordinates: a query's, or the union of
/// frames that a bounds index keeps.
@usableFromInline
package struct QueryBounds: Sendable, Hashable {
    @usableFromInline package var minCross: Double
    @usableFromInline package var maxCross: Double
    @usableFromInline package var minScroll: Double
    @usableFromInline package var maxScroll: Double

    @inlinable
    package init(minCross: Double, maxCross: Double, minScroll: Double, maxScroll: Double) {
        self.minCross = minCross
        self.maxCross = maxCross
        self.minScroll = minScroll
        self.maxScroll = maxScroll
    }

    /// Bounds that hold nothing, to grow with ``add(_:)-(LocalFrame)``.
    package static let empty = QueryBounds(minCross: .infinity, maxCross: -.infinity, minScroll: .infinity, maxScroll: -.infinity)

    /// Grows the bounds to hold `frame`.
    package mutating func add(_ frame: LocalFrame) {
        minCross = min(minCross, frame.cross)
        maxCross = max(maxCross, frame.crossEnd)
        minScroll = min(minScroll, frame.scroll)
        maxScroll = max(maxScroll, frame.scrollEnd)
    }

    /// Grows the bounds to hold `other`.
    package mutating func add(_ other: QueryBounds) {
        minCross = min(minCross, other.minCross)
        maxCross = max(maxCross, other.maxCross)
        minScroll = min(minScroll, other.minScroll)
        maxScroll = max(maxScroll, other.maxScroll)
    }

    /// Whether these closed bounds may hold a frame that meets `query`.
    /// Closed on both sides so that it never prunes a real hit; the exact
    /// open-interior test is made on each candidate frame.
    package func mayIntersect(_ query: QueryBounds) -> Bool {
        minCross <= query.maxCross && query.minCross <= maxCross
            && minScroll <= query.maxScroll && query.minScroll <= maxScroll
    }
}
