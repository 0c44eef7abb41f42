import Testing
@testable import TesseraLayout

/// A kind that reads its layout object and compares by value, to round-trip
/// every kind the same way.
protocol ReadableLayout: SectionLayout, Equatable {
    init(parameters: LayoutParameters) throws
}

extension FlowLayout: ReadableLayout {}
extension GridLayout: ReadableLayout {}
extension ScaledGridLayout: ReadableLayout {}
extension MozaikLayout: ReadableLayout {}
extension PatternLayout: ReadableLayout {}
extension StaggeredLayout: ReadableLayout {}
extension MosaicLayout: ReadableLayout {}

/// Every kind's `parameters`, pinned to the exact text: the store hashes
/// them, so a section whose parameters are unchanged must write the same
/// keys, in the same order, with the same values. And every rule that
/// reading a layout object checks, pinned to its exact path and words.
@Suite("kinds: parameters written, read back and validated exactly")
struct KindParametersTests {
    static let oneFrame = [PatternLayout.UnitFrame(x: 0, y: 0, width: 1, height: 1)]

    /// (a layout, its parameters as canonical JSON, their keys in the order written)
    static let written: [(layout: any ReadableLayout, json: String, keys: [String])] = [
        (FlowLayout(),
         #"{"alignment":"justified","itemSize":[50,50],"itemSpacing":0,"lineSpacing":0}"#,
         ["itemSize", "itemSpacing", "lineSpacing", "alignment"]),
        (FlowLayout(itemSize: Size(width: 120.5, height: 80), itemSpacing: 4, lineSpacing: 6.25, alignment: .center),
         #"{"alignment":"center","itemSize":[120.5,80],"itemSpacing":4,"lineSpacing":6.25}"#,
         ["itemSize", "itemSpacing", "lineSpacing", "alignment"]),
        (GridLayout(),
         #"{"alignment":"justified","aspectRatio":1,"fraction":1,"itemSpacing":0,"lineSpacing":0}"#,
         ["fraction", "aspectRatio", "itemSpacing", "lineSpacing", "alignment"]),
        (GridLayout(fraction: 3, aspectRatio: 1.5, itemSpacing: 2, lineSpacing: 8, alignment: .end),
         #"{"alignment":"end","aspectRatio":1.5,"fraction":3,"itemSpacing":2,"lineSpacing":8}"#,
         ["fraction", "aspectRatio", "itemSpacing", "lineSpacing", "alignment"]),
        (ScaledGridLayout(divisions: 4),
         #"{"aspectRatio":1,"divisions":4,"spacing":0}"#,
         ["divisions", "spacing", "aspectRatio"]),
        (ScaledGridLayout(divisions: 6, spacing: 1.5, aspectRatio: 0.75),
         #"{"aspectRatio":0.75,"divisions":6,"spacing":1.5}"#,
         ["divisions", "spacing", "aspectRatio"]),
        (MozaikLayout(columns: .count(3), rowHeight: 40),
         #"{"columnCount":3,"itemSpacing":0,"lineSpacing":0,"order":"dense","rowHeight":40}"#,
         ["columnCount", "rowHeight", "itemSpacing", "lineSpacing", "order"]),
        (MozaikLayout(columns: .widths([100, 50.5, 80]), rowHeight: 25, itemSpacing: 2, lineSpacing: 3, order: .ordered),
         #"{"columns":[100,50.5,80],"itemSpacing":2,"lineSpacing":3,"order":"ordered","rowHeight":25}"#,
         ["columns", "rowHeight", "itemSpacing", "lineSpacing", "order"]),
        (PatternLayout(blocks: [PatternLayout.Block(units: 2, frames: oneFrame)]),
         #"{"blocks":[{"frames":[[0,0,1,1]],"gutter":0,"repeated":false,"unitAspect":1,"units":2}],"spacing":{"after":0,"before":0,"between":0}}"#,
         ["blocks", "spacing"]),
        (PatternLayout(
            blocks: [
                PatternLayout.Block(units: 3, unitAspect: 0.5, gutter: 2, frames: oneFrame + [.init(x: 1, y: 0, width: 2, height: 1.5)]),
                PatternLayout.Block(units: 1, frames: oneFrame, repeated: true),
            ],
            spacing: PatternLayout.Spacing(before: 1, between: 2.5, after: 3)
         ),
         #"{"blocks":[{"frames":[[0,0,1,1],[1,0,2,1.5]],"gutter":2,"repeated":false,"unitAspect":0.5,"units":3},"#
            + #"{"frames":[[0,0,1,1]],"gutter":0,"repeated":true,"unitAspect":1,"units":1}],"spacing":{"after":3,"before":1,"between":2.5}}"#,
         ["blocks", "spacing"]),
        (StaggeredLayout(columns: 2),
         #"{"columns":2,"itemSpacing":0,"lineSpacing":0,"placement":"shortest"}"#,
         ["columns", "itemSpacing", "lineSpacing", "placement"]),
        (StaggeredLayout(columns: 5, itemSpacing: 3, lineSpacing: 4.5, placement: .roundRobin),
         #"{"columns":5,"itemSpacing":3,"lineSpacing":4.5,"placement":"roundRobin"}"#,
         ["columns", "itemSpacing", "lineSpacing", "placement"]),
        (MosaicLayout(columns: 3),
         #"{"columns":3,"itemSpacing":0,"lineMultiple":20,"lineSpacing":0}"#,
         ["columns", "lineMultiple", "itemSpacing", "lineSpacing"]),
        (MosaicLayout(columns: 4, lineMultiple: 12.5, itemSpacing: 1, lineSpacing: 2),
         #"{"columns":4,"itemSpacing":1,"lineMultiple":12.5,"lineSpacing":2}"#,
         ["columns", "lineMultiple", "itemSpacing", "lineSpacing"]),
    ]

    @Test("parameters are the pinned JSON, keys in the pinned order", arguments: written.indices)
    func parametersText(index: Int) {
        let (layout, json, keys) = Self.written[index]
        #expect(JSONWriter.canonical(.object(layout.parameters)) == json)
        #expect(layout.parameters.keys == keys)
    }

    @Test("reading the parameters back gives an equal layout that writes the same JSON", arguments: written.indices)
    func parametersRoundTrip(index: Int) throws {
        try Self.roundTrip(Self.written[index].layout)
    }

    static func roundTrip<Layout: ReadableLayout>(_ layout: Layout) throws {
        let read = try Layout(parameters: LayoutParameters(object: layout.parameters, path: .root))
        #expect(read == layout)
        #expect(read.parameters == layout.parameters)
        // Through the registry, from a layout object with its kind first.
        var object = JSONObject(["kind": .string(layout.kind)])
        for (key, value) in zip(layout.parameters.keys, layout.parameters.values) { object[key] = value }
        let registered = try LayoutRegistry.standard.layout(from: .object(object), path: .root)
        #expect(registered as? Layout == layout)
    }

    /// (a layout object with only its required fields, the Swift value it reads as)
    static let minimal: [(json: String, layout: any ReadableLayout)] = [
        (#"{"kind": "flow"}"#, FlowLayout()),
        (#"{"kind": "grid"}"#, GridLayout()),
        (#"{"kind": "scaledGrid", "divisions": 4}"#, ScaledGridLayout(divisions: 4)),
        (#"{"kind": "mozaik", "columnCount": 3, "rowHeight": 40}"#, MozaikLayout(columns: .count(3), rowHeight: 40)),
        (#"{"kind": "mozaik", "columns": [10, 20], "rowHeight": 40}"#, MozaikLayout(columns: .widths([10, 20]), rowHeight: 40)),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}]}"#,
         PatternLayout(blocks: [PatternLayout.Block(units: 2, frames: oneFrame)])),
        (#"{"kind": "staggered", "columns": 2}"#, StaggeredLayout(columns: 2)),
        (#"{"kind": "mosaic", "columns": 3}"#, MosaicLayout(columns: 3)),
        // null counts as absent: the Swift default.
        (#"{"kind": "grid", "fraction": null, "aspectRatio": null, "itemSpacing": null, "lineSpacing": null, "alignment": null}"#, GridLayout()),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}], "spacing": {"before": null}}"#,
         PatternLayout(blocks: [PatternLayout.Block(units: 2, frames: oneFrame)])),
        // When both are given, columns wins and columnCount is not read.
        (#"{"kind": "mozaik", "columns": [10], "columnCount": 0, "rowHeight": 5}"#, MozaikLayout(columns: .widths([10]), rowHeight: 5)),
    ]

    @Test("absent fields read as the Swift initialiser's defaults", arguments: minimal.indices)
    func defaultsMatchSwift(index: Int) throws {
        try Self.reads(Self.minimal[index].json, as: Self.minimal[index].layout)
    }

    static func reads<Layout: ReadableLayout>(_ json: String, as expected: Layout) throws {
        let read = try LayoutRegistry.standard.layout(from: JSONParser.parse(json), path: .root)
        #expect(read as? Layout == expected, "\(json)")
    }

    /// The required integer of each kind that has one: absent, 0 and a
    /// fraction are refused alike.
    static let requiredIntegers: [(json: String, error: String)] = [
        ("scaledGrid", "divisions"), ("staggered", "columns"), ("mosaic", "columns"),
    ].flatMap { kind, key in
        [
            (#"{"kind": "\#(kind)"}"#, "layout.\(key): is required"),
            (#"{"kind": "\#(kind)", "\#(key)": 0}"#, "layout.\(key): must be at least 1, got 0"),
            (#"{"kind": "\#(kind)", "\#(key)": 2.5}"#, "layout.\(key): must be an integer, got 2.5"),
        ]
    }

    /// (a layout object, the whole error reading it gives, as `path: reason`)
    static let rejected: [(json: String, error: String)] = requiredIntegers + [
        (#"{"kind": "flow", "itemSize": 3}"#, "layout.itemSize: must be an array of two numbers [width, height]"),
        (#"{"kind": "flow", "itemSize": [1, "a"]}"#, "layout.itemSize: must be an array of two numbers [width, height]"),
        (#"{"kind": "flow", "itemSize": [-1, 2]}"#, "layout.itemSize[0]: must not be negative, got -1"),
        (#"{"kind": "flow", "itemSize": [1, 1e999]}"#, "layout.itemSize[1]: must be a finite number"),
        (#"{"kind": "flow", "itemSpacing": "wide"}"#, "layout.itemSpacing: must be a number, got a string"),
        (#"{"kind": "flow", "lineSpacing": -0.5}"#, "layout.lineSpacing: must not be negative, got -0.5"),
        (#"{"kind": "flow", "alignment": "left"}"#,
         #"layout.alignment: must be one of "justified", "start", "center", "end", got "left""#),
        (#"{"kind": "flow", "alignment": 3}"#, "layout.alignment: must be a string, got a number"),
        (#"{"kind": "flow", "itemSize": [], "alignment": "left"}"#, "layout.itemSize: must be an array of two numbers [width, height]"),

        (#"{"kind": "grid", "fraction": 0}"#, "layout.fraction: must be at least 1, got 0"),
        (#"{"kind": "grid", "fraction": 2.5}"#, "layout.fraction: must be an integer, got 2.5"),
        (#"{"kind": "grid", "fraction": "two"}"#, "layout.fraction: must be a number, got a string"),
        (#"{"kind": "grid", "fraction": 1e999}"#, "layout.fraction: must be a finite number"),
        (#"{"kind": "grid", "aspectRatio": 0}"#, "layout.aspectRatio: must be above 0, got 0"),
        (#"{"kind": "grid", "itemSpacing": -1}"#, "layout.itemSpacing: must not be negative, got -1"),
        (#"{"kind": "grid", "lineSpacing": true}"#, "layout.lineSpacing: must be a number, got a boolean"),
        (#"{"kind": "grid", "alignment": "middle"}"#,
         #"layout.alignment: must be one of "justified", "start", "center", "end", got "middle""#),
        (#"{"kind": "grid", "fraction": 0, "aspectRatio": 0}"#, "layout.fraction: must be at least 1, got 0"),

        (#"{"kind": "scaledGrid", "divisions": 3, "spacing": -2}"#, "layout.spacing: must not be negative, got -2"),
        (#"{"kind": "scaledGrid", "divisions": 3, "aspectRatio": -1}"#, "layout.aspectRatio: must be above 0, got -1"),
        (#"{"kind": "scaledGrid", "spacing": -2}"#, "layout.divisions: is required"),
        (#"{"kind": "scaledGrid", "divisions": 3, "spacing": -2, "aspectRatio": 0}"#, "layout.spacing: must not be negative, got -2"),

        (#"{"kind": "mozaik", "rowHeight": 5}"#, "layout.columns: is required: an array of column widths (or give columnCount)"),
        (#"{"kind": "mozaik", "columns": "3", "rowHeight": 5}"#, "layout.columns: must be an array of column widths, got a string"),
        (#"{"kind": "mozaik", "columns": [1, "a"], "rowHeight": 5}"#, "layout.columns[1]: must be a number, got a string"),
        (#"{"kind": "mozaik", "columnCount": 0, "rowHeight": 5}"#, "layout.columnCount: must be at least 1, got 0"),
        (#"{"kind": "mozaik", "columnCount": 1.5, "rowHeight": 5}"#, "layout.columnCount: must be an integer, got 1.5"),
        (#"{"kind": "mozaik", "columnCount": 2}"#, "layout.rowHeight: is required"),
        (#"{"kind": "mozaik", "columnCount": 2, "rowHeight": -1}"#, "layout.rowHeight: must not be negative, got -1"),
        (#"{"kind": "mozaik", "columnCount": 2, "rowHeight": 5, "itemSpacing": -1}"#, "layout.itemSpacing: must not be negative, got -1"),
        (#"{"kind": "mozaik", "columnCount": 2, "rowHeight": 5, "lineSpacing": "a"}"#, "layout.lineSpacing: must be a number, got a string"),
        (#"{"kind": "mozaik", "columnCount": 2, "rowHeight": 5, "order": "random"}"#,
         #"layout.order: must be one of "dense", "ordered", got "random""#),
        (#"{"kind": "mozaik", "rowHeight": -1}"#, "layout.columns: is required: an array of column widths (or give columnCount)"),
        (#"{"kind": "mozaik", "columnCount": 2, "order": "random"}"#, "layout.rowHeight: is required"),

        (#"{"kind": "pattern"}"#, "layout.blocks: is required"),
        (#"{"kind": "pattern", "blocks": {}}"#, "layout.blocks: must be an array of blocks, got an object"),
        (#"{"kind": "pattern", "blocks": []}"#, "layout.blocks: must not be empty"),
        (#"{"kind": "pattern", "blocks": [3]}"#, "layout.blocks[0]: a block must be an object, got a number"),
        (#"{"kind": "pattern", "blocks": [{"frames": [[0, 0, 1, 1]]}]}"#, "layout.blocks[0].units: is required"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "unitAspect": 0, "frames": [[0, 0, 1, 1]]}]}"#,
         "layout.blocks[0].unitAspect: must be above 0, got 0"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "gutter": -1, "frames": [[0, 0, 1, 1]]}]}"#,
         "layout.blocks[0].gutter: must not be negative, got -1"),
        (#"{"kind": "pattern", "blocks": [{"units": 2}]}"#, "layout.blocks[0].frames: is required"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]], "repeated": 1}]}"#,
         "layout.blocks[0].repeated: must be true or false, got a number"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": 3}]}"#,
         "layout.blocks[0].frames: must be an array of [x, y, width, height] arrays, got a number"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1], [0, 0, "1", 1]]}]}"#,
         "layout.blocks[0].frames[1]: must be an array of four numbers [x, y, width, height]"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": []}]}"#,
         "layout.blocks[0].frames: must not be empty: a block without frames can place no item"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[-1, 0, 1, 1]]}]}"#, "layout.blocks[0].frames[0][0]: must not be negative, got -1"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "repeated": 1}]}"#, "layout.blocks[0].frames: is required"),
        (#"{"kind": "pattern", "blocks": [{"gutter": -1, "frames": 3}]}"#, "layout.blocks[0].units: is required"),
        (#"{"kind": "pattern", "blocks": [{"units": 0, "unitAspect": 0}]}"#, "layout.blocks[0].units: must be at least 1, got 0"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "unitAspect": 0, "gutter": -1}]}"#, "layout.blocks[0].unitAspect: must be above 0, got 0"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "gutter": -1}]}"#, "layout.blocks[0].gutter: must not be negative, got -1"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}], "spacing": 3}"#,
         #"layout.spacing: must be an object {"before", "between", "after"}, got a number"#),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}], "spacing": {"before": -1}}"#,
         "layout.spacing.before: must not be negative, got -1"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}], "spacing": {"between": "x"}}"#,
         "layout.spacing.between: must be a number, got a string"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}], "spacing": {"after": 1e999}}"#,
         "layout.spacing.after: must be a finite number"),
        (#"{"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}], "spacing": {"after": -1, "before": -2}}"#,
         "layout.spacing.before: must not be negative, got -2"),
        (#"{"kind": "pattern", "blocks": [], "spacing": 3}"#, "layout.blocks: must not be empty"),

        (#"{"kind": "staggered", "columns": 2, "itemSpacing": -1}"#, "layout.itemSpacing: must not be negative, got -1"),
        (#"{"kind": "staggered", "columns": 2, "lineSpacing": -1}"#, "layout.lineSpacing: must not be negative, got -1"),
        (#"{"kind": "staggered", "columns": 2, "placement": "tallest"}"#,
         #"layout.placement: must be one of "shortest", "roundRobin", got "tallest""#),
        (#"{"kind": "staggered", "placement": "tallest"}"#, "layout.columns: is required"),

        (#"{"kind": "mosaic", "columns": 3, "lineMultiple": 0.5}"#, "layout.lineMultiple: must be at least 1, got 0.5"),
        (#"{"kind": "mosaic", "columns": 3, "itemSpacing": -1}"#, "layout.itemSpacing: must not be negative, got -1"),
        (#"{"kind": "mosaic", "columns": 3, "lineSpacing": []}"#, "layout.lineSpacing: must be a number, got an array"),
        (#"{"kind": "mosaic", "lineMultiple": 0}"#, "layout.columns: is required"),
        (#"{"kind": "mosaic", "columns": 3, "lineMultiple": 0, "itemSpacing": -1}"#, "layout.lineMultiple: must be at least 1, got 0"),
    ]

    @Test("each field's rule gives its exact path and words; the first field in order is named", arguments: rejected.indices)
    func rejectedParameters(index: Int) throws {
        let (json, error) = Self.rejected[index]
        let value = try JSONParser.parse(json)
        #expect(throws: SpecError.self, "\(json)") {
            do {
                _ = try LayoutRegistry.standard.layout(from: value, path: JSONPath.root.appending("layout"))
            } catch let thrown as SpecError {
                #expect(thrown.description == error, "\(json)")
                throw thrown
            }
        }
    }
}
