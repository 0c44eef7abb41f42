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

    public var kind: Kind
    public var section: Int
    /// The item index, for cells only.
    public var item: Int?
    public var frame: Rect
    public var zIndex: Int

    public init(kind: Kind, section: Int, item: Int? = nil, frame: Rect, zIndex: Int? = nil) {
        self.kind = kind
        self.section = section
        self.item = item
        self.frame = frame
        self.zIndex = zIndex ?? kind.zIndex
    }
}
