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

    @Test("viewport results equal a brute-force application of the rule")
    func bruteForce() throws {
        let result = try layout(Self.spec, extent: 100)
        for start in stride(from: -50.0, through: 500, by: 7.5) {
            let viewport = Rect(x: 0, y: start, width: 100, height: 60)
            var expected: [LayoutElement] = []
            for section in result.sections {
                let pinned = PinnedSupplementaries(section: section, axis: .vertical, crossExtent: 100, viewport: viewport)
                for element in result.elements(ofSection: section.index) {
                    var shown = element
                    if element.kind == .header, let header = pinned.header { shown = header }
                    if element.kind == .footer, let footer = pinned.footer { shown = footer }
                    if shown.frame.intersects(viewport) { expected.append(shown) }
                }
            }
            #expect(result.visibleElements(viewport: viewport) == expected, "viewport at \(start)")
        }
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
