import Testing
@testable import TesseraLayout

/// The contract's "Breakpoints": parameters by cross extent, every set
/// validated when the spec is read, errors at the breakpoint's path.
@Suite("breakpoints")
struct BreakpointTests {
    /// The contract's example: staggered, 2 columns, 3 from 600 points, 5
    /// with itemSpacing 8 from 1024; items of explicit lengths.
    static let staggered = """
    {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2, "breakpoints": [
        {"minExtent": 600, "columns": 3},
        {"minExtent": 1024, "columns": 5, "itemSpacing": 8}]},
      "items": [{"length": 100}, {"length": 50}, {"length": 80}, {"length": 60}, {"length": 40}, {"length": 30}]}]}
    """

    @Test("the contract's example: 2 columns below 600, 3 from 600, 5 with itemSpacing 8 from 1024")
    func contractExample() throws {
        // 2 columns of 200: shortest column, ties to the left.
        #expect(cellFrames(try layout(Self.staggered, extent: 400)) == [
            [0, 0, 200, 100], [200, 0, 200, 50], [200, 50, 200, 80], [0, 100, 200, 60], [200, 130, 200, 40], [0, 160, 200, 30],
        ])
        #expect(cellFrames(try layout(Self.staggered, extent: 599)) == [
            [0, 0, 299.5, 100], [299.5, 0, 299.5, 50], [299.5, 50, 299.5, 80], [0, 100, 299.5, 60], [299.5, 130, 299.5, 40], [0, 160, 299.5, 30],
        ])
        // 3 columns of 200 from 600 (minExtent ≤ X).
        #expect(cellFrames(try layout(Self.staggered, extent: 600)) == [
            [0, 0, 200, 100], [200, 0, 200, 50], [400, 0, 200, 80], [200, 50, 200, 60], [400, 80, 200, 40], [0, 100, 200, 30],
        ])
        #expect(cellFrames(try layout(Self.staggered, extent: 1023)) == [
            [0, 0, 341, 100], [341, 0, 341, 50], [682, 0, 341, 80], [341, 50, 341, 60], [682, 80, 341, 40], [0, 100, 341, 30],
        ])
        // 5 columns of (1032 − 4·8)/5 = 200, 8 apart.
        #expect(cellFrames(try layout(Self.staggered, extent: 1032)) == [
            [0, 0, 200, 100], [208, 0, 200, 50], [416, 0, 200, 80], [624, 0, 200, 60], [832, 0, 200, 40], [832, 40, 200, 30],
        ])
    }

    @Test("each set equals the layout written without breakpoints, for every kind's parameters")
    func equalsPlainLayout() throws {
        let withBreakpoints = """
        {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2, "aspectRatio": 2, "breakpoints": [
            {"minExtent": 500, "fraction": 3, "itemSpacing": 4}, {"minExtent": 900, "aspectRatio": 1}]},
          "items": {"count": 9, "cycle": [{}]}}]}
        """
        func plain(_ parameters: String) -> String {
            "{\"format\": 1, \"sections\": [{\"layout\": {\"kind\": \"grid\", \(parameters)}, \"items\": {\"count\": 9, \"cycle\": [{}]}}]}"
        }
        let cases: [(Double, String)] = [
            (499, "\"fraction\": 2, \"aspectRatio\": 2"),
            (500, "\"fraction\": 3, \"aspectRatio\": 2, \"itemSpacing\": 4"),
            (899.75, "\"fraction\": 3, \"aspectRatio\": 2, \"itemSpacing\": 4"),
            (900, "\"fraction\": 3, \"aspectRatio\": 1, \"itemSpacing\": 4"),
        ]
        for (extent, parameters) in cases {
            let expected = try layout(plain(parameters), extent: extent)
            let actual = try layout(withBreakpoints, extent: extent)
            #expect(actual.elements == expected.elements, "at \(extent)")
            #expect(actual.contentSize == expected.contentSize, "at \(extent)")
        }
    }

    @Test("a null in a breakpoint resets the field: a mozaik switches from column widths to a column count")
    func nullResets() throws {
        let json = """
        {"format": 1, "sections": [{"layout": {"kind": "mozaik", "columns": [100, 50], "columnCount": 4, "rowHeight": 10, "breakpoints": [
            {"minExtent": 400, "columns": null}]}, "items": [{}, {}, {}]}]}
        """
        #expect(cellFrames(try layout(json, extent: 399)) == [[0, 0, 100, 10], [100, 0, 50, 10], [0, 10, 100, 10]])
        #expect(cellFrames(try layout(json, extent: 400)) == [[0, 0, 100, 10], [100, 0, 100, 10], [200, 0, 100, 10]])
    }

    @Test("the spec's JSON writes each breakpoint's changes and reads back to the same layouts")
    func roundTrip() throws {
        let spec = try Spec(jsonText: Self.staggered)
        let written = try #require(spec.sections.first?.jsonValue)
        guard case .object(let section) = written, case .object(let layoutObject)? = section["layout"] else {
            Issue.record("no layout object in \(written)")
            return
        }
        #expect(JSONWriter.canonical(layoutObject["breakpoints"] ?? .null)
            == JSONWriter.canonical(try JSONParser.parse("""
                [{"minExtent": 600, "columns": 3}, {"minExtent": 1024, "columns": 5, "itemSpacing": 8}]
                """)))
        let again = try Spec(json: spec.jsonValue)
        #expect(again.canonicalText == spec.canonicalText)
        for extent in [300.0, 600, 1100] {
            #expect(try LayoutEngine().layout(again, crossExtent: extent).elements == LayoutEngine().layout(spec, crossExtent: extent).elements)
        }
    }

    @Test("a Swift-built layout resolves by extent like one read from JSON")
    func swiftBuilt() throws {
        let built = BreakpointLayout(base: StaggeredLayout(columns: 2), breakpoints: [
            .init(minExtent: 600, layout: StaggeredLayout(columns: 3)),
            .init(minExtent: 1024, layout: StaggeredLayout(columns: 5, itemSpacing: 8)),
        ])
        let read = try Spec(jsonText: Self.staggered)
        var spec = read
        spec.sections[0].layout = built
        #expect(spec.canonicalText == read.canonicalText)
        for extent in [400.0, 600, 1032] {
            #expect(try LayoutEngine().layout(spec, crossExtent: extent).elements == LayoutEngine().layout(read, crossExtent: extent).elements)
        }
        #expect((built.resolved(crossExtent: 599.9) as? StaggeredLayout)?.columns == 2)
        #expect((built.resolved(crossExtent: 1024) as? StaggeredLayout)?.columns == 5)
    }

    @Test("errors name the breakpoint and the field", arguments: [
        // A field a breakpoint set, in the set it produces.
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "columns": 3}, {"minExtent": 900, "columns": 0}]}"#,
         "sections[0].layout.breakpoints[1].columns"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "itemSpacing": -1}]}"#,
         "sections[0].layout.breakpoints[0].itemSpacing"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "placement": "tallest"}]}"#,
         "sections[0].layout.breakpoints[0].placement"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "columns": null}]}"#,
         "sections[0].layout.breakpoints[0].columns"),
        (#"{"kind": "mozaik", "rowHeight": 10, "columnCount": 2, "breakpoints": [{"minExtent": 1, "columns": [10, "a"]}]}"#,
         "sections[0].layout.breakpoints[0].columns[1]"),
        (#"{"kind": "pattern", "blocks": [{"units": 1, "frames": [[0, 0, 1, 1]]}], "breakpoints": [{"minExtent": 1, "blocks": []}]}"#,
         "sections[0].layout.breakpoints[0].blocks"),
        // The base is validated as such, before any breakpoint.
        (#"{"kind": "staggered", "columns": 0, "breakpoints": [{"minExtent": 600, "columns": 3}]}"#,
         "sections[0].layout.columns"),
        (#"{"kind": "staggered", "breakpoints": [{"minExtent": 0, "columns": 3}]}"#, "sections[0].layout.columns"),
        // The rules of the breakpoints themselves.
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"columns": 3}]}"#, "sections[0].layout.breakpoints[0].minExtent"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": -1}]}"#, "sections[0].layout.breakpoints[0].minExtent"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": "600"}]}"#, "sections[0].layout.breakpoints[0].minExtent"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600}, {"minExtent": 600}]}"#,
         "sections[0].layout.breakpoints[1].minExtent"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600}, {"minExtent": 500}]}"#,
         "sections[0].layout.breakpoints[1].minExtent"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "kind": "grid"}]}"#,
         "sections[0].layout.breakpoints[0].kind"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "breakpoints": []}]}"#,
         "sections[0].layout.breakpoints[0].breakpoints"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": [600]}"#, "sections[0].layout.breakpoints[0]"),
        (#"{"kind": "staggered", "columns": 2, "breakpoints": {"minExtent": 600}}"#, "sections[0].layout.breakpoints"),
    ])
    func errorPaths(layoutObject: String, path: String) throws {
        let json = "{\"format\": 1, \"sections\": [{\"layout\": \(layoutObject), \"items\": [{}]}]}"
        // Refused when read, whatever extent would be laid out.
        do {
            _ = try Spec(jsonText: json)
            Issue.record("accepted \(layoutObject)")
        } catch let error as SpecError {
            #expect(error.path == path, "\(error)")
        }
    }

    @Test("an error found at an extent (spacing wider than the container) names the breakpoint that set it")
    func extentErrors() throws {
        let json = """
        {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2, "breakpoints": [
            {"minExtent": 300, "columns": 40, "itemSpacing": 10}]}, "items": [{}]}]}
        """
        #expect(specError(json, extent: 299) == nil)
        #expect(specError(json, extent: 300)?.path == "sections[0].layout.breakpoints[0].columns")
    }

    @Test("an empty breakpoints array is the base layout alone")
    func emptyList() throws {
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2, "breakpoints": []}}]}"#)
        #expect(spec.sections[0].layout is StaggeredLayout)
    }
}
