import TesseraLayout

/// The feed `tessera demo` lays out: 50 sections cycling through all seven
/// layout kinds, every one with a pinned header, some with footers and
/// backgrounds. The first seven are short, so the top of the feed shows
/// each kind once; section 26 is one huge waterfall that holds most items.
enum DemoFeed {
    static let name = "demo-feed"
    static let kinds = ["flow", "grid", "scaledGrid", "mozaik", "pattern", "staggered", "mosaic"]
    static let sectionCount = 50
    /// The huge staggered section.
    static let hugeSection = 26
    /// Items of the short sections at the top, one per kind.
    static let showcaseCounts = [10, 8, 9, 8, 6, 8, 6]
    /// The fewest items `--items` accepts.
    static let minimumItems = 1000

    /// Items per section for about `total` items in all.
    static func counts(total: Int) -> [Int] {
        let showcase = showcaseCounts.reduce(0, +)
        let regular = sectionCount - showcaseCounts.count - 1
        // A tenth of the items in the regular sections, the rest in the huge one.
        let each = max(1, total / 10 / regular)
        return (0..<sectionCount).map { section in
            if section < showcaseCounts.count { return showcaseCounts[section] }
            if section == hugeSection { return max(1, total - showcase - regular * each) }
            return each
        }
    }

    static func kind(ofSection section: Int) -> String {
        kinds[section % kinds.count]
    }

    static func json(total: Int) -> String {
        let sections = counts(total: total).enumerated().map { section, count in
            sectionJSON(section, count: count)
        }
        return """
        {"format": 1, "name": "\(name)", "axis": "vertical", "sectionSpacing": 12, "sections": [
          \(sections.joined(separator: ",\n  "))
        ]}
        """
    }

    static func spec(total: Int) throws -> Spec {
        try Spec(jsonText: json(total: total))
    }

    private static func sectionJSON(_ section: Int, count: Int) -> String {
        let kind = kind(ofSection: section)
        let (layout, cycle) = parts(kind)
        var members = [
            "\"id\": \"\(kind)-\(section)\"",
            "\"layout\": \(layout)",
            "\"header\": {\"size\": 44, \"pinned\": true}",
            "\"insets\": {\"top\": 8, \"left\": 8, \"bottom\": 8, \"right\": 8}",
        ]
        if section % 4 == 3 { members.append("\"footer\": {\"size\": 32}") }
        if section % 3 == 2 { members.append("\"background\": true") }
        members.append("\"items\": {\"count\": \(count), \"cycle\": \(cycle)}")
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A kind's layout object and the items it cycles through.
    private static func parts(_ kind: String) -> (layout: String, cycle: String) {
        switch kind {
        case "flow":
            return (#"{"kind": "flow", "itemSpacing": 6, "lineSpacing": 6}"#,
                    #"[{"size": [80, 32]}, {"size": [120, 32]}, {"size": [64, 32]}, {"size": [96, 32]}, {"size": [140, 32]}, {"size": [72, 32]}, {"size": [110, 32]}]"#)
        case "grid":
            return (#"{"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2}"#,
                    #"[{}, {}, {}, {"fraction": 2, "aspectRatio": 1.5}, {"fraction": 2, "aspectRatio": 1.5}]"#)
        case "scaledGrid":
            return (#"{"kind": "scaledGrid", "divisions": 4, "spacing": 2}"#,
                    #"[{"scale": 2}, {"scale": 1}, {"scale": 1}, {"scale": 1}, {"scale": 1}, {"scale": 1}, {"scale": 3}, {"scale": 1}, {"scale": 1}]"#)
        case "mozaik":
            return (#"{"kind": "mozaik", "columnCount": 4, "rowHeight": 90, "itemSpacing": 2, "lineSpacing": 2}"#,
                    #"[{"columns": 2, "rows": 2}, {}, {}, {"rows": 2}, {}, {"columns": 2}, {}, {}]"#)
        case "pattern":
            return (#"{"kind": "pattern", "blocks": [{"units": 3, "gutter": 2, "frames": [[0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1]]}, {"units": 3, "gutter": 2, "frames": [[0, 0, 1, 1], [0, 1, 1, 1], [1, 0, 2, 2]]}], "spacing": {"between": 2}}"#,
                    #"[{}]"#)
        case "staggered":
            return (#"{"kind": "staggered", "columns": 3, "itemSpacing": 4, "lineSpacing": 4}"#,
                    #"[{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}, {"length": 180, "columns": 2}, {"aspectRatio": 0.6}, {"aspectRatio": 1.2}]"#)
        default:
            return (#"{"kind": "mosaic", "columns": 3, "lineMultiple": 20, "itemSpacing": 2, "lineSpacing": 2}"#,
                    #"[{"aspectRatio": 1.5}, {"aspectRatio": 0.75}, {"aspectRatio": 1}, {"aspectRatio": 1.33, "canBeBig": false}, {"aspectRatio": 0.8}]"#)
        }
    }
}
