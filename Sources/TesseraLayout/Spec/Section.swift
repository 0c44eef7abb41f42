/// Space around a section's items, inside its header and footer, by
/// on-screen side.
public struct Insets: Sendable, Hashable {
    /// Space below the header.
    public var top: Double
    /// Space at the left edge.
    public var left: Double
    /// Space above the footer.
    public var bottom: Double
    /// Space at the right edge.
    public var right: Double

    /// Insets by side, 0 by default.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
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
    /// The length along the scroll axis.
    public var size: Double
    /// Whether it stays in view while its section scrolls past (the contract's pinning).
    public var pinned: Bool

    /// A header or footer `size` long.
    public init(size: Double, pinned: Bool = false) {
        self.size = size
        self.pinned = pinned
    }
}

/// What makes a section orthogonal (a carousel): it scrolls across the
/// feed, `length` along the feed's scroll axis between its header and footer.
public struct Orthogonal: Sendable, Hashable {
    /// The section's extent along the feed's scroll axis, between header
    /// and footer (its scroll-axis insets lie inside it); finite, above 0.
    public var length: Double

    /// A carousel `length` long along the feed's scroll axis.
    public init(length: Double) {
        self.length = length
    }
}

/// One section of a spec: a layout kind and its items.
public struct Section: Sendable {
    /// Stable identity for invalidation; the section's index when nil.
    public var id: String?
    /// The layout kind, configured.
    public var layout: any SectionLayout
    /// Space around the items.
    public var insets: Insets
    /// The header, if any.
    public var header: Supplementary?
    /// The footer, if any.
    public var footer: Supplementary?
    /// Whether the section has a background element.
    public var background: Bool
    /// Where the items come from.
    public var items: ItemSource
    /// Set for a section that scrolls across the feed (a carousel): its kind
    /// runs on the other axis at cross extent `length`.
    public var orthogonal: Orthogonal?

    /// A section; only the layout and the items are required.
    public init(
        id: String? = nil,
        layout: any SectionLayout,
        insets: Insets = .zero,
        header: Supplementary? = nil,
        footer: Supplementary? = nil,
        background: Bool = false,
        items: ItemSource = .list([]),
        orthogonal: Orthogonal? = nil
    ) {
        self.id = id
        self.layout = layout
        self.insets = insets
        self.header = header
        self.footer = footer
        self.background = background
        self.items = items
        self.orthogonal = orthogonal
    }
}
