import Testing
@testable import TesseraLayout

@Suite("pattern")
struct PatternLayoutTests {
    /// SquareMosaicLayout's copy of TRMosaicLayout: 3 units, units 1.5 times
    /// as long as wide; a 2×2 item with two 1×1 beside it, then mirrored.
    static let trMosaicBlocks = """
    [{"units": 3, "unitAspect": 1.5, "gutter": 7.5, "frames": [[0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1]]},
     {"units": 3, "unitAspect": 1.5, "gutter": 7.5, "frames": [[0, 0, 1, 1], [0, 1, 1, 1], [1, 0, 2, 2]]}]
    """

    @Test("TRMosaicLayout's pattern at 375: the whole pattern repeats, the last block is used in part")
    func trMosaic() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "pattern", "blocks": \(Self.trMosaicBlocks), "spacing": {"between": 7.5}},
          "items": {"count": 10, "cycle": [{}]}}]}
        """, extent: 375)
        // uw = (375 − 2·7.5)/3 = 120, ul = 180; a unit step is 127.5 across
        // and 187.5 along. Each full block is 2·180 + 7.5 = 367.5 long, so
        // blocks start at 0, 375, 750, 1125. Item 9 is the first frame of
        // block 2 alone: that block is 180 long, the section 1125 + 180.
        #expect(cellFrames(result) == [
            [0, 0, 247.5, 367.5], [255, 0, 120, 180], [255, 187.5, 120, 180],
            [0, 375, 120, 180], [0, 562.5, 120, 180], [127.5, 375, 247.5, 367.5],
            [0, 750, 247.5, 367.5], [255, 750, 120, 180], [255, 937.5, 120, 180],
            [0, 1125, 120, 180],
        ])
        #expect(result.contentSize == Size(width: 375, height: 1305))
    }

    @Test("FMMosaicLayout's pattern at 375: blocks 1, 2, 3, 2, 2, then again")
    func fmMosaic() throws {
        let big = "[[0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1], [3, 0, 1, 1], [3, 1, 1, 1]]"
        let row = "[[0, 0, 1, 1], [1, 0, 1, 1], [2, 0, 1, 1], [3, 0, 1, 1]]"
        let mirrored = "[[0, 0, 1, 1], [0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 1, 1], [2, 0, 2, 2]]"
        let blocks = [big, row, mirrored, row, row].map { #"{"units": 4, "gutter": 5, "frames": \#($0)}"# }
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "pattern", "blocks": [\(blocks.joined(separator: ","))], "spacing": {"between": 5}},
          "items": {"count": 25, "cycle": [{}]}}]}
        """, extent: 375)
        // uw = ul = (375 − 3·5)/4 = 90, step 95, a 2×2 item is 185. Blocks
        // start at 0 (185 long), 190 (90), 285 (185), 475 (90), 570 (90),
        // then the pattern again at 665, where items 22–24 use three frames.
        #expect(cellFrames(result) == [
            [0, 0, 185, 185], [190, 0, 90, 90], [190, 95, 90, 90], [285, 0, 90, 90], [285, 95, 90, 90],
            [0, 190, 90, 90], [95, 190, 90, 90], [190, 190, 90, 90], [285, 190, 90, 90],
            [0, 285, 90, 90], [0, 380, 90, 90], [95, 285, 90, 90], [95, 380, 90, 90], [190, 285, 185, 185],
            [0, 475, 90, 90], [95, 475, 90, 90], [190, 475, 90, 90], [285, 475, 90, 90],
            [0, 570, 90, 90], [95, 570, 90, 90], [190, 570, 90, 90], [285, 570, 90, 90],
            [0, 665, 185, 185], [190, 665, 90, 90], [190, 760, 90, 90],
        ])
        #expect(result.contentSize == Size(width: 375, height: 850))
    }

    @Test("a repeated block: earlier blocks once, then it repeats; later blocks unused; spacing before, between, after")
    func repeatedBlock() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "pattern",
            "blocks": [{"units": 2, "gutter": 10, "frames": [[0, 0, 2, 1]]},
                       {"units": 2, "gutter": 10, "frames": [[0, 0, 1, 1], [1, 0, 1, 1]], "repeated": true},
                       {"units": 1, "frames": [[0, 0, 1, 5]]},
                       {"units": 1, "frames": [[0, 0, 1, 9]], "repeated": true}],
            "spacing": {"before": 20, "between": 10, "after": 30}},
          "header": {"size": 40}, "insets": {"top": 5, "left": 10, "right": 10, "bottom": 7},
          "items": [{}, {}, {}, {}]}]}
        """, extent: 230)
        // avail 210, uw = ul = 100; items top 45. Block 0 at 20 (100 long),
        // block 1 at 130 and again at 240 (one frame used), then 30 after:
        // the items region is 370.
        #expect(cellFrames(result) == [[10, 65, 210, 100], [10, 175, 100, 100], [120, 175, 100, 100], [10, 285, 100, 100]])
        #expect(result.contentSize == Size(width: 230, height: 45 + 370 + 7))
    }

    @Test("no items: no spacing before or after")
    func noItems() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "pattern", "blocks": [{"units": 1, "frames": [[0, 0, 1, 1]]}],
          "spacing": {"before": 20, "after": 30}}, "header": {"size": 40}, "items": []}]}
        """, extent: 100)
        #expect(result.contentSize == Size(width: 100, height: 40))
    }

    @Test("horizontal: unit frames are written as for a vertical spec, x across and y along the scroll axis")
    func horizontal() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{"layout": {"kind": "pattern", "blocks": \(Self.trMosaicBlocks),
          "spacing": {"between": 7.5}}, "insets": {"left": 10}, "items": [{}, {}, {}, {}]}]}
        """, extent: 375)
        // The vertical TR frames with x and y swapped, 10 points right.
        #expect(cellFrames(result) == [[10, 0, 367.5, 247.5], [10, 255, 180, 120], [197.5, 255, 180, 120], [385, 0, 180, 120]])
        #expect(result.contentSize == Size(width: 565, height: 375))
    }

    @Test("fractional units: two half units leave one gutter between them")
    func fractionalUnits() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "pattern",
          "blocks": [{"units": 2, "gutter": 10, "frames": [[0, 0, 0.5, 0.5], [0.5, 0, 0.5, 0.5], [1, 0, 1, 1]]}]},
          "items": [{}, {}, {}]}]}
        """, extent: 210)
        // uw = 100: a half unit is 0.5·100 − 0.5·10 = 45 wide, the second
        // starts at 0.5·110 = 55.
        #expect(cellFrames(result) == [[0, 0, 45, 45], [55, 0, 45, 45], [110, 0, 100, 100]])
    }

    /// A block computed in Swift: one full-width item of a fixed length.
    struct HeroBlock: PatternBlock {
        var length: Double
        var repeated: Bool { false }

        func frames(in context: SectionContext, path: JSONPath) throws -> [LocalFrame] {
            if length < 0 { throw path.appending("length").error("must not be negative") }
            return length == 0 ? [] : [LocalFrame(cross: 0, scroll: 0, crossLength: context.available, scrollLength: length)]
        }

        var jsonValue: JSONValue { .object(JSONObject(["hero": .number(length)])) }
    }

    @Test("blocks built in Swift: a custom block beside unit blocks")
    func swiftBlocks() throws {
        let squares = PatternLayout.Block(
            units: 2, gutter: 10,
            frames: [.init(x: 0, y: 0, width: 1, height: 1), .init(x: 1, y: 0, width: 1, height: 1)],
            repeated: true
        )
        func spec(_ hero: HeroBlock) -> Spec {
            Spec(sections: [Section(
                layout: PatternLayout(blocks: [hero, squares], spacing: .init(between: 10)),
                items: .list(Array(repeating: Item(), count: 5))
            )])
        }
        let result = try LayoutEngine().layout(spec(HeroBlock(length: 100)), crossExtent: 210)
        #expect(cellFrames(result) == [
            [0, 0, 210, 100], [0, 110, 100, 100], [110, 110, 100, 100], [0, 220, 100, 100], [110, 220, 100, 100],
        ])
        #expect(result.contentSize == Size(width: 210, height: 320))

        #expect(throws: SpecError(path: "sections[0].layout.blocks[0].frames", reason: "must not be empty: a block without frames can place no item")) {
            try LayoutEngine().layout(spec(HeroBlock(length: 0)), crossExtent: 210)
        }
        #expect(throws: SpecError(path: "sections[0].layout.blocks[0].length", reason: "must not be negative")) {
            try LayoutEngine().layout(spec(HeroBlock(length: -1)), crossExtent: 210)
        }
        let layout = PatternLayout(blocks: [HeroBlock(length: 100), squares])
        #expect(layout == PatternLayout(blocks: [HeroBlock(length: 100), squares]))
        #expect(layout != PatternLayout(blocks: [HeroBlock(length: 120), squares]))
    }

    @Test("a few thousand items match a reference expansion of the pattern")
    func referenceExpansion() throws {
        var random = KindTestKit.Random(seed: 3)
        for repeatedBlock in [nil, 0, 2] as [Int?] {
            // Three blocks of 4 units (uw = ul = 100 at 400) with 1…5 random
            // 1×1 frames each, stacked down the block.
            var blockFrames: [[[Double]]] = []
            var blocksJSON: [String] = []
            for block in 0..<3 {
                let frames = (0..<(1 + random.next(upTo: 5))).map { _ in
                    [Double(random.next(upTo: 4)), Double(random.next(upTo: 3)), 1, 1]
                }
                blockFrames.append(frames)
                let written = frames.map { "[\($0.map { String(Int($0)) }.joined(separator: ","))]" }.joined(separator: ",")
                blocksJSON.append(#"{"units": 4, "frames": [\#(written)], "repeated": \#(block == repeatedBlock)}"#)
            }
            let count = 3000
            let result = try layout("""
            {"format": 1, "sections": [{"layout": {"kind": "pattern", "blocks": [\(blocksJSON.joined(separator: ","))],
              "spacing": {"before": 3, "between": 2, "after": 1}}, "items": {"count": \(count), "cycle": [{}]}}]}
            """, extent: 400)
            // Reference: list the blocks in use, then lay them out.
            var order: [Int] = []
            var used = 0
            var next = 0
            while used < count {
                order.append(next)
                used += blockFrames[next].count
                if let repeatedBlock { next = next < repeatedBlock ? next + 1 : repeatedBlock } else { next = (next + 1) % 3 }
            }
            var expected: [[Double]] = []
            var top = 3.0
            for block in order {
                var end = 0.0
                for frame in blockFrames[block].prefix(count - expected.count) {
                    expected.append([frame[0] * 100, top + frame[1] * 100, 100, 100])
                    end = max(end, frame[1] * 100 + 100)
                }
                top += end + 2
            }
            #expect(cellFrames(result) == expected, "repeated block \(String(describing: repeatedBlock))")
            #expect(result.contentSize.height == top - 2 + 1)
        }
    }

    @Test("errors name the parameter, the block or the frame")
    func errors() {
        func spec(_ blocks: String, _ extra: String = "") -> String {
            #"{"format": 1, "sections": [{"layout": {"kind": "pattern", "blocks": \#(blocks)\#(extra)}, "items": [{}]}]}"#
        }
        let frame = #"[[0, 0, 1, 1]]"#
        #expect(specError(#"{"format": 1, "sections": [{"layout": {"kind": "pattern"}}]}"#)?.path == "sections[0].layout.blocks")
        #expect(specError(spec("[]"))?.path == "sections[0].layout.blocks")
        #expect(specError(spec(#"{"units": 1}"#))?.path == "sections[0].layout.blocks")
        #expect(specError(spec("[3]"))?.path == "sections[0].layout.blocks[0]")
        #expect(specError(spec(#"[{"units": 1, "frames": \#(frame)}, {"units": 1, "frames": []}]"#))?.path
            == "sections[0].layout.blocks[1].frames")
        #expect(specError(spec(#"[{"units": 1}]"#))?.path == "sections[0].layout.blocks[0].frames")
        #expect(specError(spec(#"[{"frames": \#(frame)}]"#))?.path == "sections[0].layout.blocks[0].units")
        #expect(specError(spec(#"[{"units": 0, "frames": \#(frame)}]"#))?.path == "sections[0].layout.blocks[0].units")
        #expect(specError(spec(#"[{"units": 1.5, "frames": \#(frame)}]"#))?.path == "sections[0].layout.blocks[0].units")
        #expect(specError(spec(#"[{"units": 1, "unitAspect": 0, "frames": \#(frame)}]"#))?.path == "sections[0].layout.blocks[0].unitAspect")
        #expect(specError(spec(#"[{"units": 1, "gutter": -1, "frames": \#(frame)}]"#))?.path == "sections[0].layout.blocks[0].gutter")
        #expect(specError(spec(#"[{"units": 1, "repeated": 1, "frames": \#(frame)}]"#))?.path == "sections[0].layout.blocks[0].repeated")
        #expect(specError(spec(#"[{"units": 2, "frames": [[0, 0, 1, 1], [0, 1, 1]]}]"#))?.path == "sections[0].layout.blocks[0].frames[1]")
        #expect(specError(spec(#"[{"units": 2, "frames": [[0, 0, 1, "1"]]}]"#))?.path == "sections[0].layout.blocks[0].frames[0]")
        #expect(specError(spec(#"[{"units": 2, "frames": [[-1, 0, 1, 1]]}]"#))?.path == "sections[0].layout.blocks[0].frames[0][0]")
        #expect(specError(spec(#"[{"units": 2, "frames": [[0, 0, 0, 1]]}]"#))?.path == "sections[0].layout.blocks[0].frames[0][2]")
        #expect(specError(spec(#"[{"units": 2, "frames": [[0, 0, 1, 0]]}]"#))?.path == "sections[0].layout.blocks[0].frames[0][3]")
        // 3 units with 200-point gutters do not fit in 375.
        #expect(specError(spec(#"[{"units": 3, "gutter": 200, "frames": \#(frame)}]"#), extent: 375)?.path
            == "sections[0].layout.blocks[0].gutter")
        // A half unit of 55 points minus half a 100-point gutter is negative.
        #expect(specError(spec(#"[{"units": 2, "gutter": 100, "frames": [[0, 0, 0.5, 1]]}]"#), extent: 210)?.path
            == "sections[0].layout.blocks[0].frames[0]")
        #expect(specError(spec("[{\"units\": 1, \"frames\": \(frame)}]", #", "spacing": 4"#))?.path == "sections[0].layout.spacing")
        #expect(specError(spec("[{\"units\": 1, \"frames\": \(frame)}]", #", "spacing": {"between": -1}"#))?.path
            == "sections[0].layout.spacing.between")
    }

    @Test("parameters re-encode every block and spacing value, defaults included")
    func parametersRoundTrip() throws {
        let text = #"{"format": 1, "sections": [{"layout": {"kind": "pattern", "blocks": \#(Self.trMosaicBlocks)}}]}"#
        let original = try #require(try Spec(jsonText: text).sections.first?.layout as? PatternLayout)
        var object = original.parameters
        object["kind"] = .string("pattern")
        let reread = try PatternLayout(parameters: LayoutParameters(object: object, path: .root))
        #expect(reread == original)
        #expect(reread.parameters == original.parameters)
        guard case .array(let blocks) = original.parameters["blocks"], case .object(let first) = blocks.first else {
            Issue.record("blocks are not encoded as an array of objects")
            return
        }
        #expect(first["repeated"] == .bool(false))
        #expect(original.parameters["spacing"] == .object(JSONObject(["before": .number(0), "between": .number(0), "after": .number(0)])))
    }
}
