import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

@Suite("store: check")
struct CheckTests {
    static func grid(_ count: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": \#(count), "cycle": [{}]}}, {"layout": {"kind": "flow"}, "items": [{"size": [10, 10]}]}]}"#)
    }

    @Test("a store of random specs, updated and appended to, checks healthy", arguments: TestBackend.all, UInt64(1)...6)
    func healthy(backend: TestBackend, seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let temporary = try TemporaryStore(backend)
        let store = temporary.store
        let (json, extent) = generator.spec(maxSections: 5, maxItems: 700)
        let spec = try Spec(jsonText: json)
        try store.save(spec, as: "random", crossExtents: [extent, extent * 2])
        try store.save(Self.grid(600), as: "grid", crossExtents: [300])
        try store.append(name: "grid", section: 0, items: Array(repeating: Item(), count: 260))
        let report = try store.check()
        #expect(report.problems == [])
        #expect(report.isHealthy)
        #expect(report.specsChecked == 2)
        #expect(report.layoutsChecked == 3)
        // grid: 860 cells in 4 groups, plus the flow section's one.
        #expect(report.groupsChecked >= 5)
    }

    /// Each damage, done in SQL on the store's own rows, and what check says.
    static let damages: [(sql: String, expected: String)] = [
        ("UPDATE layout_sections SET item_count = item_count + 1 WHERE section = 0", "holds 100 frames, not 101"),
        ("UPDATE layout_sections SET item_count = 300 WHERE section = 0", "cell groups start at items"),
        ("DELETE FROM cell_groups WHERE id = (SELECT min(group_id) FROM cell_group_directory)", "has no frames stored"),
        ("UPDATE cell_groups SET frames = substr(frames, 1, 64) WHERE id = (SELECT group_id FROM cell_group_directory WHERE slot = 0 AND first_item = 250)", "holds 2 frames, not 250"),
        ("UPDATE cell_group_directory SET min_cross = min_cross - 1 WHERE first_item = 250", "not its frames' union"),
        ("UPDATE layouts SET cell_count = cell_count + 1", "its sections hold 601 cells, its row says 602"),
        ("UPDATE specs SET body = 'not json'", "not valid JSON"),
        ("UPDATE layout_sections SET section = 7 WHERE section = 1", "section row 1 is numbered 7"),
    ]

    @Test("damage to stored rows is found and named", arguments: TestBackend.all, damages.indices)
    func damage(backend: TestBackend, index: Int) throws {
        let temporary = try TemporaryStore(backend)
        let store = temporary.store
        try store.save(Self.grid(600), as: "grid", crossExtents: [300])
        #expect(try store.check().isHealthy)
        let (sql, expected) = Self.damages[index]
        try temporary.execute(sql)
        let report = try store.check()
        #expect(!report.isHealthy)
        #expect(report.problems.contains { $0.spec == "grid" && $0.description.contains(expected) }, "\(report.problems)")
    }
}
