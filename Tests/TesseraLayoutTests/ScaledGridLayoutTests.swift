import Foundation
import Testing
@testable import TesseraLayout

@Suite("scaledGrid")
struct ScaledGridLayoutTests {
    @Test("PrimeGrid-style: big squares leave the cursor behind, small ones back-fill the gaps")
    func primeGridExample() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "scaledGrid", "divisions": 4, "spacing": 4},
          "insets": {"top": 10, "left": 5, "right": 5},
          "items": [{}, {"scale": 2}, {}, {}, {"scale": 3}, {}, {}, {}, {}, {"scale": 2}, {}]
        }]}
        """, extent: 410)
        // avail 400, c = (400 − 3·4)/4 = 97, pitch 101: x = 5 + col·101,
        // y = 10 + row·101; sizes 97, 198 (scale 2), 299 (scale 3).
        // Cursor trace: 0 at (0,0) → cursor (0,1); 1 (s2) at (0,1) → (0,3);
        // 2 at (0,3) → (0,4), wraps to (1,0); 3 at (1,0) → (1,1); 4 (s3): (1,1)
        // is taken, next block at (2,0), cursor stays (1,1); 5: first free from
        // (1,1) is (1,3); 6: (2,3); 7: (3,3); 8: (4,3); 9 (s2): rows 1–4 are
        // full from the cursor on, so (5,0); 10: (5,2).
        #expect(cellFrames(result) == [
            [5, 10, 97, 97], [106, 10, 198, 198], [308, 10, 97, 97],
            [5, 111, 97, 97], [5, 212, 299, 299], [308, 111, 97, 97],
            [308, 212, 97, 97], [308, 313, 97, 97], [308, 414, 97, 97],
            [5, 515, 198, 198], [207, 515, 97, 97],
        ])
        // Lowest occupied row is 6 (item 9 covers rows 5–6): 10 + 5·101 + 198.
        #expect(result.contentSize == Size(width: 410, height: 713))
    }

    @Test("horizontal: cells keep their on-screen aspect ratio, rows stack to the right")
    func horizontal() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{
          "layout": {"kind": "scaledGrid", "divisions": 3, "spacing": 1, "aspectRatio": 2},
          "insets": {"top": 1, "left": 7, "bottom": 2, "right": 3},
          "items": [{"scale": 2}, {}, {}, {}, {"scale": 2}]
        }]}
        """, extent: 95)
        // avail = 95 − 1 − 2 = 92 down the screen: c = (92 − 2)/3 = 30 tall,
        // 30·2 = 60 wide; a scale-2 item is 121 × 61. Cells: 0 (s2) at (0,0);
        // 1 at (0,2); 2: the cursor wraps to (1,0), taken, so (1,2), cursor
        // stays; 3: (2,0); 4 (s2): from (1,0) the first free 2×2 is (2,1).
        // Screen: x = 7 + row·61, y = 1 + col·31.
        #expect(cellFrames(result) == [
            [7, 1, 121, 61], [7, 63, 60, 30], [68, 63, 60, 30], [129, 1, 60, 30], [129, 32, 121, 61],
        ])
        #expect(result.contentSize == Size(width: 7 + 243 + 3, height: 95))
    }

    @Test("a scale above the divisions is clamped; a header comes before the items")
    func clampedScaleAndHeader() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "scaledGrid", "divisions": 2},
          "header": {"size": 20},
          "items": [{"scale": 9}, {}, {"scale": null}]
        }]}
        """, extent: 100)
        #expect(cellFrames(result) == [[0, 20, 100, 100], [0, 120, 50, 50], [50, 120, 50, 50]])
        #expect(result.contentSize == Size(width: 100, height: 170))
    }

    @Test("a hole the cursor never leaves: scale 1, then only full-width items")
    func holeAtTheCursor() throws {
        let items = [Item()] + Array(repeating: Item(scale: 3), count: 1500) + [Item(), Item()]
        let result = try LayoutEngine().layout(
            Spec(sections: [Section(layout: ScaledGridLayout(divisions: 3), items: .list(items))]), crossExtent: 30
        )
        let frames = cellFrames(result)
        #expect(frames[1] == [0, 10, 30, 30])
        #expect(frames[1500] == [0, 10 + 1499 * 30, 30, 30])
        // The two last small items fill the hole next to the first one.
        #expect(frames[1501] == [10, 0, 10, 10])
        #expect(frames[1502] == [20, 0, 10, 10])
        #expect(firstMismatch(frames, ScaledGridReference.frames(items, divisions: 3, spacing: 0, cell: 10, cellScroll: 10)) == nil)
    }

    @Test("full rows at the top are dropped from memory, and placement goes on the same")
    func fullRowsAreDropped() throws {
        let pattern = [1, 1, 2, 1, 1, 1, 3, 1, 2, 1]
        let items = (0..<3000).map { Item(scale: pattern[$0 % pattern.count]) }
        let context = SectionContext(axis: .vertical, section: 0, crossExtent: 30, available: 30)
        var placer = try #require(try ScaledGridLayout(divisions: 3).makePlacer(in: context) as? ScaledGridLayout.Placer)
        var sink = FrameSink()
        for (index, item) in items.enumerated() {
            try placer.place(item, index: index, location: ItemLocation(section: 0, index: index), into: &sink)
        }
        let frames = sink.frames.map { [$0.frame.cross, $0.frame.scroll, $0.frame.crossLength, $0.frame.scrollLength] }
        #expect(firstMismatch(frames, ScaledGridReference.frames(items, divisions: 3, spacing: 0, cell: 10, cellScroll: 10)) == nil)
        let rows = Int(placer.finish(into: &sink) / 10)
        #expect(rows > 1000)
        #expect(placer.cells.storedRowCount < rows / 2)
    }

    @Test("random scales agree with a naive scan from the cursor")
    func matchesNaiveReference() throws {
        let seed = ScaledGridRandom.seed(default: 0x5CA1_ED00)
        var random = ScaledGridRandom(seed: seed)
        for round in 0..<8 {
            // One round on a matrix wider than a 64-column word.
            let divisions = round == 0 ? 70 : [1, 2, 3, 4, 5, 6, 7, 9][Int(random.next() % 8)]
            let spacing = Double(random.next() % 3)
            let bigShare = 1 + random.next() % 6
            let items = (0..<1500).map { _ in
                random.next() % 8 < bigShare ? Item(scale: 1 + Int(random.next() % UInt64(min(divisions + 1, 6)))) : Item()
            }
            let extent = Double(divisions) * 10 + Double(divisions - 1) * spacing
            let result = try LayoutEngine().layout(
                Spec(sections: [Section(layout: ScaledGridLayout(divisions: divisions, spacing: spacing, aspectRatio: 2), items: .list(items))]),
                crossExtent: extent
            )
            let expected = ScaledGridReference.frames(items, divisions: divisions, spacing: spacing, cell: 10, cellScroll: 5)
            #expect(firstMismatch(cellFrames(result), expected) == nil, "seed \(seed), round \(round), divisions \(divisions)")
            let bottom = expected.map { $0[1] + $0[3] }.max() ?? 0
            #expect(result.contentSize.height == bottom, "seed \(seed), round \(round)")
        }
    }

    @Test("a placer saved mid-way and restored goes on exactly as one that never stopped")
    func resumesFromSavedState() throws {
        let scales = [1, 3, 1, 2, 1, 1, 3, 1, 2, 2, 1, 1, 1, 3, 1]
        let items = (0..<600).map { Item(scale: scales[$0 % scales.count]) }
        let context = SectionContext(axis: .vertical, section: 0, crossExtent: 40, available: 40)
        let layout = ScaledGridLayout(divisions: 4)
        var whole = try #require(try layout.makePlacer(in: context) as? ScaledGridLayout.Placer)
        var first = try #require(try layout.makePlacer(in: context) as? ScaledGridLayout.Placer)
        var sinkWhole = FrameSink()
        var sinkParts = FrameSink()
        for (index, item) in items.enumerated() {
            try whole.place(item, index: index, location: ItemLocation(section: 0, index: index), into: &sinkWhole)
        }
        for (index, item) in items.prefix(350).enumerated() {
            try first.place(item, index: index, location: ItemLocation(section: 0, index: index), into: &sinkParts)
        }
        var resumed = try JSONDecoder().decode(ScaledGridLayout.Placer.self, from: JSONEncoder().encode(first))
        for (index, item) in items.enumerated().dropFirst(350) {
            try resumed.place(item, index: index, location: ItemLocation(section: 0, index: index), into: &sinkParts)
        }
        #expect(sinkParts.frames == sinkWhole.frames)
        #expect(resumed.finish(into: &sinkParts) == whole.finish(into: &sinkWhole))
    }

    @Test("parameters re-encode every value, defaults included")
    func parametersRoundTrip() throws {
        let layout = ScaledGridLayout(divisions: 5, spacing: 2.5, aspectRatio: 0.75)
        let read = try ScaledGridLayout(parameters: LayoutParameters(object: layout.parameters, path: .root))
        #expect(read == layout)
        let defaults = try ScaledGridLayout(parameters: LayoutParameters(object: JSONObject(["divisions": .number(3)]), path: .root))
        #expect(defaults.parameters == JSONObject(["divisions": .number(3), "spacing": .number(0), "aspectRatio": .number(1)]))
    }

    @Test("an empty section has no extent")
    func empty() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "scaledGrid", "divisions": 3}, "items": []}]}
        """, extent: 90)
        #expect(result.contentSize == Size(width: 90, height: 0))
    }

    @Test("errors name the parameter or the item", arguments: [
        (#"{"kind": "scaledGrid"}"#, #"[{}]"#, "sections[1].layout.divisions"),
        (#"{"kind": "scaledGrid", "divisions": 0}"#, #"[{}]"#, "sections[1].layout.divisions"),
        (#"{"kind": "scaledGrid", "divisions": 2.5}"#, #"[{}]"#, "sections[1].layout.divisions"),
        (#"{"kind": "scaledGrid", "divisions": 5000}"#, #"[{}]"#, "sections[1].layout.divisions"),
        (#"{"kind": "scaledGrid", "divisions": 11, "spacing": 11}"#, #"[{}]"#, "sections[1].layout.divisions"),
        (#"{"kind": "scaledGrid", "divisions": 2, "spacing": -1}"#, #"[{}]"#, "sections[1].layout.spacing"),
        (#"{"kind": "scaledGrid", "divisions": 2, "aspectRatio": 0}"#, #"[{}]"#, "sections[1].layout.aspectRatio"),
        (#"{"kind": "scaledGrid", "divisions": 2}"#, #"[{}, {}, {}, {"scale": 0}]"#, "sections[1].items[3].scale"),
        (#"{"kind": "scaledGrid", "divisions": 2}"#, #"[{"scale": -2}]"#, "sections[1].items[0].scale"),
        (#"{"kind": "scaledGrid", "divisions": 2}"#, #"[{"scale": 1.5}]"#, "sections[1].items[0].scale"),
        (#"{"kind": "scaledGrid", "divisions": 2}"#, #"{"count": 9, "cycle": [{}, {"scale": 0}]}"#, "sections[1].items.cycle[1].scale"),
    ])
    func errors(layoutJSON: String, itemsJSON: String, path: String) {
        let error = specError("""
        {"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{}]},
          {"layout": \(layoutJSON), "items": \(itemsJSON)}]}
        """, extent: 100)
        #expect(error?.path == path, "\(String(describing: error))")
    }

    @Test("the spacing error says why")
    func spacingErrorMessage() {
        let error = specError("""
        {"format": 1, "sections": [{"layout": {"kind": "scaledGrid", "divisions": 11, "spacing": 10}, "items": [{}]}]}
        """, extent: 90)
        #expect(error?.description == "sections[0].layout.divisions: 11 divisions need 100 points of spacing, more than the 90 available")
    }
}

/// The contract's placement, written as plainly as possible: a boolean
/// matrix and a cell-by-cell scan from the cursor for every item.
enum ScaledGridReference {
    static func frames(_ items: [Item], divisions n: Int, spacing: Double, cell: Double, cellScroll: Double) -> [[Double]] {
        var taken: [Bool] = []
        func isFree(_ row: Int, _ column: Int, _ scale: Int) -> Bool {
            for r in row..<(row + scale) where r * n < taken.count {
                for c in column..<(column + scale) where taken[r * n + c] { return false }
            }
            return true
        }
        var cursorRow = 0
        var cursorColumn = 0
        var frames: [[Double]] = []
        for item in items {
            let scale = min(item.scale ?? 1, n)
            if cursorColumn >= n { cursorRow += 1; cursorColumn = 0 }
            var row = cursorRow
            var column = cursorColumn
            while !(column + scale <= n && isFree(row, column, scale)) {
                column += 1
                if column + scale > n { row += 1; column = 0 }
            }
            if taken.count < (row + scale) * n { taken += Array(repeating: false, count: (row + scale) * n - taken.count) }
            for r in row..<(row + scale) { for c in column..<(column + scale) { taken[r * n + c] = true } }
            if row == cursorRow && column == cursorColumn { cursorColumn += scale }
            let span = Double(scale - 1) * spacing
            frames.append([
                Double(column) * (cell + spacing), Double(row) * (cellScroll + spacing),
                Double(scale) * cell + span, Double(scale) * cellScroll + span,
            ])
        }
        return frames
    }
}

/// SplitMix64: a small generator whose seed reproduces a failing case.
struct ScaledGridRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    /// The seed from TESSERA_SEED when set (to replay a failure), else `fallback`.
    static func seed(default fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["TESSERA_SEED"].flatMap { UInt64($0) } ?? fallback
    }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The first item whose frame differs, for a short failure message.
private func firstMismatch(_ actual: [[Double]], _ expected: [[Double]]) -> String? {
    if actual.count != expected.count { return "\(actual.count) frames, expected \(expected.count)" }
    guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return nil }
    return "item \(index): \(actual[index]), expected \(expected[index])"
}
