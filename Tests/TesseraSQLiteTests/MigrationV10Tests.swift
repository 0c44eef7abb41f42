import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
@testable import TesseraStore
@testable import TesseraStoreFormat

@Suite("schema version 10: what a spec's content hash goes on from")
struct MigrationV10Tests {
    static let feed = #"""
        {"format": 1, "sections": [
          {"id": "top", "layout": {"kind": "flow"}, "items": [{"size": [100, 40]}, {"size": [80, 20]}]},
          {"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2}, "header": {"size": 44, "pinned": true},
           "items": {"count": 300, "cycle": [{}, {"fraction": 2, "aspectRatio": 1.5}]}},
          {"layout": {"kind": "flow"}, "items": {"count": 50, "cycle": [{"size": [60, 30]}, {"size": [90, 30]}]}},
          {"id": "feed", "layout": {"kind": "staggered", "columns": 2}, "items": {"count": 700, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}]}}
        ]}
        """#
    static let extents = [390.0, 600]

    static func items(_ count: Int, _ round: Int) -> [Item] {
        (0..<count).map { Item(aspectRatio: ($0 + round) % 3 == 0 ? 2 : 0.8) }
    }

    /// The store answers `spec`'s layout at every extent exactly as one computed in memory, and holds its content hash.
    static func expectAnswers(_ store: LayoutStore, _ spec: Spec) async throws {
        #expect(try await store.specs().map(\.contentHash) == [try SpecFingerprint(spec: spec).specHash])
        for extent in extents {
            let memory = try LayoutEngine().layout(spec, crossExtent: extent)
            let everything = Rect(x: 0, y: 0, width: extent, height: 1e7)
            #expect(try await store.elements(name: "feed", crossExtent: extent, in: everything, computeIfMissing: false)
                == memory.elements(in: everything))
        }
    }

    @Test("a version-9 store migrates; an append to the last section stores the prefix, the next reads no other section's row")
    func migratesAndAppendsFromThePrefix() async throws {
        let directory = try TemporaryDirectory("v10")
        var spec = try Spec(jsonText: Self.feed)
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(spec, as: "feed", crossExtents: Self.extents)
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 9, copying: current)

        let store = try LayoutStore(path: old)
        let pool = try #require(store.sqlitePool)
        let prefixes = { try pool.read { db in try db.int("SELECT count(*) FROM spec_hash_prefixes") } }
        #expect(try pool.read { db in try db.int("PRAGMA user_version") } == EmbeddedMigrations.all.count)
        #expect(try prefixes() == 0)
        #expect(try await store.check().isHealthy)

        // The first append reads every section's identity, and stores the prefix.
        var report = try await store.append(name: "feed", section: 3, items: Self.items(200, 0))
        #expect(report.layouts.map(\.resumed) == [1, 1])
        spec.sections[3].items = spec.sections[3].items.appending(Self.items(200, 0))
        #expect(try prefixes() == 1)
        try await Self.expectAnswers(store, spec)

        // With the rows of the sections before the last damaged, the next appends never read them.
        try pool.write { db in try db.execute("UPDATE spec_sections SET checksum = checksum + 1 WHERE section < 3") }
        for round in 1...2 {
            report = try await store.append(name: "feed", section: 3, items: Self.items(100 + round, round))
            #expect(report.layouts.map(\.resumed) == [1, 1])
            #expect(report.layouts.map(\.kept) == [3, 3])
            spec.sections[3].items = spec.sections[3].items.appending(Self.items(100 + round, round))
            try await Self.expectAnswers(store, spec)
        }
        #expect(try await store.check().problems.map(\.message).contains("a stored section of its spec does not match its checksum (3 rows)"))
        // An append to another section reads every identity: the damage is reported.
        let error = try await #require(throws: StoreError.self) { try await store.append(name: "feed", section: 1, items: [Item()]) }
        #expect(error.code == .damaged && error.message.contains("the stored section 0 of spec"), "\(error.message)")
        try pool.write { db in try db.execute("UPDATE spec_sections SET body = body WHERE section < 3") }
        #expect(try await store.check().isHealthy)
        #expect(try await store.spec(named: "feed")?.canonicalText == spec.canonicalText)

        // The prefix changed behind the store's back is damage, named, when read and by the check.
        try pool.write { db in try db.execute("UPDATE spec_hash_prefixes SET checksum = checksum + 1") }
        let damaged = try await #require(throws: StoreError.self) { try await store.append(name: "feed", section: 3, items: [Item()]) }
        #expect(damaged.code == .damaged && damaged.message.contains("hash prefix"), "\(damaged.message)")
        #expect(try await store.check().problems.map(\.message).contains("what its content hash goes on from does not match its checksum"))
        try pool.write { db in try db.execute("UPDATE spec_hash_prefixes SET state = state") }
        #expect(try await store.check().isHealthy)
        try await Self.expectAnswers(store, spec)

        // A prefix that is not its sections' (its checksum written to match) is named by the check.
        try pool.write { db in try db.execute("UPDATE spec_hash_prefixes SET state = zeroblob(24)") }
        #expect(try await store.check().problems.map(\.message) == ["what its content hash goes on from is not made of its sections' hashes"])
    }

    @Test("a prefix another write left behind is not used: the append reads every section again and stores a new one")
    func stalePrefix() async throws {
        let directory = try TemporaryDirectory("v10-stale")
        var spec = try Spec(jsonText: Self.feed)
        let path = directory.file("feed.sqlite")
        let store = try LayoutStore(path: path)
        try await store.save(spec, as: "feed", crossExtents: Self.extents)
        try await store.append(name: "feed", section: 3, items: Self.items(10, 0))
        spec.sections[3].items = spec.sections[3].items.appending(Self.items(10, 0))
        let pool = try #require(store.sqlitePool)
        // Prefixes made for the spec as it is now.
        let stored = {
            try pool.read { db in
                try db.int("SELECT count(*) FROM spec_hash_prefixes AS p JOIN specs AS s ON s.id = p.spec_id AND s.content_hash = p.spec_hash")
            }
        }
        #expect(try stored() == 1)

        // A save that changes a section before the last: the prefix no longer matches the spec.
        spec.sections[0].items = .list([Item(size: Size(width: 120, height: 40))])
        try await store.save(spec, as: "feed", crossExtents: Self.extents)
        #expect(try stored() == 0)
        try await store.append(name: "feed", section: 3, items: Self.items(30, 1))
        spec.sections[3].items = spec.sections[3].items.appending(Self.items(30, 1))
        #expect(try stored() == 1)
        try await Self.expectAnswers(store, spec)

        // An append to another section leaves it behind too.
        try await store.append(name: "feed", section: 2, items: [Item(width: 70, height: 30)])
        spec.sections[2].items = spec.sections[2].items.appending([Item(width: 70, height: 30)])
        #expect(try stored() == 0)
        for round in 2...3 {
            try await store.append(name: "feed", section: 3, items: Self.items(5, round))
            spec.sections[3].items = spec.sections[3].items.appending(Self.items(5, round))
            try await Self.expectAnswers(store, spec)
        }
        #expect(try stored() == 1)
        #expect(try await store.check().isHealthy)
        store.close()
    }
}
