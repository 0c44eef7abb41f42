import Foundation
import Testing
@testable import TesseraLayout

@Suite("mosaic")
struct MosaicLayoutTests {
    @Test("PluginLayout's mosaic: 3 columns at 375, lineMultiple 20")
    func pluginLayoutSeed() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "mosaic", "columns": 3},
          "items": [{"aspectRatio": 1.5}, {}, {"aspectRatio": 0.75}, {"aspectRatio": 2}, {}, {"aspectRatio": 0.5}]}]}
        """, extent: 375)
        // cw = 125. Bottoms after each item:
        // 0: all columns level → spans 3: 375/1.5 = 250 → 13 lines = 260.  [260, 260, 260]
        // 1: previous spanned → one column (0): 125 → 7 lines = 140, 260…400.  [400, 260, 260]
        // 2: lowest run = columns 1–2 (not all 3, so aspect 0.75 may span):
        //    250/0.75 = 333.3 → 17 lines = 340, 260…600.  [400, 600, 600]
        // 3: previous spanned → column 0: 62.5 → 4 lines = 80, 400…480.  [480, 600, 600]
        // 4: column 0: 140 → ends at 620; |600 − 620| = 20 is not below 20:
        //    no snap, 480…620.  [620, 600, 600]
        // 5: lowest run = columns 1–2: aspect 0.5 may span 2 of 3:
        //    250/0.5 = 500 → 25 lines, 600…1100.
        #expect(cellFrames(result) == [
            [0, 0, 375, 260], [0, 260, 125, 140], [125, 260, 250, 340], [0, 400, 125, 80],
            [0, 480, 125, 140], [125, 600, 250, 500],
        ])
        #expect(result.contentSize == Size(width: 375, height: 1100))
    }

    @Test("spacing, snapping to a column bottom, canBeBig, tall items on a level row")
    func spacingAndSnap() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "mosaic", "columns": 3, "itemSpacing": 5, "lineSpacing": 5},
          "header": {"size": 30}, "insets": {"top": 10},
          "items": [{"aspectRatio": 1.5}, {}, {}, {"aspectRatio": 1.25}, {"aspectRatio": 0.5},
                    {"canBeBig": false}, {}, {}]}]}
        """, extent: 385)
        // cw = (385 − 10)/3 = 125, columns at x 0, 130, 260; items top 40.
        // Local bottoms after each item (y = lowest bottom + 5, first row too):
        // 0: spans 3, 385/1.5 = 256.7 → 260, 5…265.               [265, 265, 265]
        // 1: previous spanned → column 0, 140, 270…410.            [410, 265, 265]
        // 2: run columns 1–2, 255 wide → 260, 270…530.             [410, 530, 530]
        // 3: column 0, 125/1.25 = 100 → 415…515; column 1 ends 15
        //    from 515 → snapped: 415…530.                          [530, 530, 530]
        // 4: aspect 0.5 on a level row of all columns → one column,
        //    250 → 260, 535…795.                                   [795, 530, 530]
        // 5: canBeBig false → column 1 alone, 535…675.            [795, 675, 530]
        // 6: column 2, 535…675 (snaps to column 1's 675, no change). [795, 675, 675]
        // 7: run columns 1–2 → 260, 680…940.
        #expect(cellFrames(result) == [
            [0, 45, 385, 260], [0, 310, 125, 140], [130, 310, 255, 260], [0, 455, 125, 115],
            [0, 575, 125, 260], [130, 575, 125, 140], [260, 575, 125, 140], [130, 720, 255, 260],
        ])
        #expect(result.contentSize == Size(width: 385, height: 980))
    }

    @Test("horizontal: aspectRatio stays on-screen width / height; a portrait item never spans every row")
    func horizontal() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{"layout": {"kind": "mosaic", "columns": 3},
          "insets": {"left": 8},
          "items": [{"aspectRatio": 0.5}, {}, {"aspectRatio": 2}, {"aspectRatio": 2}, {}, {"aspectRatio": 2}, {"aspectRatio": 0.5}]}]}
        """, extent: 300)
        // Columns are rows 100 high; an item k rows high is W = 100k across
        // and W · aspectRatio long, rounded up to 20. Row bottoms after each:
        // 0: level run of all rows, portrait (0.5 < 1) → one row: 50 → 60.   [60, 0, 0]
        // 1: run rows 1–2 (not all): 200 · 1 = 200, 0…200.                   [60, 200, 200]
        // 2: previous spanned → row 0, 100 · 2 = 200, 60…260.                [260, 200, 200]
        // 3: run rows 1–2: 200 · 2 = 400, 200…600.                           [260, 600, 600]
        // 4: previous spanned → row 0, 100, 260…360.                         [360, 600, 600]
        // 5: row 0 alone is lowest: 200, 360…560 (600 is 40 away: no snap).  [560, 600, 600]
        // 6: row 0: 50 → 60, 560…620 (600 is 20 away, not under 20).         [620, 600, 600]
        #expect(cellFrames(result) == [
            [8, 0, 60, 100], [8, 100, 200, 200], [68, 0, 200, 100], [208, 100, 400, 200],
            [268, 0, 100, 100], [368, 0, 200, 100], [568, 0, 60, 100],
        ])
        #expect(result.contentSize == Size(width: 628, height: 300))
    }

    @Test("the contract's horizontal example: a portrait item takes one row, a landscape pair spans two")
    func horizontalContractExample() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{"layout": {"kind": "mosaic", "columns": 3, "lineMultiple": 10},
          "items": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}]}]}
        """, extent: 300)
        #expect(cellFrames(result) == [[0, 0, 50, 100], [0, 100, 400, 200], [50, 0, 100, 100]])
        #expect(result.contentSize == Size(width: 400, height: 300))
    }

    @Test("a quotient within 1e-9 of a whole number of lines is not rounded up")
    func roundingTolerance() throws {
        // 300 / 1.3636363636363635 / 20 = 11.000000000000002 in doubles.
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "mosaic", "columns": 1},
          "items": [{"aspectRatio": 1.3636363636363635}, {"aspectRatio": 1.3}]}]}
        """, extent: 300)
        // 300/1.3 = 230.8 → 12 lines = 240.
        #expect(cellFrames(result) == [[0, 0, 300, 220], [0, 220, 300, 240]])
    }

    @Test("lineMultiple is used as given, fractions included")
    func lineMultipleAsGiven() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "mosaic", "columns": 2, "lineMultiple": 2.5},
          "items": [{"canBeBig": false, "aspectRatio": 3}, {"aspectRatio": 0.9}]}]}
        """, extent: 200)
        // 100/3 = 33.3 → 14 lines of 2.5 = 35. Then column 1: 111.1 → 45
        // lines = 112.5.
        #expect(cellFrames(result) == [[0, 0, 100, 35], [100, 0, 100, 112.5]])
    }

    @Test("columns without width: a snap that would give a negative length gives 0")
    func zeroWidthColumns() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "mosaic", "columns": 3, "itemSpacing": 50, "lineSpacing": 10},
          "items": [{}, {}, {}]}]}
        """, extent: 100)
        // cw = 0. 0: spans 3, 100 wide → 100, 10…110. 1: column 0, 0 wide,
        // 0 long at 120; its end is 10 from the bottoms (110): the snap
        // would give −10, so 0. 2: run columns 1–2, 50 wide → 60, 120…180.
        #expect(cellFrames(result) == [[0, 10, 100, 100], [0, 120, 0, 0], [50, 120, 50, 60]])
    }

    @Test("a few thousand items match a literal reading of the contract and never overlap")
    func referenceMosaic() throws {
        var random = KindTestKit.Random(seed: 11)
        let ratios = [0.5, 0.75, 1, 1.2, 1.5, 2, 3]
        var items: [(ratio: Double, canBeBig: Bool)] = []
        for _ in 0..<2000 {
            items.append((ratios[random.next(upTo: ratios.count)], random.next(upTo: 5) != 0))
        }
        let json = items.map { #"{"aspectRatio": \#($0.ratio), "canBeBig": \#($0.canBeBig)}"# }.joined(separator: ",")
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "mosaic", "columns": 4, "lineMultiple": 15, "itemSpacing": 4, "lineSpacing": 3},
          "items": [\(json)]}]}
        """, extent: 412)
        let columnWidth = 100.0, count = 4, lineMultiple = 15.0
        var bottoms = [Double](repeating: 0, count: count)
        var previousSpanned = false
        var expected: [[Double]] = []
        for item in items {
            let order = (0..<count).sorted { (bottoms[$0], $0) < (bottoms[$1], $1) }
            let lowest = order.filter { bottoms[$0] == bottoms[order[0]] }
            var run = 1
            while run < lowest.count, lowest[run] == lowest[0] + run { run += 1 }
            if !item.canBeBig || previousSpanned || (item.ratio < 1 && run == count) { run = 1 }
            let y = bottoms[order[0]] + 3
            let width = Double(run) * columnWidth + Double(run - 1) * 4
            let quotient = width / item.ratio / lineMultiple
            let lines = abs(quotient - quotient.rounded()) < 1e-9 ? quotient.rounded() : ceil(quotient)
            var length = lines * lineMultiple
            if let snap = order.first(where: { abs(bottoms[$0] - (y + length)) < lineMultiple }) {
                length = bottoms[snap] - y
            }
            expected.append([Double(lowest[0]) * 104, y, width, length])
            for column in lowest[0]..<(lowest[0] + run) { bottoms[column] = y + length }
            previousSpanned = run > 1
        }
        let frames = cellFrames(result)
        #expect(frames == expected)
        #expect(KindTestKit.firstOverlap(frames) == nil)
        // The run exercised spans and snaps (lengths off the 15-point grid).
        #expect(frames.contains { $0[2] > columnWidth })
        #expect(frames.contains { $0[3].truncatingRemainder(dividingBy: lineMultiple) != 0 })
    }

    @Test("errors name the parameter or the item")
    func errors() {
        func spec(_ layout: String, _ items: String = #"[{}]"#) -> String {
            #"{"format": 1, "sections": [{"layout": {"kind": "mosaic", \#(layout)}, "items": \#(items)}]}"#
        }
        #expect(specError(#"{"format": 1, "sections": [{"layout": {"kind": "mosaic"}}]}"#)?.path == "sections[0].layout.columns")
        #expect(specError(spec(#""columns": 0"#))?.path == "sections[0].layout.columns")
        #expect(specError(spec(#""columns": 3, "lineMultiple": 0.5"#))?.path == "sections[0].layout.lineMultiple")
        #expect(specError(spec(#""columns": 3, "itemSpacing": 300"#))?.path == "sections[0].layout.columns")
        #expect(specError(spec(#""columns": 3, "lineSpacing": -2"#))?.path == "sections[0].layout.lineSpacing")
        #expect(specError(spec(#""columns": 3"#, #"[{}, {"aspectRatio": 0}]"#))?.path == "sections[0].items[1].aspectRatio")
        #expect(specError(spec(#""columns": 3"#, #"[{"canBeBig": "yes"}]"#))?.path == "sections[0].items[0].canBeBig")
        #expect(specError(spec(#""columns": 3"#, #"{"count": 4, "cycle": [{}, {"aspectRatio": -1}]}"#))?.path
            == "sections[0].items.cycle[1].aspectRatio")
    }

    @Test("parameters re-encode every value, defaults included")
    func parametersRoundTrip() throws {
        let original = MosaicLayout(columns: 4, itemSpacing: 1)
        var object = original.parameters
        object["kind"] = .string("mosaic")
        #expect(try MosaicLayout(parameters: LayoutParameters(object: object, path: .root)) == original)
        #expect(original.parameters["lineMultiple"] == .number(20))
    }
}
