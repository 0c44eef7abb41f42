import Testing
@testable import TesseraLayout

@Suite("pinned headers and footers")
struct PinningTests {
    // Section 0: header 20 (pinned) at 0, cells 20...220, footer 10 (pinned) at 220.
    // Section 1: header 20 (pinned) at 230, cells 250...450.
    static let spec = """
    {"format": 1, "sections": [
      {"layout": {"kind": "flow"}, "header": {"size": 20, "pinned": true}, "footer": {"size": 10, "pinned": true},
       "items": [{"size": [100, 100]}, {"size": [100, 100]}]},
      {"layout": {"kind": "flow"}, "header": {"size": 20, "pinned": true}, "items": [{"size": [100, 100]}, {"size": [100, 100]}]},
      {"layout": {"kind": "flow"}, "header": {"size": 15, "pinned": true}}
    ]}
    """

    @Test("a pinned header follows the viewport until its section's cells end")
    func headerFollowsViewport() throws {
        let result = try layout(Self.spec, extent: 100)
        let visible = result.visibleElements(viewport: Rect(x: 0, y: 50, width: 100, height: 100))
        let header = visible.first { $0.kind == .header && $0.section == 0 }
        #expect(header?.frame == Rect(x: 0, y: 50, width: 100, height: 20))
        #expect(header?.zIndex == 2)
        // Near the end of the section it stops at b − size = 220 − 20.
        let late = result.visibleElements(viewport: Rect(x: 0, y: 210, width: 100, height: 100))
        #expect(late.first { $0.kind == .header && $0.section == 0 }?.frame.y == 200)
        // It never moves above its original position.
        let early = result.visibleElements(viewport: Rect(x: 0, y: -30, width: 100, height: 100))
        #expect(early.first { $0.kind == .header && $0.section == 0 }?.frame.y == 0)
    }

    @Test("a pinned footer sticks to the viewport's end, bounded by its section's first cell")
    func footerSticksToEnd() throws {
        let result = try layout(Self.spec, extent: 100)
        let visible = result.visibleElements(viewport: Rect(x: 0, y: 0, width: 100, height: 100))
        let footer = visible.first { $0.kind == .footer }
        // min(original 220, viewport end 100 − 10) = 90, and a − insets.top = 20 is below that.
        #expect(footer?.frame == Rect(x: 0, y: 90, width: 100, height: 10))
        #expect(footer?.zIndex == 2)
        let tiny = result.visibleElements(viewport: Rect(x: 0, y: 0, width: 100, height: 25))
        #expect(tiny.first { $0.kind == .footer }?.frame.y == 20)
    }

    @Test("a section without items pins nothing; its header keeps zIndex 1")
    func emptySectionPinsNothing() throws {
        let result = try layout(Self.spec, extent: 100)
        let visible = result.visibleElements(viewport: Rect(x: 0, y: 440, width: 100, height: 100))
        let header = visible.first { $0.section == 2 }
        #expect(header?.frame == Rect(x: 0, y: 450, width: 100, height: 15))
        #expect(header?.zIndex == 1)
    }

    @Test("viewport results equal the contract's formulas applied by hand to every viewport")
    func everyViewport() throws {
        let result = try layout(Self.spec, extent: 100)
        // Unpinned, from the comment on `spec`: each section's header y and
        // size, its two 100-point cells' tops (a is the first, b = a + 200)
        // and its footer; no insets, so a − insets.top = a.
        let sections: [(index: Int, header: (y: Double, size: Double), cellTops: [Double], footer: (y: Double, size: Double)?)] = [
            (0, (0, 20), [20, 120], (220, 10)),
            (1, (230, 20), [250, 350], nil),
        ]
        for start in stride(from: -50.0, through: 500, by: 7.5) {
            let viewport = Rect(x: 0, y: start, width: 100, height: 60)
            var expected: [LayoutElement] = []
            func add(_ kind: LayoutElement.Kind, _ section: Int, item: Int? = nil, y: Double, height: Double, zIndex: Int) {
                let frame = Rect(x: 0, y: y, width: 100, height: height)
                if frame.intersects(viewport) { expected.append(LayoutElement(kind: kind, section: section, item: item, frame: frame, zIndex: zIndex)) }
            }
            for section in sections {
                let a = section.cellTops[0], b = section.cellTops[1] + 100
                add(.header, section.index, y: max(section.header.y, min(start, b - section.header.size)), height: section.header.size, zIndex: 2)
                for (item, top) in section.cellTops.enumerated() {
                    add(.cell, section.index, item: item, y: top, height: 100, zIndex: 0)
                }
                if let footer = section.footer {
                    add(.footer, section.index, y: max(a, min(footer.y, start + 60 - footer.size)), height: footer.size, zIndex: 2)
                }
            }
            // The empty section's header is not pinned and keeps zIndex 1.
            add(.header, 2, y: 450, height: 15, zIndex: 1)
            #expect(result.visibleElements(viewport: viewport) == expected, "viewport at \(start)")
        }
    }

    /// The pinned header's and footer's frames in a viewport, or nil where
    /// they are not visible; checks that pinned ones have zIndex 2.
    func pinned(_ result: LayoutResult, _ viewport: Rect, sourceLocation: SourceLocation = #_sourceLocation) -> [Rect?] {
        let visible = result.visibleElements(viewport: viewport)
        return [LayoutElement.Kind.header, .footer].map { kind in
            let element = visible.first { $0.kind == kind }
            if let element { #expect(element.zIndex == 2, sourceLocation: sourceLocation) }
            return element?.frame
        }
    }

    @Test("insets: the footer stops at the top of the section's insets, a − insets.top, not at its first cell")
    func footerBoundedByInsets() throws {
        // Header 0…30, insets.top 10: cells [5, 40, 190, 40] and [5, 90, 190, 40],
        // so a = 40 and b = 130; insets.bottom 20 puts the footer at 150.
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "flow", "lineSpacing": 10},
          "header": {"size": 30, "pinned": true}, "footer": {"size": 15, "pinned": true},
          "insets": {"top": 10, "left": 5, "bottom": 20, "right": 5}, "items": [{"size": [190, 40]}, {"size": [190, 40]}]}]}
        """, extent: 200)
        #expect(cellFrames(result) == [[5, 40, 190, 40], [5, 90, 190, 40]])
        func at(_ y: Double) -> Rect { Rect(x: 0, y: y, width: 200, height: 30) }
        func footer(_ y: Double) -> Rect { Rect(x: 0, y: y, width: 200, height: 15) }
        // header max(0, min(start, 130 − 30)); footer max(40 − 10, min(150, start + 60 − 15)).
        #expect(pinned(result, Rect(x: 0, y: -20, width: 200, height: 60)) == [at(0), footer(30)])
        #expect(pinned(result, Rect(x: 0, y: 0, width: 200, height: 60)) == [at(0), footer(45)])
        #expect(pinned(result, Rect(x: 0, y: 50, width: 200, height: 60)) == [at(50), footer(95)])
        #expect(pinned(result, Rect(x: 0, y: 120, width: 200, height: 60)) == [at(100), footer(150)])
        #expect(pinned(result, Rect(x: 0, y: 160, width: 200, height: 60)) == [nil, footer(150)])
    }

    @Test("horizontal: a pinned footer sticks to the viewport's right edge, bounded by a − insets.left")
    func horizontalFooter() throws {
        // Along x: header 0…20, insets.left 8, cells in two lines 28…88 and
        // 88…148 (a = 28, b = 148), insets.right 4, footer 152…162.
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{"layout": {"kind": "flow", "alignment": "start"},
          "header": {"size": 20, "pinned": true}, "footer": {"size": 10, "pinned": true},
          "insets": {"top": 5, "left": 8, "bottom": 5, "right": 4}, "items": [{"size": [60, 40]}, {"size": [60, 40]}, {"size": [60, 40]}]}]}
        """, extent: 100)
        #expect(cellFrames(result) == [[28, 5, 60, 40], [28, 45, 60, 40], [88, 5, 60, 40]])
        #expect(result.contentSize == Size(width: 162, height: 100))
        func header(_ x: Double) -> Rect { Rect(x: x, y: 0, width: 20, height: 100) }
        func footer(_ x: Double) -> Rect { Rect(x: x, y: 0, width: 10, height: 100) }
        // header max(0, min(start, 148 − 20)); footer max(28 − 8, min(152, start + 75 − 10)).
        #expect(pinned(result, Rect(x: -50, y: 0, width: 75, height: 100)) == [header(0), footer(20)])
        #expect(pinned(result, Rect(x: 0, y: 0, width: 75, height: 100)) == [header(0), footer(65)])
        #expect(pinned(result, Rect(x: 100, y: 0, width: 75, height: 100)) == [header(100), footer(152)])
        #expect(pinned(result, Rect(x: 140, y: 0, width: 75, height: 100)) == [header(128), footer(152)])
    }

    @Test("horizontal: pinned headers follow the viewport along x")
    func horizontal() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{"layout": {"kind": "flow"}, "header": {"size": 20, "pinned": true},
          "items": [{"size": [100, 50]}, {"size": [100, 50]}]}]}
        """, extent: 50)
        let visible = result.visibleElements(viewport: Rect(x: 30, y: 0, width: 100, height: 50))
        #expect(visible.first?.frame == Rect(x: 30, y: 0, width: 20, height: 50))
    }
}
