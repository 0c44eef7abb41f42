import Testing
import TesseraTestSupport
@testable import TesseraLayout

/// The contract's "Orthogonal sections (carousels)": worked examples with
/// exact frames on both axes, the rules of empty carousels, and errors
/// named by their JSON paths.
@Suite("orthogonal sections: worked examples")
struct OrthogonalSectionTests {
    /// A vertical feed: a row, then a flow carousel 120 long with insets,
    /// a header, a footer and a background.
    static let vertical = """
    {"format": 1, "axis": "vertical", "sectionSpacing": 10, "sections": [
      {"layout": {"kind": "flow"}, "items": [{"size": [390, 40]}]},
      {"layout": {"kind": "flow", "itemSpacing": 10, "lineSpacing": 12, "alignment": "start"},
       "orthogonal": {"length": 120}, "insets": {"top": 10, "left": 16, "bottom": 10, "right": 16},
       "header": {"size": 30}, "footer": {"size": 20}, "background": true,
       "items": [{"size": [150, 45]}, {"size": [150, 45]}, {"size": [150, 45]}]}]}
    """

    @Test("vertical: a flow carousel runs horizontally at cross extent L, moved down by start + header")
    func verticalFlow() throws {
        let result = try layout(Self.vertical, extent: 390)
        // Section 1 starts at 40 + 10. Its kind runs horizontally at extent
        // 120: avail 120 − 10 − 10 = 100 holds two items of 45 with 10
        // between them per line (a line runs down); lines go right, 12 apart,
        // from insets.left. Cells move down by 50 + 30 (and insets.top 10).
        #expect(cellFrames(result, section: 1) == [[16, 90, 150, 45], [16, 145, 150, 45], [178, 90, 150, 45]])
        let elements = result.elements(ofSection: 1)
        #expect(elements.first { $0.kind == .header }?.frame == Rect(x: 0, y: 50, width: 390, height: 30))
        // The footer follows L: 50 + 30 + 120.
        #expect(elements.first { $0.kind == .footer }?.frame == Rect(x: 0, y: 200, width: 390, height: 20))
        #expect(elements.first { $0.kind == .background }?.frame == Rect(x: 0, y: 50, width: 390, height: 170))
        #expect(result.contentSize == Size(width: 390, height: 220))
        // W: insets.left + two lines of 150 with 12 between + insets.right.
        #expect(result.sections[1].orthogonalContentLength == 344)
        #expect(result.sections[0].orthogonalContentLength == nil)
        #expect(result.orthogonalContent(of: result.elements) == [OrthogonalContent(section: 1, contentLength: 344)])
        #expect(result.orthogonalContent(of: result.elements(ofSection: 0)) == [])
    }

    @Test("vertical: offsets move a carousel's cells, matched against the rect moved by +offset")
    func verticalOffsets() throws {
        let result = try layout(Self.vertical, extent: 390)
        let rect = Rect(x: 0, y: 0, width: 390, height: 300)
        // Offset 100: the rect is [100, 490] across; every cell meets it, reported 100 to the left.
        let scrolled = result.elements(in: rect, offsets: OrthogonalOffsets([1: 100])).filter { $0.section == 1 && $0.kind == .cell }
        #expect(scrolled.map(\.frame) == [
            Rect(x: -84, y: 90, width: 150, height: 45), Rect(x: -84, y: 145, width: 150, height: 45), Rect(x: 78, y: 90, width: 150, height: 45),
        ])
        // Offset 200: items 0 and 1 end at 166, before the rect's 200.
        let further = result.elements(in: rect, offsets: OrthogonalOffsets([1: 200]))
        #expect(further.filter { $0.kind == .cell }.map(\.item) == [0, 2])
        #expect(further.first { $0.section == 1 && $0.kind == .cell }?.frame == Rect(x: -22, y: 90, width: 150, height: 45))
        // Headers, footers, backgrounds and other sections ignore offsets.
        #expect(further.filter { $0.kind != .cell || $0.section == 0 } == result.elements(in: rect).filter { $0.kind != .cell || $0.section == 0 })
        #expect(result.elements(in: rect, offsets: OrthogonalOffsets([0: 500])) == result.elements(in: rect))
        // Right to left, offsets first: [−22, 90, 150, 45] mirrors to [262, 90, 150, 45].
        let mirrored = result.elements(in: rect, direction: .rightToLeft, offsets: OrthogonalOffsets([1: 200]))
        #expect(mirrored.first { $0.section == 1 && $0.item == 2 }?.frame == Rect(x: 262, y: 90, width: 150, height: 45))
        #expect(result.element(section: 1, item: 2, direction: .rightToLeft, offsets: OrthogonalOffsets([1: 200]))?.frame
            == Rect(x: 262, y: 90, width: 150, height: 45))
        #expect(result.element(section: 1, item: 0, direction: .leftToRight, offsets: OrthogonalOffsets([1: -4]))?.frame
            == Rect(x: 20, y: 90, width: 150, height: 45))
    }

    /// A horizontal feed: a column, then a grid carousel 120 long that runs vertically.
    static let horizontal = """
    {"format": 1, "axis": "horizontal", "sections": [
      {"layout": {"kind": "flow"}, "items": [{"size": [40, 300]}]},
      {"layout": {"kind": "grid", "fraction": 2, "itemSpacing": 10, "lineSpacing": 8},
       "orthogonal": {"length": 120}, "insets": {"top": 16, "left": 10, "bottom": 16, "right": 10},
       "header": {"size": 30}, "footer": {"size": 20}, "items": {"count": 5, "cycle": [{}]}}]}
    """

    @Test("horizontal: a grid carousel runs vertically at cross extent L, moved right by start + header")
    func horizontalGrid() throws {
        let result = try layout(Self.horizontal, extent: 300)
        // The kind runs vertically at width 120: avail 120 − 10 − 10 = 100,
        // items (100 − 10) / 2 = 45 square, rows 8 apart from insets.top;
        // cells move right by 40 + 30 (and insets.left 10).
        #expect(cellFrames(result, section: 1) == [
            [80, 16, 45, 45], [135, 16, 45, 45], [80, 69, 45, 45], [135, 69, 45, 45], [80, 122, 45, 45],
        ])
        let elements = result.elements(ofSection: 1)
        #expect(elements.first { $0.kind == .header }?.frame == Rect(x: 40, y: 0, width: 30, height: 300))
        #expect(elements.first { $0.kind == .footer }?.frame == Rect(x: 190, y: 0, width: 20, height: 300))
        #expect(result.contentSize == Size(width: 210, height: 300))
        // W: insets.top + three rows (45 · 3 + 8 · 2) + insets.bottom.
        #expect(result.sections[1].orthogonalContentLength == 183)
        // An offset moves cells up (across a horizontal feed).
        let answer = result.elements(in: Rect(x: 0, y: 0, width: 210, height: 50), offsets: OrthogonalOffsets([1: 60]))
        // The rect moves to y 60…110: rows at 16 and 69 meet it, reported 60 up.
        #expect(answer.filter { $0.kind == .cell && $0.section == 1 }.map(\.frame) == [
            Rect(x: 80, y: -44, width: 45, height: 45), Rect(x: 135, y: -44, width: 45, height: 45),
            Rect(x: 80, y: 9, width: 45, height: 45), Rect(x: 135, y: 9, width: 45, height: 45),
        ])
    }

    @Test("a carousel with a header and no items still takes L; one with neither is empty")
    func emptyCarousels() throws {
        let json = """
        {"format": 1, "sectionSpacing": 5, "sections": [
          {"layout": {"kind": "flow"}, "orthogonal": {"length": 80}, "header": {"size": 20}, "background": true},
          {"layout": {"kind": "flow"}, "orthogonal": {"length": 80}},
          {"layout": {"kind": "flow"}, "items": [{"size": [10, 10]}]}]}
        """
        let result = try layout(json, extent: 100)
        #expect(result.sections[0].end == 100)
        #expect(result.elements(ofSection: 0).map(\.frame) == [Rect(x: 0, y: 0, width: 100, height: 20), Rect(x: 0, y: 0, width: 100, height: 100)])
        // No items: W is 0 (the other spec's one section would be empty).
        #expect(result.sections[0].orthogonalContentLength == 0)
        #expect(result.sections[1].isEmpty)
        #expect(result.elements(ofSection: 1).isEmpty)
        // The empty carousel adds no spacing: section 2 starts at 100 + 5.
        #expect(cellFrames(result, section: 2) == [[0, 105, 10, 10]])
    }

    @Test("breakpoints inside a carousel resolve at the container's extent, not at its length")
    func breakpointsAtContainerExtent() throws {
        let json = """
        {"format": 1, "sections": [{"orthogonal": {"length": 200},
          "layout": {"kind": "staggered", "columns": 1, "breakpoints": [{"minExtent": 150, "columns": 2}, {"minExtent": 500, "columns": 4}]},
          "items": [{"length": 30}, {"length": 30}]}]}
        """
        // Width 1000 picks 4 columns: 4 rows of 50 across the carousel's 200.
        #expect(cellFrames(try layout(json, extent: 1000)) == [[0, 0, 30, 50], [0, 50, 30, 50]])
        // Width 300 picks 2 (L = 200 alone would pick 2 as well, 4 never).
        #expect(cellFrames(try layout(json, extent: 300)) == [[0, 0, 30, 100], [0, 100, 30, 100]])
        // Width 100 is below every breakpoint, although L = 200 is above the first: one row.
        #expect(cellFrames(try layout(json, extent: 100)) == [[0, 0, 30, 200], [30, 0, 30, 200]])
    }

    @Test("pinned headers of a carousel pin along the feed and ignore offsets")
    func pinnedHeader() throws {
        let json = """
        {"format": 1, "sections": [{"layout": {"kind": "flow"}, "orthogonal": {"length": 100},
          "header": {"size": 20, "pinned": true}, "items": [{"size": [50, 100]}, {"size": [50, 100]}]},
          {"layout": {"kind": "flow"}, "items": [{"size": [10, 400]}]}]}
        """
        let result = try layout(json, extent: 300)
        let visible = result.visibleElements(viewport: Rect(x: 0, y: 50, width: 300, height: 100), offsets: OrthogonalOffsets([0: 30]))
        // Cells span [20, 120]: the header pins at min(50, 120 − 20) = 50, full width.
        #expect(visible.first { $0.kind == .header }?.frame == Rect(x: 0, y: 50, width: 300, height: 20))
        #expect(visible.filter { $0.kind == .cell && $0.section == 0 }.map(\.frame) == [
            Rect(x: -30, y: 20, width: 50, height: 100), Rect(x: 20, y: 20, width: 50, height: 100),
        ])
    }

    @Test("the JSON of an answer lists the orthogonal sections it holds elements of")
    func jsonMember() throws {
        let result = try layout(Self.vertical, extent: 390)
        let elements = result.elements(in: Rect(x: 0, y: 60, width: 10, height: 10))
        let text = LayoutJSON.text { LayoutJSON.appendAnswer(summary: result.summary, orthogonal: result.orthogonalContent(of: elements), elements: elements, to: &$0) }
        #expect(text.hasPrefix(#"{"axis": "vertical", "extent": 390, "contentSize": [390, 220], "orthogonal": [{"section": 1, "contentLength": 344}],"#))
        let plain = LayoutJSON.text { LayoutJSON.appendAnswer(summary: result.summary, elements: result.elements(ofSection: 0), to: &$0) }
        #expect(!plain.contains("orthogonal"))
        let spec = try Spec(jsonText: Self.vertical)
        #expect(try Spec(jsonText: JSONWriter.canonical(spec.jsonValue)).sections[1].orthogonal == Orthogonal(length: 120))
    }

    static let errorCases: [(extra: String, path: String, reason: String)] = [
        (#", "orthogonal": {"length": 0}"#, "sections[0].orthogonal.length", "must be above 0, got 0"),
        (#", "orthogonal": {"length": -5}"#, "sections[0].orthogonal.length", "must be above 0, got -5"),
        (#", "orthogonal": {"length": 1e999}"#, "sections[0].orthogonal.length", "must be a finite number"),
        (#", "orthogonal": {"length": "wide"}"#, "sections[0].orthogonal.length", "must be a number, got a string"),
        (#", "orthogonal": {}"#, "sections[0].orthogonal.length", "is required"),
        (#", "orthogonal": true"#, "sections[0].orthogonal", "must be an object with a length, got a boolean"),
        (#", "orthogonal": {"length": 30}, "insets": {"top": 20, "bottom": 20}"#, "sections[0].insets",
         "the insets along the scroll axis (40) exceed the orthogonal length (30)"),
    ]

    @Test("spec errors name the JSON path", arguments: errorCases.indices)
    func specErrors(index: Int) throws {
        let (extra, path, reason) = Self.errorCases[index]
        let json = #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{}]\#(extra)}]}"#
        let error = try #require(specError(json))
        #expect(error.path == path)
        #expect(error.reason == reason)
    }
}
