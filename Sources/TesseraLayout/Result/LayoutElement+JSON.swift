/// The contract's JSON for elements and layouts, as text.
extension LayoutElement {
    /// `{"kind": "cell", "section": 0, "item": 0, "frame": [0, 44, 100, 50], "zIndex": 0}`,
    /// numbers printed so that they read back as the same double.
    public var jsonText: String {
        LayoutJSON.text { LayoutJSON.append(self, to: &$0) }
    }
}

extension LayoutSummary {
    /// The fields of a layout other than its elements, as JSON members:
    /// `"axis": "vertical", "extent": 390, "contentSize": [390, 1234.5]`.
    public var jsonMembers: String {
        LayoutJSON.text { LayoutJSON.appendMembers(of: self, to: &$0) }
    }
}
