import Foundation
import TesseraStore
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("SQLite backend: full and smaller cell groups keep ids of ranges of their own")
struct GroupIDTests {
    @Test("a section's full groups get ids below 2^62, its last smaller group one above; across transactions the ranges go on")
    func ranges() async throws {
        let directory = try TemporaryDirectory("group-ids")
        let path = directory.file("layouts.sqlite")
        let store = try LayoutStore(path: path)
        // A waterfall of 600 distinct aspect ratios: scrolls and heights differ cell by cell, so a
        // group of 250 frames stays over half a page even in the compact form.
        let items = (0..<600).map { index in #"{"aspectRatio": \#(0.5 + Double(index) / 1000)}"# }.joined(separator: ", ")
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2}, "items": [\#(items)]}]}"#)
        try await store.save(spec, as: "a", crossExtents: [400])
        try await store.save(spec, as: "b", crossExtents: [400])
        let connection = try Connection(path: path, mode: .readOnly, options: .store)
        let query = try connection.prepare("SELECT d.first_item, d.group_id, length(g.frames) FROM cell_group_directory AS d JOIN cell_groups AS g ON g.id = d.group_id ORDER BY d.layout_id, d.first_item")
        var rows: [(first: Int, id: Int64, bytes: Int)] = []
        while try query.step() { rows.append((query.int(at: 0), query.int64(at: 1), query.int(at: 2))) }
        let partial = SQLiteRows.partialGroupIDs
        #expect(rows.map(\.first) == [0, 250, 500, 0, 250, 500])
        // Header 10; cross: 2 values and 1 index byte per cell; scroll and height: doubles; width: 1 value.
        #expect(rows.map(\.bytes) == [4288, 4288, 1738, 4288, 4288, 1738])
        #expect(rows.map(\.id) == [1, 2, partial + 1, 3, 4, partial + 2])
        #expect(try await store.check().isHealthy)
        let everything = Rect(x: 0, y: 0, width: 400, height: 1e6)
        #expect(try await store.elements(name: "b", crossExtent: 400, in: everything) == LayoutEngine().layout(spec, crossExtent: 400).elements(in: everything))
    }
}
