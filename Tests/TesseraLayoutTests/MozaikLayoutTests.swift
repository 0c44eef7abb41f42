import Foundation
import Testing
@testable import TesseraLayout

@Suite("mozaik")
struct MozaikLayoutTests {
    @Test("ADMozaikLayout's matrix (columns 105, 106, 105) under a header, with insets: a 2×2 item at the origin, back-filled")
    func adMozaikGeometry() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columns": [105, 106, 105], "rowHeight": 105, "itemSpacing": 1, "lineSpacing": 2},
          "header": {"size": 44},
          "insets": {"top": 3, "left": 1, "bottom": 2, "right": 1},
          "items": [{"columns": 2, "rows": 2}, {"columns": 3}, {}, {}, {"rows": 2}, {}, {}]
        }]}
        """, extent: 320)
        // Items top 44 + 3 = 47; y = 47 + row·107; x = 1, 1 + 106 = 107,
        // 107 + 107 = 214. Dense: 0 (2×2) at (0,0); 1 (3×1) fits first in
        // row 2; 2 and 3 back-fill (0,2) and (1,2); 4 (1×2) at (3,0); 5 (3,1);
        // 6 (3,2). The seed's own test, without the header (insets 1 all
        // round), is in SeedExampleTests.
        #expect(cellFrames(result) == [
            [1, 47, 212, 212], [1, 261, 318, 105], [214, 47, 105, 105], [214, 154, 105, 105],
            [1, 368, 105, 212], [107, 368, 106, 105], [214, 368, 105, 105],
        ])
        // The lowest row is 4: 47 + 3·107 + 212 + insets.bottom 2.
        #expect(result.contentSize == Size(width: 320, height: 582))
    }

    @Test("ADMozaikLayout's matrix with spacings 1 and 2: small items fill around the 2×2 one",
          arguments: [
            (1.0, 318.0, [[0.0, 0, 212, 211], [213, 0, 105, 105], [213, 106, 105, 105],
                          [0, 212, 105, 105], [106, 212, 106, 105], [213, 212, 105, 105]], 317.0),
            (2.0, 320.0, [[0.0, 0, 213, 212], [215, 0, 105, 105], [215, 107, 105, 105],
                          [0, 214, 105, 105], [107, 214, 106, 105], [215, 214, 105, 105]], 319.0),
          ])
    func adMozaikSpacings(spacing: Double, extent: Double, frames: [[Double]], height: Double) throws {
        // x = Σ_{k<col}(width_k + spacing); y = row·(105 + spacing); the 2×2
        // item is 105 + 106 + spacing wide and 2·105 + spacing tall.
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columns": [105, 106, 105], "rowHeight": 105,
                     "itemSpacing": \(spacing), "lineSpacing": \(spacing)},
          "items": [{"columns": 2, "rows": 2}, {}, {}, {}, {}, {}]
        }]}
        """, extent: extent)
        #expect(cellFrames(result) == frames)
        #expect(result.contentSize == Size(width: extent, height: height))
    }

    @Test("ordered: a skyline, items never go above earlier ones")
    func ordered() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columnCount": 3, "rowHeight": 50, "order": "ordered"},
          "items": [{"columns": 2, "rows": 2}, {"columns": 3}, {}, {}, {"rows": 2}, {}, {}]
        }]}
        """, extent: 300)
        // Columns of 100. Bottoms (rows) after each item: [2,2,0], [3,3,3],
        // [4,3,3], [4,4,3], [4,4,5], [5,4,5], [5,5,5]; the hole at (0,2) and
        // (1,2) stays empty.
        #expect(cellFrames(result) == [
            [0, 0, 200, 100], [0, 100, 300, 50], [0, 150, 100, 50], [100, 150, 100, 50],
            [200, 150, 100, 100], [0, 200, 100, 50], [100, 200, 100, 50],
        ])
        #expect(result.contentSize == Size(width: 300, height: 250))
    }

    @Test("ordered: a wide item takes the start column whose columns end highest, ties to the left")
    func orderedTies() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columnCount": 4, "rowHeight": 10, "order": "ordered"},
          "items": [{}, {"columns": 2}, {"columns": 2}, {}]
        }]}
        """, extent: 400)
        // Item 1: start columns 1 and 2 both reach row 0, so column 1. Item
        // 2: bottoms [1,1,1,0], every start reaches row 1: column 0. Item 3:
        // column 3 is the lowest.
        #expect(cellFrames(result) == [[0, 0, 100, 10], [100, 0, 200, 10], [0, 10, 200, 10], [300, 0, 100, 10]])
    }

    @Test("horizontal: columns run down the screen, rows stack to the right")
    func horizontal() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{
          "layout": {"kind": "mozaik", "columns": [50, 70, 80], "rowHeight": 40, "lineSpacing": 5},
          "insets": {"left": 10},
          "items": [{"columns": 2}, {}, {"rows": 2}, {}]
        }]}
        """, extent: 200)
        // Column k starts at y = 0, 50, 120; row r at x = 10 + r·45. Dense:
        // 0 (2×1) at (0,0), 1 at (0,2), 2 (1×2) at (1,0), 3 at (1,1).
        #expect(cellFrames(result) == [[10, 0, 40, 120], [10, 120, 40, 80], [55, 0, 85, 50], [55, 50, 40, 70]])
        #expect(result.contentSize == Size(width: 140, height: 200))
    }

    @Test("columnCount: equal columns that fill avail; columns wins over it unvalidated")
    func columnCount() throws {
        let counted = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columnCount": 3, "rowHeight": 20, "itemSpacing": 5},
          "insets": {"left": 10, "right": 10}, "items": [{}, {"columns": 2}, {"columns": 3}]
        }]}
        """, extent: 330)
        // avail 310: (310 − 10)/3 = 100; x = 10 + col·105.
        #expect(cellFrames(counted) == [[10, 0, 100, 20], [115, 0, 205, 20], [10, 20, 310, 20]])
        let both = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "mozaik", "columns": [30], "columnCount": "many", "rowHeight": 20}, "items": [{}, {}]
        }]}
        """, extent: 100)
        #expect(cellFrames(both) == [[0, 0, 30, 20], [0, 20, 30, 20]])
    }

    @Test("random sizes agree with a naive first-free-block scan (dense) and skyline (ordered)")
    func matchesNaiveReference() throws {
        let seed = ScaledGridRandom.seed(default: 0x0AD_3051)
        var random = ScaledGridRandom(seed: seed)
        for round in 0..<12 {
            let order: MozaikLayout.Order = round % 3 == 2 ? .ordered : .dense
            // One round on a matrix wider than a 64-column word.
            let columns = round == 0 ? 67 : [1, 2, 3, 4, 5, 6, 8, 10][Int(random.next() % 8)]
            let maxRows = 1 + Int(random.next() % 12)
            let bigShare = 1 + random.next() % 6
            let items = (0..<1500).map { _ in
                random.next() % 8 < bigShare
                    ? Item(columns: 1 + Int(random.next() % UInt64(min(columns, 6))), rows: 1 + Int(random.next() % UInt64(maxRows)))
                    : Item()
            }
            let widths = (0..<columns).map { _ in Double(1 + random.next() % 40) }
            let spacing = Double(random.next() % 3)
            let layout = MozaikLayout(columns: .widths(widths), rowHeight: 7, itemSpacing: spacing, lineSpacing: spacing + 1, order: order)
            let result = try LayoutEngine().layout(Spec(sections: [Section(layout: layout, items: .list(items))]), crossExtent: 1000)
            let expected = MozaikReference.frames(items, widths: widths, rowHeight: 7, itemSpacing: spacing, lineSpacing: spacing + 1, order: order)
            #expect(firstMismatch(cellFrames(result), expected) == nil, "seed \(seed), round \(round), \(order), \(columns) columns")
            let bottom = expected.map { $0[1] + $0[3] }.max() ?? 0
            #expect(result.contentSize.height == bottom, "seed \(seed), round \(round)")
        }
    }

    @Test("many distinct block sizes: the bounded hint seeding stays exact")
    func manyBlockSizes() throws {
        let items = (0..<1200).map { index in
            Item(columns: 1 + (index * 7) % 4, rows: 1 + (index * 13) % 40)
        }
        let widths = [10.0, 20, 30, 40]
        let layout = MozaikLayout(columns: .widths(widths), rowHeight: 10)
        let result = try LayoutEngine().layout(Spec(sections: [Section(layout: layout, items: .list(items))]), crossExtent: 100)
        #expect(firstMismatch(cellFrames(result), MozaikReference.frames(items, widths: widths, rowHeight: 10, itemSpacing: 0, lineSpacing: 0, order: .dense)) == nil)
    }

    @Test("a placer saved mid-way and restored goes on exactly as one that never stopped", arguments: MozaikLayout.Order.allCases)
    func resumesFromSavedState(order: MozaikLayout.Order) throws {
        let sizes = [(1, 1), (2, 2), (1, 1), (3, 1), (1, 2), (1, 1), (2, 1), (1, 3)]
        let items = (0..<500).map { Item(columns: sizes[$0 % sizes.count].0, rows: sizes[$0 % sizes.count].1) }
        let context = SectionContext(axis: .vertical, section: 0, crossExtent: 300, available: 300)
        let layout = MozaikLayout(columns: .count(4), rowHeight: 30, itemSpacing: 2, lineSpacing: 3, order: order)
        var whole = try #require(try layout.makePlacer(in: context) as? MozaikLayout.Placer)
        var first = try #require(try layout.makePlacer(in: context) as? MozaikLayout.Placer)
        var sinkWhole = FrameSink()
        var sinkParts = FrameSink()
        for (index, item) in items.enumerated() {
            try whole.place(item, index: index, location: ItemLocation(section: 0, index: index), into: &sinkWhole)
        }
        for (index, item) in items.prefix(321).enumerated() {
            try first.place(item, index: index, location: ItemLocation(section: 0, index: index), into: &sinkParts)
        }
        var resumed = try JSONDecoder().decode(MozaikLayout.Placer.self, from: JSONEncoder().encode(first))
        for (index, item) in items.enumerated().dropFirst(321) {
            try resumed.place(item, index: index, location: ItemLocation(section: 0, index: index), into: &sinkParts)
        }
        #expect(sinkParts.frames == sinkWhole.frames)
        #expect(resumed.finish(into: &sinkParts) == whole.finish(into: &sinkWhole))
    }

    @Test("parameters re-encode every value, defaults included")
    func parametersRoundTrip() throws {
        for layout in [
            MozaikLayout(columns: .widths([10, 20.5]), rowHeight: 30, itemSpacing: 1, lineSpacing: 2, order: .ordered),
            MozaikLayout(columns: .count(3), rowHeight: 0),
        ] {
            let read = try MozaikLayout(parameters: LayoutParameters(object: layout.parameters, path: .root))
            #expect(read == layout)
        }
        let defaults = try MozaikLayout(parameters: LayoutParameters(
            object: JSONObject(["columnCount": .number(2), "rowHeight": .number(9)]), path: .root
        ))
        #expect(defaults.parameters == JSONObject([
            "columnCount": .number(2), "rowHeight": .number(9), "itemSpacing": .number(0),
            "lineSpacing": .number(0), "order": .string("dense"),
        ]))
    }

    @Test("the span error names the item and both counts")
    func spanErrorMessage() {
        let error = specError("""
        {"format": 1, "sections": [{"layout": {"kind": "mozaik", "columns": [1, 2, 3], "rowHeight": 5},
          "items": [{}, {"columns": 4}]}]}
        """)
        #expect(error?.description == "sections[0].items[1].columns: 4 columns requested, the matrix has 3")
    }

    @Test("errors name the parameter or the item", arguments: [
        (#""rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columns"),
        (#""columns": [], "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columns"),
        (#""columns": 3, "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columns"),
        (#""columns": [10, -1], "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columns[1]"),
        (#""columns": [10, "a"], "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columns[1]"),
        (#""columnCount": 0, "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columnCount"),
        (#""columnCount": 1.5, "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columnCount"),
        (#""columnCount": 5000, "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columnCount"),
        (#""columnCount": 11, "itemSpacing": 11, "rowHeight": 10"#, #"[{}]"#, "sections[1].layout.columnCount"),
        (#""columnCount": 2"#, #"[{}]"#, "sections[1].layout.rowHeight"),
        (#""columnCount": 2, "rowHeight": -1"#, #"[{}]"#, "sections[1].layout.rowHeight"),
        (#""columnCount": 2, "rowHeight": 1, "itemSpacing": -1"#, #"[{}]"#, "sections[1].layout.itemSpacing"),
        (#""columnCount": 2, "rowHeight": 1, "lineSpacing": -1"#, #"[{}]"#, "sections[1].layout.lineSpacing"),
        (#""columnCount": 2, "rowHeight": 1, "order": "random""#, #"[{}]"#, "sections[1].layout.order"),
        (#""columnCount": 3, "rowHeight": 1"#, #"[{}, {"columns": 4}]"#, "sections[1].items[1].columns"),
        (#""columnCount": 3, "rowHeight": 1, "order": "ordered""#, #"[{"columns": 4}]"#, "sections[1].items[0].columns"),
        (#""columnCount": 3, "rowHeight": 1"#, #"[{"columns": 0}]"#, "sections[1].items[0].columns"),
        (#""columnCount": 3, "rowHeight": 1"#, #"[{}, {}, {"rows": 0}]"#, "sections[1].items[2].rows"),
        (#""columnCount": 3, "rowHeight": 1"#, #"[{"rows": 1.5}]"#, "sections[1].items[0].rows"),
        (#""columnCount": 3, "rowHeight": 1"#, #"[{"rows": 70000}]"#, "sections[1].items[0].rows"),
        (#""columnCount": 3, "rowHeight": 1"#, #"{"count": 7, "cycle": [{}, {}, {"columns": 9}]}"#, "sections[1].items.cycle[2].columns"),
        (#""columnCount": 3, "rowHeight": 1"#, #"{"count": 7, "cycle": [{"rows": 0}]}"#, "sections[1].items.cycle[0].rows"),
    ])
    func errors(parametersJSON: String, itemsJSON: String, path: String) {
        let error = specError("""
        {"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{}]},
          {"layout": {"kind": "mozaik", \(parametersJSON)}, "items": \(itemsJSON)}]}
        """, extent: 100)
        #expect(error?.path == path, "\(String(describing: error))")
    }
}

/// The contract's placement, written as plainly as possible: a boolean
/// matrix scanned from row 0 for every item (dense), or every start column
/// tried against the columns' bottoms (ordered).
enum MozaikReference {
    static func frames(
        _ items: [Item], widths: [Double], rowHeight: Double, itemSpacing: Double, lineSpacing: Double, order: MozaikLayout.Order
    ) -> [[Double]] {
        let n = widths.count
        var taken: [Bool] = []
        var bottoms = Array(repeating: 0, count: n)
        func isFree(_ row: Int, _ column: Int, _ columns: Int, _ rows: Int) -> Bool {
            for r in row..<(row + rows) where r * n < taken.count {
                for c in column..<(column + columns) where taken[r * n + c] { return false }
            }
            return true
        }
        var frames: [[Double]] = []
        for item in items {
            let columns = item.columns ?? 1
            let rows = item.rows ?? 1
            var row = 0
            var column = 0
            switch order {
            case .dense:
                while !(column + columns <= n && isFree(row, column, columns, rows)) {
                    column += 1
                    if column + columns > n { row += 1; column = 0 }
                }
                if taken.count < (row + rows) * n { taken += Array(repeating: false, count: (row + rows) * n - taken.count) }
                for r in row..<(row + rows) { for c in column..<(column + columns) { taken[r * n + c] = true } }
            case .ordered:
                row = Int.max
                for start in 0...(n - columns) {
                    let reach = bottoms[start..<(start + columns)].max() ?? 0
                    if reach < row { row = reach; column = start }
                }
                for c in column..<(column + columns) { bottoms[c] = row + rows }
            }
            var x = 0.0
            for k in 0..<column { x += widths[k] + itemSpacing }
            var width = 0.0
            for k in column..<(column + columns) { width += widths[k] }
            frames.append([
                x, Double(row) * (rowHeight + lineSpacing),
                width + Double(columns - 1) * itemSpacing, Double(rows) * rowHeight + Double(rows - 1) * lineSpacing,
            ])
        }
        return frames
    }
}

/// The first item whose frame differs, for a short failure message.
private func firstMismatch(_ actual: [[Double]], _ expected: [[Double]]) -> String? {
    if actual.count != expected.count { return "\(actual.count) frames, expected \(expected.count)" }
    guard let index = actual.indices.first(where: { actual[$0] != expected[$0] }) else { return nil }
    return "item \(index): \(actual[index]), expected \(expected[index])"
}
