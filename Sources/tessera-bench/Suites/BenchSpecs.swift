import TesseraLayout

/// The specs the benchmark lays out: one section of `count` items per kind,
/// written as a user would write them, items given as a cycle.
enum BenchSpecs {
    static let kinds = ["flow", "grid", "scaledGrid", "mozaik", "pattern", "staggered", "mosaic"]

    /// The phone width every benchmark uses.
    static let width = 390.0

    static func json(kind: String, count: Int) -> String {
        let (layout, cycle) = parts(kind)
        return """
        {"format": 1, "sections": [{"layout": \(layout), "header": {"size": 44, "pinned": true},
          "insets": {"top": 8, "left": 8, "bottom": 8, "right": 8}, "items": {"count": \(count), "cycle": \(cycle)}}]}
        """
    }

    static func spec(kind: String, count: Int) throws -> Spec {
        try Spec(jsonText: json(kind: kind, count: count))
    }

    private static func parts(_ kind: String) -> (String, String) {
        switch kind {
        case "flow":
            return (#"{"kind": "flow", "itemSpacing": 4, "lineSpacing": 4}"#,
                    #"[{"size": [100, 50]}, {"size": [120, 60]}, {"size": [80, 50]}, {"size": [150, 70]}, {"size": [60, 40]}]"#)
        case "grid":
            return (#"{"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2}"#,
                    #"[{}, {}, {"fraction": 2, "aspectRatio": 1.5}, {}]"#)
        case "scaledGrid":
            return (#"{"kind": "scaledGrid", "divisions": 4, "spacing": 2}"#,
                    #"[{"scale": 1}, {"scale": 2}, {"scale": 1}, {"scale": 1}, {"scale": 3}, {"scale": 1}, {"scale": 1}]"#)
        case "mozaik":
            return (#"{"kind": "mozaik", "columnCount": 4, "rowHeight": 90, "itemSpacing": 2, "lineSpacing": 2}"#,
                    #"[{"columns": 2, "rows": 2}, {}, {}, {"rows": 2}, {}, {"columns": 2}, {}, {}]"#)
        case "pattern":
            return (#"{"kind": "pattern", "blocks": [{"units": 3, "gutter": 2, "frames": [[0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1]]}, {"units": 3, "gutter": 2, "frames": [[0, 0, 1, 1], [1, 0, 1, 1], [2, 0, 1, 1]]}], "spacing": {"between": 2}}"#,
                    #"[{}]"#)
        case "staggered":
            return (#"{"kind": "staggered", "columns": 3, "itemSpacing": 4, "lineSpacing": 4}"#,
                    #"[{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}, {"length": 200, "columns": 2}, {"aspectRatio": 0.6}]"#)
        default:
            return (#"{"kind": "mosaic", "columns": 3, "lineMultiple": 20, "itemSpacing": 2, "lineSpacing": 2}"#,
                    #"[{"aspectRatio": 1.5}, {"aspectRatio": 0.75}, {"aspectRatio": 1}, {"aspectRatio": 1.33, "canBeBig": false}]"#)
        }
    }
}
