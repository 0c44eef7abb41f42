import Testing
import TesseraTestSupport
@testable import TesseraLayout

/// The contract's "Right-to-left": the answer for a rect R is mirror applied
/// to every element of the left-to-right answer for mirror(R), pinning
/// applied before mirroring; M is the cross extent of a vertical spec and
/// the content width of a horizontal one.
@Suite("right to left")
struct RightToLeftTests {
    static let seeds: [UInt64] = Array(1...120)

    /// [M − x − w, y, w, h], written here apart from the engine's.
    static func mirrored(_ rect: Rect, width: Double) -> Rect {
        Rect(x: width - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height)
    }

    static func mirrored(_ element: LayoutElement, width: Double) -> LayoutElement {
        LayoutElement(kind: element.kind, section: element.section, item: element.item, frame: mirrored(element.frame, width: width), zIndex: element.zIndex)
    }

    @Test("a worked example: a vertical staggered layout read right to left")
    func workedExample() throws {
        let result = try layout(BreakpointTests.staggered, extent: 400)
        // Left to right item 0 is [0, 0, 200, 100]; mirrored across 400.
        #expect(result.element(section: 0, item: 0, direction: .rightToLeft)?.frame == Rect(x: 200, y: 0, width: 200, height: 100))
        // R = [0, 0, 100, 60] mirrors to [300, 0, 100, 60], which meets items 1 and 2 (x 200…400).
        let answer = result.elements(in: Rect(x: 0, y: 0, width: 100, height: 60), direction: .rightToLeft)
        #expect(answer.map(\.item) == [1, 2])
        #expect(answer.map(\.frame) == [Rect(x: 0, y: 0, width: 200, height: 50), Rect(x: 0, y: 50, width: 200, height: 80)])
        #expect(result.elements(direction: .rightToLeft).map(\.frame) == result.elements.map { Self.mirrored($0.frame, width: 400) })
    }

    @Test("a horizontal spec mirrors across its content width, pinned headers included")
    func horizontalPinned() throws {
        let json = """
        {"format": 1, "axis": "horizontal", "sections": [
          {"header": {"size": 20, "pinned": true}, "layout": {"kind": "flow"}, "items": [{"size": [100, 60]}, {"size": [100, 60]}]},
          {"layout": {"kind": "flow"}, "items": [{"size": [30, 50]}]}]}
        """
        let result = try layout(json, extent: 100)
        // Content width: 20 + 100 + 100 + 30 = 250. Left to right the header pins at x = 60 for a viewport from 60;
        // right to left the viewport [140, 0, 50, 100] mirrors to [60, 0, 50, 100].
        #expect(result.contentSize.width == 250)
        let answer = result.visibleElements(viewport: Rect(x: 140, y: 0, width: 50, height: 100), direction: .rightToLeft)
        let header = try #require(answer.first { $0.kind == .header })
        #expect(header.frame == Rect(x: 250 - 60 - 20, y: 0, width: 20, height: 100))
        #expect(header.zIndex == 2)
        #expect(answer.filter { $0.kind == .cell }.map(\.item) == [0])
    }

    @Test("rect and viewport answers equal the mirror of a brute-force left-to-right answer for the mirrored rect",
          arguments: seeds)
    func randomSpecs(seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let (json, extent) = generator.spec(sections: 1...4, items: 1...40, axis: seed % 2 == 0 ? .vertical : .horizontal)
        let spec = try Spec(jsonText: json)
        let result = try LayoutEngine().layout(spec, crossExtent: extent)
        let all = result.elements
        let width = spec.axis == .vertical ? extent : result.contentSize.width
        var random = SeededRandom(seed: seed ^ 0x5EED)
        let size = result.contentSize
        for _ in 0..<30 {
            let rect = Rect(
                x: random.quarter(-50...(size.width + 50)), y: random.quarter(-50...(size.height + 50)),
                width: random.quarter(0...400), height: random.quarter(0...900)
            )
            let mirror = Self.mirrored(rect, width: width)
            let plain = all.filter { $0.frame.intersects(mirror) }.map { Self.mirrored($0, width: width) }
            #expect(result.elements(in: rect, direction: .rightToLeft) == plain, "seed \(seed) rect \(rect)\n\(json)")
            let pinned = ContractReading.answer(all, spec: spec, rect: rect, pinning: true, direction: .rightToLeft, contentSize: result.contentSize)
            let visible = result.visibleElements(viewport: rect, direction: .rightToLeft)
            #expect(Set(visible) == Set(pinned) && visible.count == pinned.count, "seed \(seed) viewport \(rect)\n\(json)")
        }
        for element in all where element.kind == .cell {
            let item = try #require(element.item)
            #expect(result.element(section: element.section, item: item, direction: .rightToLeft) == Self.mirrored(element, width: width))
        }
    }
}
