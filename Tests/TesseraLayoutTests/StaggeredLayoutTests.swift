import Testing
@testable import TesseraLayout

@Suite("staggered")
struct StaggeredLayoutTests {
    @Test("shortest column, ties leftmost; spans start below every spanned column")
    func shortestWithSpans() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "staggered", "columns": 3, "itemSpacing": 15, "lineSpacing": 10},
          "header": {"size": 40}, "insets": {"top": 5, "left": 10, "right": 10, "bottom": 5},
          "items": [{"aspectRatio": 1}, {"length": 30}, {"aspectRatio": 2}, {},
                    {"columns": 2, "length": 20}, {"aspectRatio": 0.5}, {"columns": 3, "length": 10}]
        }]}
        """, extent: 320)
        // avail 300, cw = (300 − 2·15)/3 = 90, columns at x 10, 115, 220;
        // items top 45. Local bottoms after each item:
        // 0: col 0, 0…90          [90, 0, 0]
        // 1: col 1, 0…30          [90, 30, 0]
        // 2: col 2, 0…45          [90, 30, 45]
        // 3: col 1 (30), 40…130   [90, 130, 45]
        // 4: windows (0,1) and (1,2) both top out at 130: leftmost, 2·90+15
        //    wide, 140…160        [160, 160, 45]
        // 5: col 2 (45), 180 long, 55…235
        // 6: all columns, below 235: 245…255
        #expect(cellFrames(result) == [
            [10, 45, 90, 90], [115, 45, 90, 30], [220, 45, 90, 45], [115, 85, 90, 90],
            [10, 185, 195, 20], [220, 100, 90, 180], [10, 290, 300, 10],
        ])
        #expect(result.contentSize == Size(width: 320, height: 45 + 255 + 5))
    }

    @Test("roundRobin: item i in column i mod n, whatever the heights; item columns not read")
    func roundRobin() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "staggered", "columns": 2, "lineSpacing": 4, "placement": "roundRobin"},
          "items": [{"length": 100}, {"length": 10}, {"length": 10}, {"length": 10}, {"columns": 5, "length": 10}]
        }]}
        """, extent: 200)
        #expect(cellFrames(result) == [
            [0, 0, 100, 100], [100, 0, 100, 10], [0, 104, 100, 10], [100, 14, 100, 10], [0, 118, 100, 10],
        ])
        #expect(result.contentSize == Size(width: 200, height: 128))
    }

    @Test("horizontal: columns run down the screen, lengths are on-screen widths")
    func horizontal() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{
          "layout": {"kind": "staggered", "columns": 2, "itemSpacing": 20, "lineSpacing": 5},
          "insets": {"top": 10, "bottom": 10, "left": 20},
          "items": [{"aspectRatio": 2}, {"length": 50}, {"aspectRatio": 0.5}, {"columns": 2}]
        }]}
        """, extent: 200)
        // avail = 200 − 20 = 180 along y, cw = (180 − 20)/2 = 80 (rows at
        // y 10 and 110); items start at x 20.
        // 0: row 0, 80 high, aspect 2 → 160 wide: 0…160
        // 1: row 1, 50 wide: 0…50
        // 2: row 1 (50 < 160), 80·0.5 = 40 wide: 55…95
        // 3: both rows, 180 high and wide, below max(160, 95) + 5 = 165
        #expect(cellFrames(result) == [
            [20, 10, 160, 80], [20, 110, 50, 80], [75, 110, 40, 80], [185, 10, 180, 180],
        ])
        #expect(result.contentSize == Size(width: 365, height: 200))
    }

    @Test("frames are not sorted along the scroll axis, and rect queries still find exactly the right items")
    func unsortedFramesAndRectQueries() throws {
        // shortest: a tall item in column 0, short ones in column 1. Origins
        // stay sorted but ends do not (item 0 ends at 1000, items 1…9 end at
        // 100…900): a search that assumes sorted ends skips item 0.
        let shortest = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2},
          "items": [{"length": 1000}, {"length": 100}, {"length": 100}, {"length": 100}, {"length": 100},
                    {"length": 100}, {"length": 100}, {"length": 100}, {"length": 100}, {"length": 100}]}]}
        """, extent: 200)
        let shortestEnds = cellFrames(shortest).map { $0[1] + $0[3] }
        #expect(shortestEnds == [1000, 100, 200, 300, 400, 500, 600, 700, 800, 900])
        #expect(KindTestKit.cellItems(shortest, in: Rect(x: 0, y: 550, width: 200, height: 100)) == [0, 6, 7])
        #expect(KindTestKit.cellItems(shortest, in: Rect(x: 0, y: 950, width: 100, height: 10)) == [0])
        #expect(KindTestKit.cellItems(shortest, in: Rect(x: 100, y: 950, width: 100, height: 10)) == [])

        // roundRobin: even the origins are out of order (item 2 starts at
        // 1000, item 3 at 100).
        let roundRobin = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2, "placement": "roundRobin"},
          "items": [{"length": 1000}, {"length": 100}, {"length": 100}, {"length": 100}, {"length": 100}, {"length": 100}]}]}
        """, extent: 200)
        #expect(cellFrames(roundRobin).map { $0[1] } == [0, 0, 1000, 100, 1100, 200])
        #expect(KindTestKit.cellItems(roundRobin, in: Rect(x: 0, y: 150, width: 200, height: 100)) == [0, 3, 5])
        #expect(KindTestKit.cellItems(roundRobin, in: Rect(x: 0, y: 1050, width: 200, height: 10)) == [2])
        for (top, height) in [(0.0, 1.0), (99.0, 2.0), (250.0, 800.0), (1000.0, 150.0), (1200.0, 5.0)] {
            let rect = Rect(x: 0, y: top, width: 200, height: height)
            #expect(KindTestKit.cellItems(roundRobin, in: rect) == KindTestKit.bruteForceItems(roundRobin, in: rect), "rect at \(top)")
            #expect(KindTestKit.cellItems(shortest, in: rect) == KindTestKit.bruteForceItems(shortest, in: rect), "rect at \(top)")
        }
    }

    @Test("a few thousand mixed items match a reference waterfall and never overlap")
    func referenceWaterfall() throws {
        var random = KindTestKit.Random(seed: 7)
        var items: [String] = []
        var specs: [(span: Int, length: Double)] = []
        for _ in 0..<2000 {
            let span = random.next(upTo: 6) == 0 ? 1 + random.next(upTo: 4) : 1
            let length = Double(5 + random.next(upTo: 300))
            items.append(#"{"columns": \#(span), "length": \#(length)}"#)
            specs.append((span, length))
        }
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 4, "itemSpacing": 10, "lineSpacing": 6},
          "items": [\(items.joined(separator: ","))]}]}
        """, extent: 430)
        // Reference: try every window, keep the one with the lowest top,
        // leftmost first; 4 columns of 100 points, 10 apart.
        var bottoms: [Double?] = [nil, nil, nil, nil]
        var expected: [[Double]] = []
        for (span, length) in specs {
            let windows = (0...(4 - span)).map { first in
                (first: first, top: bottoms[first..<(first + span)].map { $0 ?? 0 }.max() ?? 0)
            }
            let best = windows.min { $0.top < $1.top || ($0.top == $1.top && $0.first < $1.first) }!
            let start = bottoms[best.first..<(best.first + span)].compactMap { $0.map { $0 + 6 } }.max() ?? 0
            expected.append([Double(best.first) * 110, start, Double(span) * 100 + Double(span - 1) * 10, length])
            for column in best.first..<(best.first + span) { bottoms[column] = start + length }
        }
        let frames = cellFrames(result)
        #expect(frames == expected)
        #expect(KindTestKit.firstOverlap(frames) == nil)
    }

    @Test("errors name the parameter or the item")
    func errors() {
        func spec(_ layout: String, _ items: String = #"[{}]"#) -> String {
            #"{"format": 1, "sections": [{"layout": {"kind": "staggered", \#(layout)}, "items": \#(items)}]}"#
        }
        #expect(specError(#"{"format": 1, "sections": [{"layout": {"kind": "staggered"}}]}"#)?.path == "sections[0].layout.columns")
        #expect(specError(spec(#""columns": 0"#))?.path == "sections[0].layout.columns")
        #expect(specError(spec(#""columns": 1.5"#))?.path == "sections[0].layout.columns")
        #expect(specError(spec(#""columns": 3, "itemSpacing": 200"#))?.path == "sections[0].layout.columns")
        #expect(specError(spec(#""columns": 3, "lineSpacing": -1"#))?.path == "sections[0].layout.lineSpacing")
        #expect(specError(spec(#""columns": 3, "placement": "random""#))?.path == "sections[0].layout.placement")
        let wide = specError(spec(#""columns": 3"#, #"[{}, {}, {"columns": 4}]"#))
        #expect(wide?.path == "sections[0].items[2].columns")
        #expect(wide?.reason == "4 columns requested, the layout has 3")
        #expect(specError(spec(#""columns": 3"#, #"[{"columns": 0}]"#))?.path == "sections[0].items[0].columns")
        #expect(specError(spec(#""columns": 3"#, #"{"count": 5, "cycle": [{}, {"columns": 9}]}"#))?.path
            == "sections[0].items.cycle[1].columns")
        #expect(specError(spec(#""columns": 3"#, #"[{"length": -1}]"#))?.path == "sections[0].items[0].length")
        #expect(specError(spec(#""columns": 3"#, #"[{"aspectRatio": 0}]"#))?.path == "sections[0].items[0].aspectRatio")
        // roundRobin does not read item columns, so it does not check them.
        #expect(specError(spec(#""columns": 3, "placement": "roundRobin""#, #"[{"columns": 0}]"#)) == nil)
    }

    @Test("columns are capped like mozaik's: a huge count is an error naming the path, not a crash",
          arguments: ["staggered", "mosaic"])
    func columnLimit(kind: String) throws {
        func spec(columns: String) -> String {
            #"{"format": 1, "sections": [{"layout": {"kind": "flow"}}, {"layout": {"kind": "\#(kind)", "columns": \#(columns)}, "items": [{"canBeBig": false}]}]}"#
        }
        #expect(StaggeredLayout.maximumColumns == 4096 && MosaicLayout.maximumColumns == 4096)
        let huge = specError(spec(columns: "1e12"))
        #expect(huge == SpecError(path: "sections[1].layout.columns", reason: "must be at most 4096, got 1000000000000"))
        #expect(specError(spec(columns: "4097"))?.reason == "must be at most 4096, got 4097")
        // The limit itself lays out: one item in the first of 4096 columns
        // (a mosaic item that may not be big spans one column).
        let result = try layout(spec(columns: "4096"), extent: 4096)
        #expect(cellFrames(result, section: 1).first?[2] == 1)
    }

    @Test("parameters re-encode every value, defaults included")
    func parametersRoundTrip() throws {
        let original = StaggeredLayout(columns: 3, itemSpacing: 2, placement: .roundRobin)
        var object = original.parameters
        object["kind"] = .string("staggered")
        #expect(try StaggeredLayout(parameters: LayoutParameters(object: object, path: .root)) == original)
        #expect(original.parameters["lineSpacing"] == .number(0))
    }
}

/// Helpers shared by the pattern, staggered and mosaic tests.
enum KindTestKit {
    /// The items of the cells a rect query returns, sorted.
    static func cellItems(_ result: LayoutResult, in rect: Rect) -> [Int] {
        result.elements(in: rect).filter { $0.kind == .cell }.compactMap(\.item).sorted()
    }

    /// The items whose cells intersect `rect`, by checking every cell.
    static func bruteForceItems(_ result: LayoutResult, in rect: Rect) -> [Int] {
        result.elements.filter { element in
            element.kind == .cell && element.frame.minX < rect.maxX && rect.minX < element.frame.maxX
                && element.frame.minY < rect.maxY && rect.minY < element.frame.maxY
        }.compactMap(\.item).sorted()
    }

    /// The first pair of [x, y, w, h] frames whose interiors overlap.
    static func firstOverlap(_ frames: [[Double]]) -> [Int]? {
        for i in frames.indices {
            for j in (i + 1)..<frames.count {
                let a = frames[i], b = frames[j]
                if a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3] { return [i, j] }
            }
        }
        return nil
    }

    /// A small deterministic generator for test data (SplitMix64).
    struct Random {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next(upTo bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }
}
