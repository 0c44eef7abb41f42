import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
@testable import TesseraStore
@testable import TesseraStoreFormat

@Suite("schema version 8: appended items in runs of their own")
struct MigrationV8Tests {
    static let feed = #"""
        {"format": 1, "sections": [
          {"layout": {"kind": "staggered", "columns": 2}, "items": {"count": 700, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}]}},
          {"layout": {"kind": "flow"}, "footer": {"size": 30}, "items": [{"size": [100, 40]}, {"size": [80, 20]}]}
        ]}
        """#

    @Test("a version-7 store whose appends were written into the section migrates, reads the same, and appends to it in runs")
    func oldStoreMigratesAndAppends() async throws {
        let directory = try TemporaryDirectory("v8")
        var spec = try Spec(jsonText: Self.feed)
        // As version 7 kept an appended cycle: the items in the section's body.
        spec.sections[0].items = spec.sections[0].items.appending((0..<300).map { Item(aspectRatio: $0 % 3 == 0 ? 2 : 0.8) })
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(spec, as: "feed", crossExtents: [390, 600])
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 7, copying: current)

        let store = try LayoutStore(path: old)
        let pool = try #require(store.sqlitePool)
        #expect(try pool.read { db in try db.int("PRAGMA user_version") } == EmbeddedMigrations.all.count)
        #expect(try await store.spec(named: "feed")?.canonicalText == spec.canonicalText)
        #expect(try await store.specs().map(\.contentHash) == [try SpecFingerprint(spec: spec).specHash])
        let body = {
            try pool.read { db in
                let query = try db.prepare("SELECT body FROM spec_sections WHERE section = 0")
                return try query.step() ? query.text(at: 0) : ""
            }
        }
        let before = try body()

        for round in 0..<3 {
            let items = (0..<(200 + round)).map { Item(aspectRatio: $0 % 2 == 0 ? 1.25 : 0.5) }
            let report = try await store.append(name: "feed", section: 0, items: items)
            #expect(report.layouts.map(\.resumed) == [1, 1])
            spec.sections[0].items = spec.sections[0].items.appending(items)
        }
        #expect(try body() == before, "an append wrote the section's body")
        #expect(try pool.read { db in try db.int("SELECT count(*) FROM spec_item_runs") } == 3)
        #expect(try await store.spec(named: "feed")?.canonicalText == spec.canonicalText)
        #expect(try await store.specs().map(\.contentHash) == [try SpecFingerprint(spec: spec).specHash])
        for extent in [390.0, 600] {
            let memory = try LayoutEngine().layout(spec, crossExtent: extent)
            let everything = Rect(x: 0, y: 0, width: extent, height: 1e7)
            #expect(try await store.elements(name: "feed", crossExtent: extent, in: everything, computeIfMissing: false) == memory.elements(in: everything))
        }
        #expect(try await store.check().isHealthy)

        // A run changed behind the store's back is damage, named; another program's rows get checksums from the triggers.
        try pool.write { db in try db.execute("UPDATE spec_item_runs SET checksum = checksum + 1 WHERE first_item = 1000") }
        let error = try await #require(throws: StoreError.self) { try await store.spec(named: "feed") }
        #expect(error.code == .damaged && error.message.contains("appended to section 0"), "\(error.message)")
        #expect(try await store.check().problems.contains { $0.message.contains("items appended to a section") })
        try pool.write { db in try db.execute("UPDATE spec_item_runs SET items = items WHERE first_item = 1000") }
        #expect(try await store.check().isHealthy)
    }
}
