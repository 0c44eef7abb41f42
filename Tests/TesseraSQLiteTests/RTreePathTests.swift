import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
@testable import TesseraStore

@Suite("SQLite backend: the R*Tree path")
struct RTreePathTests {
    @Test("through the R*Tree, layouts whose ids share a 32-bit float (past 2^24) never see each other's cells")
    func neighbouringIDsPastFloatPrecision() async throws {
        let temporary = try TemporaryDirectory("rtree")
        let store = try LayoutStore(path: temporary.file("layouts.sqlite"), cacheBudget: 0)
        let connection = try Connection(path: temporary.file("layouts.sqlite"), options: .store)
        try connection.execute("DELETE FROM sqlite_sequence WHERE name = 'layouts'; INSERT INTO sqlite_sequence (name, seq) VALUES ('layouts', 16777216)")
        let narrow = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{"size": [10, 10]}]}]}"#)
        let wide = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{"size": [20, 20]}, {"size": [20, 20]}]}]}"#)
        for (name, spec) in [("a", narrow), ("b", wide), ("c", narrow)] {
            try await store.save(spec, as: name, crossExtents: [100])
        }
        let ids = try await store.layouts().map(\.id).sorted()
        #expect(ids == [16_777_217, 16_777_218, 16_777_219])
        // The hazard is real: the index rows of b's id also cover a's and c's.
        #expect(try connection.int("SELECT count(*) FROM cell_groups_rtree WHERE min_layout <= 16777218 AND max_layout >= 16777218") == 3)
        let everything = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(try await store.elements(name: "a", crossExtent: 100, in: everything).map(\.frame.width) == [10])
        #expect(try await store.elements(name: "b", crossExtent: 100, in: everything).map(\.frame.width) == [20, 20])
        #expect(try await store.elements(name: "c", crossExtent: 100, in: everything).map(\.frame.width) == [10])
    }
}
