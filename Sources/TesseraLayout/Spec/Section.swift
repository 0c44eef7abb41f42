/// Space around a section's items, inside its header and footer, by
/// on-screen side.
public struct Insets: Sendable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = Insets()

    /// The insets as (scroll start, scroll end, cross start, cross end).
    package func along(_ axis: Axis) -> (scrollStart: Double, scrollEnd: Double, crossStart: Double, crossEnd: Double) {
        switch axis {
        case .vertical: (top, bottom, left, right)
        case .horizontal: (left, right, top, bottom)
        }
    }
}

/// A section header or footer: `size` along the scroll axis, the full cross
/// extent across it.
public struct Supplementary: Sendable, Hashable {
    public var size: Double
    public var pinned: Bool

    public init(size: Double, pinned: Bool = false) {
        self.size = size
        self.pinned = pinned
    }
}

/// One section of a spec: a layout kind and its items.
public struct Section: Sendable {
    /// Stable identity for invalidation; the section's index when nil.
    public var id: String?
    public var layout: any SectionLayout
    public var insets: Insets
    public var header: Supplementary?
    public var footer: Supplementary?
    public var background: Bool
    public var items: ItemSource

    public init(
        id: String? = nil,
        layout: any SectionLayout,
        insets: Insets = .zero,
        header: Supplementary? = nil,
        footer: Supplementary? = nil,
        background: Bool = false,
        items: ItemSource = .list([])
    ) {
        self.id = id
        self.layout = layout
        self.insets = insets
        self.header = header
        self.footer = footer
        self.background = background
        self.items = items
    }
}
