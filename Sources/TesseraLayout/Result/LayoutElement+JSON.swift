/// The contract's JSON for elements and layouts.
extension LayoutElement {
    /// `{"kind": "cell", "section": 0, "item": 0, "frame": [0, 44, 100, 50], "zIndex": 0}`,
    /// numbers printed so that they read back as the same double.
    public var jsonText: String {
        var text = "{\"kind\": \"\(kind.rawValue)\", \"section\": \(section)"
        if let item { text += ", \"item\": \(item)" }
        text += ", \"frame\": [\(JSONWriter.format(frame.x)), \(JSONWriter.format(frame.y)), "
        text += "\(JSONWriter.format(frame.width)), \(JSONWriter.format(frame.height))]"
        text += ", \"zIndex\": \(zIndex)}"
        return text
    }
}

extension LayoutSummary {
    /// The fields of a layout other than its elements, as JSON members:
    /// `"axis": "vertical", "extent": 390, "contentSize": [390, 1234.5]`.
    public var jsonMembers: String {
        let size = contentSize
        return "\"axis\": \"\(axis.rawValue)\", \"extent\": \(JSONWriter.format(crossExtent)), "
            + "\"contentSize\": [\(JSONWriter.format(size.width)), \(JSONWriter.format(size.height))]"
    }
}
