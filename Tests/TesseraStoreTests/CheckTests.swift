import Foundation
import Testing
import TesseraInMemory
import TesseraStoreTesting
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

@Suite("store: check")
struct CheckTests {
    static func grid(_ count: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": \#(count), "cycle": [{}]}}, {"layout": {"kind": "flow"}, "items": [{"size": [10, 10]}]}]}"#)
    }

    @Test("a store of random specs, updated and appended to, checks healthy", arguments: TestBackend.all, UInt64(1)...6)
    func healthy(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let (json, extent) = generator.spec(maxSections: 5, maxItems: 700)
        let spec = try Spec(jsonText: json)
        try await store.save(spec, as: "random", crossExtents: [extent, extent * 2])
        try await store.save(Self.grid(600), as: "grid", crossExtents: [300])
        try await store.append(name: "grid", section: 0, items: Array(repeating: Item(), count: 260))
        let report = try await store.check()
        #expect(report.problems == [])
        #expect(report.isHealthy)
        #expect(report.specsChecked == 2)
        #expect(report.layoutsChecked == 3)
        // grid: 860 cells in 4 groups, plus the flow section's one.
        #expect(report.groupsChecked >= 5)
    }

    /// The same damage on PostgreSQL, and what check says there.
    typealias PostgresDamage = (sql: String, expected: String)
    /// The same damage on the in-memory tables.
    typealias MemoryDamage = @Sendable (inout InMemoryTables) -> Void

    /// The id of the group of slot 0 starting at item 250.
    static func group250(_ tables: InMemoryTables) -> Int64? {
        tables.groupRows.first { $0.slot == 0 && $0.firstItem == 250 }?.id
    }

    /// Each damage, done in SQL on the store's own rows, and what check says.
    /// Where the schemas differ (SQLite keeps frames apart from their
    /// directory row, PostgreSQL in it), `postgres` is the same damage there.
    /// `memory` is the same damage to the in-memory tables, which keep
    /// frames in the group's row as PostgreSQL does: check says there what
    /// it says on PostgreSQL. A column changed in SQL gets its checksum
    /// written again by the backend's triggers: `resum()` does that here.
    static let damages: [(sql: String, expected: String, postgres: PostgresDamage?, memory: MemoryDamage)] = [
        ("UPDATE layout_sections SET item_count = item_count + 1 WHERE section = 0", "holds 100 frames, not 101", nil, { tables in
            tables.alterSections { if $0.key == 0 { $0.record.geometry.itemCount += 1; $0.resum() } }
        }),
        ("UPDATE layout_sections SET item_count = 300 WHERE section = 0", "cell groups start at items", nil, { tables in
            tables.alterSections { if $0.key == 0 { $0.record.geometry.itemCount = 300; $0.resum() } }
        }),
        // PostgreSQL keeps a group's frames in its row: the closest damage empties them.
        ("DELETE FROM cell_groups WHERE id = (SELECT min(group_id) FROM cell_group_directory)", "has no frames stored",
         ("UPDATE cell_groups SET frames = ''::bytea WHERE id = (SELECT min(id) FROM cell_groups)", "holds 0 frames, not 250"), { tables in
            let first = tables.groupRows.map(\.id).min()
            tables.alterGroups { if $0.id == first { $0.frames = [] } }
        }),
        ("UPDATE cell_groups SET frames = substr(frames, 1, 64) WHERE id = (SELECT group_id FROM cell_group_directory WHERE slot = 0 AND first_item = 250)",
         "holds bytes that are not frames",
         ("UPDATE cell_groups SET frames = substring(frames from 1 for 64) WHERE slot = 0 AND first_item = 250", "holds bytes that are not frames"), { tables in
            let id = group250(tables)
            tables.alterGroups { if $0.id == id { $0.frames = Array(($0.frames ?? []).prefix(64)) } }
        }),
        // 64 zero bytes read as two frames in the plain form of schema versions 1–3.
        ("UPDATE cell_groups SET frames = zeroblob(64) WHERE id = (SELECT group_id FROM cell_group_directory WHERE slot = 0 AND first_item = 250)",
         "holds 2 frames, not 250",
         ("UPDATE cell_groups SET frames = decode(repeat('00', 64), 'hex') WHERE slot = 0 AND first_item = 250", "holds 2 frames, not 250"), { tables in
            let id = group250(tables)
            tables.alterGroups { if $0.id == id { $0.frames = Array(repeating: 0, count: 64) } }
        }),
        ("UPDATE cell_group_directory SET min_cross = min_cross - 1 WHERE first_item = 250", "not its frames' union",
         ("UPDATE cell_groups SET min_cross = min_cross - 1 WHERE first_item = 250", "not its frames' union"), { tables in
            tables.alterGroups { if $0.firstItem == 250 { $0.bounds.minCross -= 1; $0.resum() } }
        }),
        ("UPDATE layouts SET cell_count = cell_count + 1", "its sections hold 601 cells, its row says 602", nil, { tables in
            tables.alterLayouts { $0.totals.cellCount += 1; $0.resum() }
        }),
        ("UPDATE specs SET body = 'not json'", "not valid JSON", nil, { tables in
            tables.alterSpecs { $0.body = "not json"; $0.resum() }
        }),
        ("UPDATE layout_sections SET section = 7 WHERE section = 1", "section row 1 is numbered 7", nil, { tables in
            tables.alterSections { if $0.key == 1 { $0.record.geometry.index = 7; $0.resum() } }
        }),
    ]

    @Test("damage to stored rows is found and named", arguments: TestBackend.all, damages.indices)
    func damage(backend: TestBackend, index: Int) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(600), as: "grid", crossExtents: [300])
        #expect(try await store.check().isHealthy)
        let damage = Self.damages[index]
        try await temporary.change(sql: damage.sql, postgres: damage.postgres?.sql, memory: damage.memory)
        let expected = backend == .sqlite ? damage.expected : damage.postgres?.expected ?? damage.expected
        let report = try await store.check()
        #expect(!report.isHealthy)
        #expect(report.problems.contains { $0.spec == "grid" && $0.description.contains(expected) }, "\(report.problems)")
    }

    @Test("a damaged spec is reported and never guessed: repair leaves it, and computing one of its layouts fails with .damaged", arguments: TestBackend.all)
    func damagedSpec(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(600), as: "grid", crossExtents: [300])
        try await temporary.change(sql: "UPDATE spec_sections SET checksum = checksum + 1 WHERE section = 1") { tables in
            tables.alterSpecSections { if $0.section == 1 { $0.checksum += 1 } }
        }
        let report = try await store.check(repair: true)
        #expect(report.checksumMismatches == 1)
        #expect(report.problems.contains { $0.spec == "grid" && $0.message.contains("a stored section of its spec does not match its checksum") },
                "\(report.problems)")
        #expect(report.markedStale.isEmpty)
        // The stored layout is intact and still answers; a new width needs the spec.
        #expect(try await store.elements(name: "grid", crossExtent: 300, in: Rect(x: 0, y: 0, width: 300, height: 50)).count > 0)
        let error = try await #require(throws: StoreError.self) { _ = try await store.layout(name: "grid", crossExtent: 400) }
        #expect(error.code == .damaged, "\(error)")
        #expect(error.message.contains("section 1 of spec"), "\(error.message)")
    }

    @Test("repair marks exactly the layouts with damaged rows stale, and they are computed again whole", arguments: TestBackend.all)
    func repairDamagedLayout(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(600), as: "grid", crossExtents: [300, 500])
        let everything = Rect(x: 0, y: 0, width: 500, height: 1e6)
        let before = try await store.elements(name: "grid", crossExtent: 300, in: everything)
        try await temporary.change(sql: """
            UPDATE layout_sections SET checksum = checksum + 1
            WHERE section = 0 AND layout_id = (SELECT id FROM layouts WHERE cross_extent = 300)
            """) { tables in
            let layoutID = tables.layoutRows.first { $0.crossExtent == 300 }?.id
            tables.alterSections { if $0.key == 0 && $0.layoutID == layoutID { $0.checksum += 1 } }
        }
        // A handle that has not read this layout before answers from its
        // directory summary (verified, the section's intact copy): the right
        // frames; the row it no longer reads is the check's to find.
        let other = try await temporary.reopen()
        #expect(try await other.elements(name: "grid", crossExtent: 300, in: everything, computeIfMissing: false) == before)
        let report = try await store.check(repair: true)
        #expect(report.markedStale.map(\.crossExtent) == [300])
        #expect(try await store.layouts(name: "grid").map(\.state) == [.stale, .fresh])
        #expect(try await store.elements(name: "grid", crossExtent: 300, in: everything) == before)
        #expect(try await store.check().isHealthy)
    }
}
