import Testing
import TesseraLayout

// A plain import, not @testable: everything here is what a user of the
// library can write, so a declaration that should be public and is not
// fails to compile here.

/// A kind of our own: items stacked along the scroll axis, each `avail`
/// across and its `length` (else the layout's `itemLength`) along the scroll
/// axis, with `spacing` between them.
struct StackLayout: SectionLayout {
    static let kind = "stack"

    var itemLength: Double
    var spacing: Double

    init(parameters: LayoutParameters) throws {
        itemLength = try parameters.number("itemLength", default: 44)
        spacing = try parameters.number("spacing", default: 0)
    }

    var kind: String { Self.kind }

    var parameters: JSONObject {
        JSONObject(["itemLength": .number(itemLength), "spacing": .number(spacing)])
    }

    func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        Placer(available: context.available, itemLength: itemLength, spacing: spacing)
    }

    struct Placer: ItemPlacer {
        let available: Double
        let itemLength: Double
        let spacing: Double
        var end = 0.0

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            let start = index == 0 ? 0 : end + spacing
            let length = try item.validLength(at: location) ?? itemLength
            sink.emit(item: index, frame: LocalFrame(cross: 0, scroll: start, crossLength: available, scrollLength: length))
            end = start + length
        }

        func finish(into sink: inout FrameSink) -> Double { end }
    }
}

/// A pattern block computed in Swift: one frame across the whole available
/// extent, `length` long.
struct BannerBlock: PatternBlock {
    var length: Double
    var repeated: Bool

    func frames(in context: SectionContext, path: JSONPath) throws -> [LocalFrame] {
        [LocalFrame(cross: 0, scroll: 0, crossLength: context.available, scrollLength: length)]
    }

    var jsonValue: JSONValue { .object(JSONObject(["banner": .number(length), "repeated": .bool(repeated)])) }
}

@Suite("the public API, through a plain import")
struct PublicAPITests {
    static var registry: LayoutRegistry {
        var registry = LayoutRegistry.standard
        registry.register(StackLayout.kind, factory: StackLayout.init(parameters:))
        return registry
    }

    /// flow, then a stack with a header and insets, then a grid; 20 between sections.
    static func mixedSpec(stackSpacing: Double = 5, secondLength: Double = 50) -> String {
        """
        {"format": 1, "sectionSpacing": 20, "sections": [
          {"layout": {"kind": "flow", "itemSpacing": 10}, "items": [{"size": [100, 40]}, {"size": [100, 40]}]},
          {"layout": {"kind": "stack", "itemLength": 30, "spacing": \(stackSpacing)}, "header": {"size": 25},
           "insets": {"top": 10, "left": 20, "bottom": 10, "right": 20}, "items": [{}, {"length": \(secondLength)}, {}]},
          {"layout": {"kind": "grid", "fraction": 2, "aspectRatio": 2, "itemSpacing": 20}, "items": {"count": 3, "cycle": [{}]}}
        ]}
        """
    }

    static func frames(_ elements: [LayoutElement]) -> [[Double]] {
        elements.map { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
    }

    @Test("a registered kind of our own lays out beside built-in kinds, from JSON")
    func customKind() throws {
        let spec = try Spec(jsonText: Self.mixedSpec(), registry: Self.registry)
        let result = try LayoutEngine().layout(spec, crossExtent: 320)
        // flow: one (last) line, kept at the start. Section 1 starts at
        // 40 + 20; items top 60 + 25 + 10 = 95, avail 320 − 40 = 280; its
        // items reach 95 + 30 + 5 + 50 + 5 + 30 = 215, +10 inset = 225.
        // grid starts at 245: items (320 − 20)/2 = 150 wide, 75 high.
        #expect(Self.frames(result.elements) == [
            [0, 0, 100, 40], [110, 0, 100, 40],
            [0, 60, 320, 25], [20, 95, 280, 30], [20, 130, 280, 50], [20, 185, 280, 30],
            [0, 245, 150, 75], [170, 245, 150, 75], [0, 320, 150, 75],
        ])
        #expect(result.elements.map(\.kind) == [.cell, .cell, .header, .cell, .cell, .cell, .cell, .cell, .cell])
        #expect(result.contentSize == Size(width: 320, height: 395))
    }

    @Test("a kind of our own gets JSON paths in its errors; the standard registry does not know it")
    func customKindErrors() {
        #expect(throws: SpecError(path: "sections[1].layout.spacing", reason: "must not be negative, got -1")) {
            try Spec(jsonText: Self.mixedSpec(stackSpacing: -1), registry: Self.registry)
        }
        #expect(throws: SpecError(path: "sections[1].items[1].length", reason: "must be a finite number of at least 0, got -3")) {
            try LayoutEngine().layout(Spec(jsonText: Self.mixedSpec(secondLength: -3), registry: Self.registry), crossExtent: 320)
        }
        let unknown = SpecError(
            path: "sections[1].layout.kind",
            reason: "unknown kind \"stack\" (known: flow, grid, mosaic, mozaik, pattern, scaledGrid, staggered)"
        )
        #expect(throws: unknown) { try Spec(jsonText: Self.mixedSpec()) }
    }

    @Test("pattern blocks given as Swift values: unit blocks and a block of our own")
    func swiftPatternBlocks() throws {
        let units = PatternLayout.Block(units: 4, gutter: 4, frames: [
            PatternLayout.UnitFrame(x: 0, y: 0, width: 2, height: 2),
            PatternLayout.UnitFrame(x: 2, y: 0, width: 2, height: 1),
            PatternLayout.UnitFrame(x: 2, y: 1, width: 2, height: 1),
        ])
        let pattern = PatternLayout(
            blocks: [units, BannerBlock(length: 40, repeated: true)],
            spacing: PatternLayout.Spacing(before: 10, between: 5, after: 10)
        )
        let spec = Spec(sections: [
            Section(layout: pattern, insets: Insets(left: 10, right: 10), items: .cycle(count: 6, [Item()])),
        ])
        let result = try LayoutEngine().layout(spec, crossExtent: 300)
        // avail 280, unit (280 − 3·4)/4 = 67. The unit block at 10 is 138
        // long; then the banner repeats: 10 + 138 + 5 = 153, 198, 243.
        #expect(Self.frames(result.elements) == [
            [10, 10, 138, 138], [152, 10, 138, 67], [152, 81, 138, 67],
            [10, 153, 280, 40], [10, 198, 280, 40], [10, 243, 280, 40],
        ])
        #expect(result.contentSize == Size(width: 300, height: 243 + 40 + 10))

        // Unit blocks alone read back from the spec's JSON to the same layout.
        let unitsOnly = Spec(sections: [Section(layout: PatternLayout(blocks: [units]), items: .cycle(count: 7, [Item()]))])
        let reread = try Spec(json: unitsOnly.jsonValue)
        #expect(try LayoutEngine().layout(reread, crossExtent: 300).elements == LayoutEngine().layout(unitsOnly, crossExtent: 300).elements)
    }

    @Test("breakpoints of a kind of our own, built in Swift, and a right-to-left answer")
    func breakpointsAndDirection() throws {
        var registry = LayoutRegistry.standard
        registry.register(StackLayout.kind, factory: StackLayout.init(parameters:))
        let parameters = { (length: Double) in LayoutParameters(object: JSONObject(["itemLength": .number(length)]), path: .root) }
        let layout = BreakpointLayout(base: try StackLayout(parameters: parameters(44)), breakpoints: [
            BreakpointLayout.Breakpoint(minExtent: 500, layout: try StackLayout(parameters: parameters(80))),
        ])
        let spec = Spec(sections: [Section(layout: layout, insets: Insets(left: 10), items: .cycle(count: 2, [Item()]))])
        let narrow = try LayoutEngine().layout(spec, crossExtent: 300)
        #expect(Self.frames(narrow.elements) == [[10, 0, 290, 44], [10, 44, 290, 44]])
        #expect(Self.frames(try LayoutEngine().layout(spec, crossExtent: 500).elements) == [[10, 0, 490, 80], [10, 80, 490, 80]])
        // Read back through the registry that knows the kind.
        let reread = try Spec(json: spec.jsonValue, registry: registry)
        #expect(try LayoutEngine().layout(reread, crossExtent: 600).elements == LayoutEngine().layout(spec, crossExtent: 600).elements)
        // Right to left: [300 − 10 − 290, y, 290, 44].
        #expect(Self.frames(narrow.elements(in: Rect(x: 0, y: 0, width: 5, height: 50), direction: .rightToLeft)) == [[0, 0, 290, 44], [0, 44, 290, 44]])
        #expect(Mirror(width: 300)(Rect(x: 10, y: 0, width: 290, height: 44)) == Rect(x: 0, y: 0, width: 290, height: 44))
    }
}
