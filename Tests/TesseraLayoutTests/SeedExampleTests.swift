import Foundation
import Testing
@testable import TesseraLayout

// Worked examples taken from the seed libraries' own demos, READMEs and
// tests, so that "Tessera does what they do" is checked with numbers. Each
// test names the repository and file its configuration was read from. The
// expected frames were worked out by hand from the rules in
// the spec format article (the trace is in the comments), not copied from the
// engine's output. The specs are in Examples/seeds/.

/// The specs of these examples, in Examples/seeds/.
private enum SeedSpecs {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/seeds")

    static func spec(_ file: String) throws -> Spec {
        try Spec(contentsOfFile: folder.appendingPathComponent(file).path)
    }

    static func layout(_ file: String, extent: Double) throws -> LayoutResult {
        try LayoutEngine().layout(spec(file), crossExtent: extent)
    }
}

/// A supplementary element's frame as [x, y, w, h].
private func frame(_ kind: LayoutElement.Kind, _ result: LayoutResult, section: Int = 0) -> [Double]? {
    result.supplementary(kind, section: section).map { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
}

// MARK: - PrimeGrid

@Suite("seed examples: PrimeGrid")
struct PrimeGridSeedTests {
    // Read: stablekernel/PrimeGrid, PrimeGrid/PrimeGridViewController.swift
    // (viewDidLoad: gridLayout.itemSpacing = 10, fixedDivisionCount = 4,
    // vertical, collectionView.contentInset 10 on every side; useSquareCells
    // = true, useSections = false: one section of the numbers 1…100, header
    // size 0; scale 3 for the Mersenne primes 3, 7, 31, 2 for the other
    // primes, 1 otherwise) and PrimeGrid/GridLayout.swift (cell =
    // (width − N·spacing + spacing)/N; cursor placement: the cursor wraps
    // when col ≥ N, the scan steps col + 1 and wraps when col + s > N, the
    // cursor advances by s only when the item landed on it; no section
    // spacing before section 0 without a header). The layout sees the
    // collection view's width minus the content insets: 375 − 20 = 355.
    //
    // Contract (scaledGrid): c = (355 − 3·10)/4 = 81.25, pitch 91.25;
    // sizes 81.25 (s1), 2·81.25 + 10 = 172.5 (s2), 263.75 (s3); cell
    // (row, col) at (col·91.25, row·91.25).
    //
    // Hand trace, number: (row, col), cursor after it.
    //  1: (0,0) → (0,1).  2 (s2): (0,1) → (0,3).
    //  3 (s3): (0,3) is too narrow; (1,0), (1,1) hit 2; (2,0) is free →
    //    (2,0), the cursor stays at (0,3).  4: (0,3) → (0,4).
    //  5 (s2): the cursor wraps to (1,0); rows 1–4 hold no free 2×2 (2 and
    //    3 are in the way, col 3 too narrow) → (5,0), cursor stays (1,0).
    //  6: (1,0) → (1,1), which is taken by 2 from now on: every later item
    //    is placed by the scan from (1,1), the first free block in
    //    row-major order.
    //  7 (s3): (7,0) (rows 2–4 hold 3, rows 5–6 hold 5).
    //  8, 9, 10: back-fill column 3 at rows 1, 2, 3.  11 (s2): (5,2).
    //  12: (4,3).  13 (s2): (10,0).  14, 15, 16: (7,3), (8,3), (9,3).
    //  17 (s2): (10,2).  18: (12,0).  19 (s2): (12,1).  20: (12,3).
    //  … 31 (s3): row 17 has 29 at cols 1–2, so (18,0); 32 back-fills
    //  (17,0) … 97 (s2): (46,0); 98 back-fills (45,3); 99, 100: (46,2),
    //  (46,3). The lowest item is 97: 46·91.25 + 172.5 = 4370.
    /// (number, row, col, scale) for all 100 items, from the trace above.
    static let cells: [(row: Int, col: Int, scale: Int)] = [
        (0, 0, 1), (0, 1, 2), (2, 0, 3), (0, 3, 1), (5, 0, 2), (1, 0, 1), (7, 0, 3), (1, 3, 1), (2, 3, 1), (3, 3, 1),
        (5, 2, 2), (4, 3, 1), (10, 0, 2), (7, 3, 1), (8, 3, 1), (9, 3, 1), (10, 2, 2), (12, 0, 1), (12, 1, 2), (12, 3, 1),
        (13, 0, 1), (13, 3, 1), (14, 0, 2), (14, 2, 1), (14, 3, 1), (15, 2, 1), (15, 3, 1), (16, 0, 1), (16, 1, 2), (16, 3, 1),
        (18, 0, 3), (17, 0, 1), (17, 3, 1), (18, 3, 1), (19, 3, 1), (20, 3, 1), (21, 0, 2), (21, 2, 1), (21, 3, 1), (22, 2, 1),
        (23, 0, 2), (22, 3, 1), (23, 2, 2), (25, 0, 1), (25, 1, 1), (25, 2, 1), (26, 0, 2), (25, 3, 1), (26, 2, 1), (26, 3, 1),
        (27, 2, 1), (27, 3, 1), (28, 0, 2), (28, 2, 1), (28, 3, 1), (29, 2, 1), (29, 3, 1), (30, 0, 1), (30, 1, 2), (30, 3, 1),
        (32, 0, 2), (31, 0, 1), (31, 3, 1), (32, 2, 1), (32, 3, 1), (33, 2, 1), (34, 0, 2), (33, 3, 1), (34, 2, 1), (34, 3, 1),
        (35, 2, 2), (36, 0, 1), (37, 0, 2), (36, 1, 1), (37, 2, 1), (37, 3, 1), (38, 2, 1), (38, 3, 1), (39, 0, 2), (39, 2, 1),
        (39, 3, 1), (40, 2, 1), (41, 0, 2), (40, 3, 1), (41, 2, 1), (41, 3, 1), (42, 2, 1), (42, 3, 1), (43, 0, 2), (43, 2, 1),
        (43, 3, 1), (44, 2, 1), (44, 3, 1), (45, 0, 1), (45, 1, 1), (45, 2, 1), (46, 0, 2), (45, 3, 1), (46, 2, 1), (46, 3, 1),
    ]

    /// The demo's frames in PrimeGrid's own coordinates (width 355, no insets).
    static let firstTwenty: [[Double]] = [
        [0, 0, 81.25, 81.25], [91.25, 0, 172.5, 172.5], [0, 182.5, 263.75, 263.75], [273.75, 0, 81.25, 81.25],
        [0, 456.25, 172.5, 172.5], [0, 91.25, 81.25, 81.25], [0, 638.75, 263.75, 263.75], [273.75, 91.25, 81.25, 81.25],
        [273.75, 182.5, 81.25, 81.25], [273.75, 273.75, 81.25, 81.25], [182.5, 456.25, 172.5, 172.5], [273.75, 365, 81.25, 81.25],
        [0, 912.5, 172.5, 172.5], [273.75, 638.75, 81.25, 81.25], [273.75, 730, 81.25, 81.25], [273.75, 821.25, 81.25, 81.25],
        [182.5, 912.5, 172.5, 172.5], [0, 1095, 81.25, 81.25], [91.25, 1095, 172.5, 172.5], [273.75, 1095, 81.25, 81.25],
    ]

    @Test("the example's scales are the demo's: Mersenne primes 3, other primes 2, the rest 1")
    func scales() throws {
        let spec = try SeedSpecs.spec("primegrid.json")
        guard case .list(let items) = spec.sections[0].items else {
            Issue.record("the example lists its items")
            return
        }
        func isPrime(_ n: Int) -> Bool { n > 1 && !(2..<n).contains { n % $0 == 0 } }
        let expected = (1...100).map { n in [3, 7, 31].contains(n) ? 3 : isPrime(n) ? 2 : 1 }
        #expect(items.map { $0.scale ?? 1 } == expected)
        #expect(Self.cells.map(\.scale) == expected)
    }

    @Test("numbers 1–100 at PrimeGrid's own width (375 − contentInset 20): every frame")
    func demoInSeedCoordinates() throws {
        var spec = try SeedSpecs.spec("primegrid.json")
        spec.sections[0].insets = .zero
        let result = try LayoutEngine().layout(spec, crossExtent: 355)
        let frames = cellFrames(result)
        #expect(Array(frames.prefix(20)) == Self.firstTwenty)
        // 31 is the third Mersenne prime; 97 the last prime, 98 back-fills
        // the hole it leaves at (45, 3).
        #expect(frames[30] == [0, 1642.5, 263.75, 263.75])
        #expect(Array(frames.suffix(4)) == [
            [0, 4197.5, 172.5, 172.5], [273.75, 4106.25, 81.25, 81.25],
            [182.5, 4197.5, 81.25, 81.25], [273.75, 4197.5, 81.25, 81.25],
        ])
        let fromCells = Self.cells.map { cell -> [Double] in
            let side = Double(cell.scale) * 81.25 + Double(cell.scale - 1) * 10
            return [Double(cell.col) * 91.25, Double(cell.row) * 91.25, side, side]
        }
        #expect(frames == fromCells)
        #expect(result.contentSize == Size(width: 355, height: 4370))
    }

    @Test("the contentInset written as section insets at 375: the same frames, 10 points in")
    func demoWithInsets() throws {
        let result = try SeedSpecs.layout("primegrid.json", extent: 375)
        // avail = 375 − 20 = 355 as above; every frame moves by (10, 10);
        // insets.bottom adds 10 after the lowest item.
        #expect(Array(cellFrames(result).prefix(20)) == Self.firstTwenty.map { [$0[0] + 10, $0[1] + 10, $0[2], $0[3]] })
        #expect(result.contentSize == Size(width: 375, height: 10 + 4370 + 10))
    }
}

// MARK: - SquareMosaicLayout

@Suite("seed examples: SquareMosaicLayout README")
struct SquareMosaicSeedTests {
    // Read: iwheelbuy/SquareMosaicLayout, README.md (4.1.2, commit
    // 321ec108…; the 5.0.0 README has the same block code) "Example -
    // copying TRMosaicLayout" and "Example - copying FMMosaicLayout", and
    // SquareMosaicLayout/Classes/Object.swift (4.1.2): side = the
    // collection view's width minus its content insets; the whole pattern
    // repeats until it has enough frames; a block adds the largest
    // (y + height − top) of the frames it used; the README patterns
    // define no patternBlocksSeparator, so no space before, between or
    // after blocks. The README copies have no gutters: frames are exact
    // fractions of the side (the copies in PatternLayoutTests add 7.5 / 5
    // point gutters and spacing that the README does not have). The item
    // counts 42 and 49 are those of Example/SquareMosaicLayout/
    // TRMosaicLayoutController.swift and FMMosaicLayoutController.swift.

    @Test("TRMosaicLayout copy at 375, 42 items: seven repeats of the two blocks")
    func trMosaic() throws {
        let result = try SeedSpecs.layout("trmosaic-readme.json", extent: 375)
        // README: minWidth = 375/3 = 125, maxWidth = 250, minHeight =
        // 1.5·125 = 187.5, maxHeight = 375. Contract: units 3, gutter 0:
        // uw = 125, ul = 187.5; [0,0,2,2] → [0, top, 250, 375]. Each block
        // is 375 long, the pattern (6 items) 750.
        let firstRepeat: [[Double]] = [
            [0, 0, 250, 375], [250, 0, 125, 187.5], [250, 187.5, 125, 187.5],
            [0, 375, 125, 187.5], [0, 562.5, 125, 187.5], [125, 375, 250, 375],
        ]
        let frames = cellFrames(result)
        let secondRepeat: [[Double]] = [
            [0, 750, 250, 375], [250, 750, 125, 187.5], [250, 937.5, 125, 187.5],
            [0, 1125, 125, 187.5], [0, 1312.5, 125, 187.5], [125, 1125, 250, 375],
        ]
        #expect(Array(frames.prefix(12)) == firstRepeat + secondRepeat)
        // Repeat k is the first one 750·k lower.
        let expected = (0..<7).flatMap { k in firstRepeat.map { [$0[0], $0[1] + 750 * Double(k), $0[2], $0[3]] } }
        #expect(frames == expected)
        #expect(frames[41] == [125, 4875, 250, 375])
        #expect(result.contentSize == Size(width: 375, height: 5250))
    }

    @Test("TRMosaicLayout copy, 40 items: the last block is used in part and is only as long as its first frame")
    func trMosaicPartialBlock() throws {
        var spec = try SeedSpecs.spec("trmosaic-readme.json")
        spec.sections[0].items = .list(Array(repeating: Item(), count: 40))
        let result = try LayoutEngine().layout(spec, crossExtent: 375)
        // 40 = 6·6 + 3 + 1: blocks 0…12 full (13·375 = 4875), then block 2's
        // first frame [0,0,1,1] alone: 187.5 long (Object.swift adds the
        // largest dy of the frames used, as the contract does).
        #expect(Array(cellFrames(result).suffix(4)) == [
            [0, 4500, 250, 375], [250, 4500, 125, 187.5], [250, 4687.5, 125, 187.5], [0, 4875, 125, 187.5],
        ])
        #expect(result.contentSize == Size(width: 375, height: 5062.5))
    }

    @Test("FMMosaicLayout copy at 375, 49 items: blocks 1, 2, 3, 2, 2 twice, then block 1")
    func fmMosaic() throws {
        let result = try SeedSpecs.layout("fmmosaic-readme.json", extent: 375)
        // README: min = 375/4 = 93.75, max = 375 − 2·93.75 = 187.5.
        // Contract: units 4, gutter 0: uw = ul = 93.75. Blocks start at 0
        // (187.5 long), 187.5 (93.75), 281.25 (187.5), 468.75 (93.75),
        // 562.5 (93.75); the pattern holds 22 items and is 656.25 long.
        let firstRepeat: [[Double]] = [
            [0, 0, 187.5, 187.5], [187.5, 0, 93.75, 93.75], [187.5, 93.75, 93.75, 93.75],
            [281.25, 0, 93.75, 93.75], [281.25, 93.75, 93.75, 93.75],
            [0, 187.5, 93.75, 93.75], [93.75, 187.5, 93.75, 93.75], [187.5, 187.5, 93.75, 93.75], [281.25, 187.5, 93.75, 93.75],
            [0, 281.25, 93.75, 93.75], [0, 375, 93.75, 93.75], [93.75, 281.25, 93.75, 93.75], [93.75, 375, 93.75, 93.75],
            [187.5, 281.25, 187.5, 187.5],
            [0, 468.75, 93.75, 93.75], [93.75, 468.75, 93.75, 93.75], [187.5, 468.75, 93.75, 93.75], [281.25, 468.75, 93.75, 93.75],
            [0, 562.5, 93.75, 93.75], [93.75, 562.5, 93.75, 93.75], [187.5, 562.5, 93.75, 93.75], [281.25, 562.5, 93.75, 93.75],
        ]
        let frames = cellFrames(result)
        #expect(Array(frames.prefix(22)) == firstRepeat)
        #expect(Array(frames[22..<44]) == firstRepeat.map { [$0[0], $0[1] + 656.25, $0[2], $0[3]] })
        // Items 44–48: block 1 of the third repeat, at 2·656.25 = 1312.5.
        #expect(Array(frames[44...]) == [
            [0, 1312.5, 187.5, 187.5], [187.5, 1312.5, 93.75, 93.75], [187.5, 1406.25, 93.75, 93.75],
            [281.25, 1312.5, 93.75, 93.75], [281.25, 1406.25, 93.75, 93.75],
        ])
        #expect(result.contentSize == Size(width: 375, height: 1500))
    }
}

// MARK: - PluginLayout

@Suite("seed examples: PluginLayout grid")
struct PluginLayoutSeedTests {
    @Test("GridViewController's demo, vertical at 375: 160 cats (4:3), 3 per line, spacing 2, insets 2, centred")
    func gridDemo() throws {
        // Read: stefanomondino/PluginLayout, Example/ViewControllers/
        // GridViewController.swift (DataSource(count: 160, contentType:
        // .cats); itemsPerLineAt 3; aspectRatioAt = the picture's ratio;
        // interitem and line spacing 2; insets 2 on every side; header and
        // footer 60; gridPlugin.alignment = .center; the demo starts
        // horizontal and toggles to vertical), Example/Model/Picture.swift
        // (cats: ratio 4/3) and Sources/Plugins/GridLayoutPlugin/
        // VerticalGridCalculator.swift (width = (avail − (n−1)·spacing)/n,
        // height = width / ratio).
        let result = try SeedSpecs.layout("pluginlayout-grid.json", extent: 375)
        // avail 371: w = (371 − 4)/3 = 122.33…, h = w/(4/3) = 91.75; items
        // top 60 + 2 = 62, a line every h + 2 = 93.75. Three items fill a
        // line (free space 0 up to rounding), so centring moves nothing
        // (as in FlowLayoutCalculator.swift, commit 6f3c08ab…; the earlier
        // LayoutCalculator.swift left insets.left out and moved them 1 left):
        // x = 2, 2 + w + 2, 2 + 2(w + 2). 160 = 53·3 + 1: item 159 is alone
        // on line 53, centred: x = 2 + (371 − w)/2.
        let w = 367.0 / 3, h = w / (4.0 / 3)
        let frames = cellFrames(result)
        #expect(frames.count == 160)
        func line(_ k: Double) -> [[Double]] {
            let y = 62 + k * (h + 2)
            return [[2, y, w, h], [2 + w + 2, y, w, h], [2 + 2 * (w + 2), y, w, h]]
        }
        expectFrames(Array(frames.prefix(6)), line(0) + line(1))
        expectFrames(Array(frames[156..<159]), line(52))
        expectFrames([frames[159]], [[2 + (371 - w) / 2, 62 + 53 * (h + 2), w, h]])
        #expect(h == 91.75)
        #expect(frame(.header, result) == [0, 0, 375, 60])
        // Last line ends at 62 + 53·93.75 + 91.75 = 5122.5; + 2 + footer 60.
        let footer = try #require(frame(.footer, result))
        expectFrames([footer], [[0, 5124.5, 375, 60]])
        #expect(abs(result.contentSize.height - 5184.5) < 1e-9)
    }

    @Test("MixedViewController's grid section at 375: fractions 2, 4, 5, 3 share lines, justified")
    func mixedGridSection() throws {
        // Read: stefanomondino/PluginLayout, Example/ViewControllers/
        // MixedViewController.swift (section 3 uses GridLayoutPlugin with
        // the default alignment (.default, justified); 30 .sports pictures,
        // ratio 1 (Example/Model/Picture.swift); lineFractionAt: items 0..<4
        // → 2, 4..<7 → 4, 7..<16 → 5, else 3; spacing 2 and 2; insets 2;
        // header and footer 60). Only that section is laid out here, from
        // the top. Sources/Plugins/FlowLayoutPlugin/FlowLayoutCalculator.swift
        // (commit 6f3c08ab…): justified moves item i of n by i·free/(n−1)
        // with free = avail − maxX + insets.left; VerticalFlowCalculator.swift
        // does not realign the last line when the alignment is .default.
        // (The earlier LayoutCalculator.swift, commit 63e536cc…, leaves
        // insets.left out of free, so its justified lines end 2 points
        // short of the right inset; the later file and the contract agree.)
        let fractions = Array(repeating: 2, count: 4) + Array(repeating: 4, count: 3)
            + Array(repeating: 5, count: 9) + Array(repeating: 3, count: 14)
        let items = fractions.map { #"{"fraction": \#($0)}"# }.joined(separator: ", ")
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "grid", "itemSpacing": 2, "lineSpacing": 2},
          "header": {"size": 60}, "footer": {"size": 60},
          "insets": {"top": 2, "left": 2, "bottom": 2, "right": 2},
          "items": [\(items)]
        }]}
        """, extent: 375)
        // avail 371: w2 = 184.5, w4 = (371 − 6)/4 = 91.25, w5 = 363/5 =
        // 72.6, w3 = 367/3 = 122.33…; all square. Lines (x as placed, then
        // the justified shift):
        //  0: items 0, 1 at y 62 (fills the line: no shift).
        //  1: items 2, 3 at y 62 + 186.5 = 248.5.
        //  2: y 435: 4, 5, 6 (w4) and 7 (w5) fit (7 ends at 354.35 ≤ 373),
        //     8 would end at 428.95. free = 371 − (3·91.25 + 72.6 + 6) =
        //     18.65, item i moves by i·18.65/3; 7 is centred on the line's
        //     height: y + (91.25 − 72.6)/2.
        //  3: y 435 + 93.25 = 528.25: 8…12, five of w5, fill the line.
        //  4: y 528.25 + 74.6 = 602.85: 13, 14, 15 (w5) and 16 (w3); free
        //     = 371 − (3·72.6 + w3 + 6) = 24.866…; the w5 items are centred
        //     on the height w3.
        //  5…8: three w3 items a line, every w3 + 2.
        //  9: item 29 alone: the justified last line keeps x = 2.
        let w2 = 184.5, w4 = 91.25, w5 = 363.0 / 5, w3 = 367.0 / 3
        var expected: [[Double]] = [[2, 62, w2, w2], [188.5, 62, w2, w2], [2, 248.5, w2, w2], [188.5, 248.5, w2, w2]]
        let free2 = 371 - (3 * w4 + w5 + 6)
        for i in 0..<3 { expected.append([2 + Double(i) * (w4 + 2) + Double(i) * free2 / 3, 435, w4, w4]) }
        expected.append([2 + 3 * (w4 + 2) + free2, 435 + (w4 - w5) / 2, w5, w5])
        for i in 0..<5 { expected.append([2 + Double(i) * (w5 + 2), 528.25, w5, w5]) }
        let y4 = 528.25 + w5 + 2
        let free4 = 371 - (3 * w5 + w3 + 6)
        for i in 0..<3 { expected.append([2 + Double(i) * (w5 + 2) + Double(i) * free4 / 3, y4 + (w3 - w5) / 2, w5, w5]) }
        expected.append([2 + 3 * (w5 + 2) + free4, y4, w3, w3])
        for line in 0..<4 {
            let y = y4 + Double(line + 1) * (w3 + 2)
            for i in 0..<3 { expected.append([2 + Double(i) * (w3 + 2), y, w3, w3]) }
        }
        let y9 = y4 + 5 * (w3 + 2)
        expected.append([2, y9, w3, w3])
        expectFrames(cellFrames(result), expected)
        // Spot values: item 7 at x 300.4, y 444.325; item 16 ends at 373.
        expectFrames([cellFrames(result)[7]], [[300.4, 444.325, 72.6, 72.6]])
        #expect(abs(cellFrames(result)[16][0] + w3 - 373) < 1e-9)
        let footer = try #require(frame(.footer, result))
        expectFrames([footer], [[0, y9 + w3 + 2, 375, 60]])
        #expect(abs(result.contentSize.height - (y9 + w3 + 2 + 60)) < 1e-9)
    }

    @Test("the research notes' wrap case: W 375, 3 per line, spacing 10, insets 10 → 3 per line (PluginLayout: 2)")
    func earlyWrapCase() throws {
        // Research notes: PluginLayout's grid wraps early at W=375, 3 per
        // line, spacing 10, insets 10 (VerticalFlowCalculator.swift breaks
        // when last.maxX + spacing + w + insets.right > width with no
        // tolerance: 10 + 3·111.67 + 20 + 10 comes out a hair above 375).
        // The contract tolerates 1e-9: three per line.
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 10, "lineSpacing": 10},
          "insets": {"top": 10, "left": 10, "bottom": 10, "right": 10}, "items": {"count": 7, "cycle": [{}]}}]}
        """, extent: 375)
        // w = (355 − 20)/3 = 111.67; lines at y 10, 10 + w + 10, 10 + 2(w + 10);
        // x = 10, 10 + w + 10, 10 + 2(w + 10) (free space 0 up to rounding);
        // item 6 alone on the last line keeps x = 10.
        let w = 335.0 / 3
        let rows = (0..<3).map { 10 + Double($0) * (w + 10) }
        expectFrames(cellFrames(result), [
            [rows[0], rows[0], w, w], [rows[1], rows[0], w, w], [rows[2], rows[0], w, w],
            [rows[0], rows[1], w, w], [rows[1], rows[1], w, w], [rows[2], rows[1], w, w],
            [rows[0], rows[2], w, w],
        ])
        // 10 + 3w + 20 + 10 = 375 (PluginLayout: four lines, 496.67).
        #expect(abs(result.contentSize.height - 375) < 1e-9)
    }
}

// MARK: - ADMozaikLayout

@Suite("seed examples: ADMozaikLayout")
struct ADMozaikSeedTests {
    @Test("ADMozaikLayoutSectionGeometryTests: columns 105/106/105, rows 105, spacing 1 and 2, insets 1")
    func sectionGeometryTest() throws {
        // Read: Antondomashnev/ADMozaicCollectionViewLayout,
        // ADMozaikCollectionViewLayoutTests/ADMozaikLayoutSectionGeometryTests.swift
        // (commit 039c982f…): columns 105, 106, 105; rowHeight 105;
        // minimumInteritemSpacing 1; minimumLineSpacing 2; sectionInset 1
        // on every side. It expects: a 2×2 item at (0,0) is 212 × 212; a
        // 1×1 at column 2 is 105 × 105; x of column 0 = 1, of column 2 =
        // 214; y of row 0 = 1, of row 2 = 215.
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columns": [105, 106, 105], "rowHeight": 105, "itemSpacing": 1, "lineSpacing": 2},
          "insets": {"top": 1, "left": 1, "bottom": 1, "right": 1},
          "items": [{"columns": 2, "rows": 2}, {}, {}, {}, {}, {}]
        }]}
        """, extent: 320)
        // Dense: the 2×2 at (0,0), then (0,2), (1,2), (2,0), (2,1), (2,2).
        // x = 1, 1 + 106 = 107, 107 + 107 = 214; y = 1 + row·107.
        #expect(cellFrames(result) == [
            [1, 1, 212, 212], [214, 1, 105, 105], [214, 108, 105, 105],
            [1, 215, 105, 105], [107, 215, 106, 105], [214, 215, 105, 105],
        ])
        // The seed's 320-point width: 1 + 105 + 1 + 106 + 1 + 105 + 1.
        #expect(result.contentSize == Size(width: 320, height: 215 + 105 + 1))
    }

    @Test("the earlier ADMozaikLayoutGeometryTests: columns 106/105/106, rows 106, spacing 1 and 2, no insets")
    func earlierGeometryTest() throws {
        // Read: Antondomashnev/ADMozaicCollectionViewLayout,
        // ADMozaikCollectionViewLayoutTests/ADMozaikLayoutGeometryTests.swift
        // (commit 2fee92a5…): 2×2 at (0,0) is 212 × 214; 1×1 at column 2 is
        // 106 × 106; x of column 2 = 213; y of row 2 = 216.
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columns": [106, 105, 106], "rowHeight": 106, "itemSpacing": 1, "lineSpacing": 2},
          "items": [{"columns": 2, "rows": 2}, {}, {}, {}, {}, {}]
        }]}
        """, extent: 319)
        #expect(cellFrames(result) == [
            [0, 0, 212, 214], [213, 0, 106, 106], [213, 108, 106, 106],
            [0, 216, 106, 106], [107, 216, 105, 106], [213, 216, 106, 106],
        ])
    }

    @Test("ADMozaikLayoutTests use case d: insets 5/3/0/3, columns 103/104/103, rows 103, spacing 2, 40 items")
    func snapshotUseCaseD() throws {
        // Read: ADMozaikCollectionViewLayoutTests/ADMozaikLayoutTests.swift
        // (commit 039c982f…), use case .d, a 320 × 568 snapshot of 40 1×1
        // items. x = 3, 3 + 105 = 108, 108 + 106 = 214; y = 5 + row·105.
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columns": [103, 104, 103], "rowHeight": 103, "itemSpacing": 2, "lineSpacing": 2},
          "insets": {"top": 5, "left": 3, "right": 3}, "items": {"count": 40, "cycle": [{}]}
        }]}
        """, extent: 320)
        let xs: [Double] = [3, 108, 214], widths: [Double] = [103, 104, 103]
        let expected = (0..<40).map { index -> [Double] in
            let row = Double(index / 3)
            return [xs[index % 3], 5 + row * 105, widths[index % 3], 103]
        }
        #expect(cellFrames(result) == expected)
        // 14 rows: 5 + 13·105 + 103.
        #expect(result.contentSize == Size(width: 320, height: 1473))
    }

    @Test("ADMozaikLayoutTests use case f, the 'complex layout' snapshot: 5 columns, 40 items of four sizes")
    func snapshotUseCaseF() throws {
        // Read: ADMozaikCollectionViewLayoutTests/ADMozaikLayoutTests.swift
        // (commit 039c982f…), use case .f: columns 63, 63, 64, 63, 63;
        // rowHeight 63; spacing 1 and 1; no insets; 40 items, item i is 2×2
        // when i % 8 == 0, else 3×1 when i % 6 == 0, else 1×3 when i % 4 ==
        // 0, else 1×1; frame 320 × 568. ADMozaikLayoutSectionMatrix.swift
        // (fill mode) takes the first free block in row-major order (its
        // start-row cache per size does not change the result).
        let result = try SeedSpecs.layout("admozaik-complex.json", extent: 320)
        // Column x: 0, 64, 128, 193, 257. Row y: 64·row. Hand trace
        // (row, col): 0 (2×2) (0,0); 1–3 fill row 0; 4 (1×3) (1,2); 5 (1,3);
        // 6 (3×1): column 2 is taken down to row 3, so (4,0); 7 (1,4);
        // 8 (2×2) (2,0); 9, 10 (2,3), (2,4); 11 (3,3); 12 (3×1) (5,0);
        // 13 (3,4); 14, 15 (4,3), (4,4); 16 (2×2) (5,3); 17 (6,0);
        // 18 (3×1): row 6 is cut by 17 and 16, so (7,0); 19 (6,1);
        // 20 (1×3): (6,2) would hit 18, so (7,3); 21 (6,2); 22 (7,4);
        // 23 (8,0); 24 (2×2) (8,1); 25 (8,4); 26 (9,0); 27 (9,4);
        // 28 (1×3) (10,0); 29 (10,1); 30 (3×1) (10,2); 31 (11,1);
        // 32 (2×2) (11,2); 33 (11,4); 34 (12,1); 35 (12,4); 36 (3×1) (13,0);
        // 37, 38 (13,3), (13,4); 39 (14,0).
        let expected: [[Double]] = [
            [0, 0, 127, 127], [128, 0, 64, 63], [193, 0, 63, 63], [257, 0, 63, 63],
            [128, 64, 64, 191], [193, 64, 63, 63], [0, 256, 192, 63], [257, 64, 63, 63],
            [0, 128, 127, 127], [193, 128, 63, 63], [257, 128, 63, 63], [193, 192, 63, 63],
            [0, 320, 192, 63], [257, 192, 63, 63], [193, 256, 63, 63], [257, 256, 63, 63],
            [193, 320, 127, 127], [0, 384, 63, 63], [0, 448, 192, 63], [64, 384, 63, 63],
            [193, 448, 63, 191], [128, 384, 64, 63], [257, 448, 63, 63], [0, 512, 63, 63],
            [64, 512, 128, 127], [257, 512, 63, 63], [0, 576, 63, 63], [257, 576, 63, 63],
            [0, 640, 63, 191], [64, 640, 63, 63], [128, 640, 192, 63], [64, 704, 63, 63],
            [128, 704, 128, 127], [257, 704, 63, 63], [64, 768, 63, 63], [257, 768, 63, 63],
            [0, 832, 192, 63], [193, 832, 63, 63], [257, 832, 63, 63], [0, 896, 63, 63],
        ]
        #expect(cellFrames(result) == expected)
        // Lowest row 14: 14·64 + 63.
        #expect(result.contentSize == Size(width: 320, height: 959))
    }
}
