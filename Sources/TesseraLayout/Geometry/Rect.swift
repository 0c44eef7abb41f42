/// An on-screen rectangle: origin top-left, x right, y down.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// A rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }

    /// The contract's intersection: open interiors overlap, so touching edges
    /// do not intersect and an empty rectangle intersects nothing.
    public func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    public var description: String {
        LayoutJSON.text { LayoutJSON.append(self, to: &$0) }
    }
}

/// A width and a height.
public struct Size: Sendable, Hashable {
    /// The on-screen width.
    public var width: Double
    /// The on-screen height.
    public var height: Double

    /// A size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
