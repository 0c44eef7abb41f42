import Testing
@testable import TesseraLayout

@Suite("flow")
struct FlowLayoutTests {
    @Test("justified lines: spread, centred on the line, last line kept at the start")
    func justifiedLines() throws {
        let result = try layout("""
        {"format": 1, "sections": [{
          "layout": {"kind": "flow", "itemSpacing": 10, "lineSpacing": 5},
          "insets": {"top": 20, "left": 10, "right": 10},
          "items": [{"size": [100, 50]}, {"size": [100, 80]}, {"size": [100, 50]}, {"size": [150, 40]}]
        }]}
        """, extent: 320)
        #expect(cellFrames(result) == [
            [10, 35, 100, 50], [210, 20, 100, 80],
            [10, 105, 100, 50], [120, 110, 150, 40],
        ])
        #expect(result.contentSize == Size(width: 320, height: 155))
    }

    @Test("alignments shift every line, the last one too, by none, half, or all of its free space")
    func alignments() throws {
        // Line 1 holds items 0 and 1 (free 90); line 2 holds item 2 (free 200).
        let expected: [(String, [[Double]])] = [
            ("start", [[0, 0, 100, 10], [110, 0, 100, 10], [0, 10, 100, 10]]),
            ("center", [[45, 0, 100, 10], [155, 0, 100, 10], [100, 10, 100, 10]]),
            ("end", [[90, 0, 100, 10], [200, 0, 100, 10], [200, 10, 100, 10]]),
        ]
        for (alignment, frames) in expected {
            let result = try layout("""
            {"format": 1, "sections": [{"layout": {"kind": "flow", "itemSpacing": 10, "alignment": "\(alignment)"},
              "items": [{"size": [100, 10]}, {"size": [100, 10]}, {"size": [100, 10]}]}]}
            """, extent: 300)
            #expect(cellFrames(result) == frames, "alignment \(alignment)")
        }
    }

    @Test("an item wider than the line sits alone; a single justified line is centred")
    func oversizedItem() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "flow", "itemSpacing": 10},
          "items": [{"size": [50, 10]}, {"size": [400, 20]}, {"size": [50, 10]}]}]}
        """, extent: 300)
        // Line 1 holds one item: centred (free 250). Line 2 holds the wide
        // item alone: free −100 applied as it is. Line 3 is the last line.
        #expect(cellFrames(result) == [[125, 0, 50, 10], [-50, 10, 400, 20], [0, 30, 50, 10]])
    }

    @Test("horizontal: lines run down the screen and stack to the right")
    func horizontal() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sections": [{"layout": {"kind": "flow", "alignment": "start"},
          "insets": {"top": 5, "left": 7},
          "items": [{"size": [30, 60]}, {"size": [20, 60]}, {"size": [30, 60]}]}]}
        """, extent: 125)
        // avail = 120 along y: two items per line; the second line starts
        // after the widest item of the first.
        #expect(cellFrames(result) == [[7, 5, 30, 60], [12, 65, 20, 60], [37, 5, 30, 60]])
        #expect(result.contentSize == Size(width: 67, height: 125))
    }

    @Test("the default item size applies to items without a size")
    func defaultItemSize() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "flow", "itemSize": [40, 30], "alignment": "start"},
          "items": [{}, {"size": [10, 10]}]}]}
        """, extent: 100)
        #expect(cellFrames(result) == [[0, 0, 40, 30], [40, 10, 10, 10]])
    }
}

@Suite("grid: PluginLayout's early wrap does not happen here")
struct GridWrapTests {
    @Test("width 375, insets 10, spacing 10, three per line: three items per line, not two")
    func threePerLine() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 10, "lineSpacing": 10},
          "insets": {"left": 10, "right": 10}, "items": {"count": 6, "cycle": [{}]}}]}
        """, extent: 375)
        // avail 355, width (355 − 20) / 3 = 111.666…: the third item ends at
        // 355 up to rounding, which the 1e-9 tolerance accepts.
        let frames = cellFrames(result)
        let width = (355.0 - 20) / 3
        #expect(frames.map { $0[1] } == [0, 0, 0, width + 10, width + 10, width + 10])
        // Justified: the line starts at the inset and ends at the other one.
        #expect(frames[0][0] == 10)
        #expect(abs(frames[2][0] + frames[2][2] - 365) < 1e-9)
    }
}
