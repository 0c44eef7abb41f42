/// One element of a computed layout, in on-screen coordinates.
public struct LayoutElement: Sendable, Hashable {
    /// What an element is.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case cell, header, footer, background

        /// zIndex of the contract: cells 0, headers and footers 1,
        /// backgrounds −1 (pinned ones are raised to 2 in viewport results).
        public var zIndex: Int {
            switch self {
            case .cell: 0
            case .header, .footer: 1
            case .background: -1
            }
        }
    }

    /// Cell, header, footer or background.
    public var kind: Kind
    /// The index of the element's section.
    public var section: Int
    /// The item index, for cells only.
    public var item: Int?
    /// The on-screen frame.
    public var frame: Rect
    /// The contract's zIndex: the kind's, or 2 for a pinned header or footer.
    public var zIndex: Int

    /// An element; `zIndex` defaults to the kind's.
    public init(kind: Kind, section: Int, item: Int? = nil, frame: Rect, zIndex: Int? = nil) {
        self.kind = kind
        self.section = section
        self.item = item
        self.frame = frame
        self.zIndex = zIndex ?? kind.zIndex
    }
}
