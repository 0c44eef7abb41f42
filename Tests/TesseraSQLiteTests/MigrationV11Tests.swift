import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("schema version 11: the spec columns a query resolves by name, in an index")
struct MigrationV11Tests {
    /// The plan SQLite makes for the statement that resolves a layout by its spec's name.
    static func resolvePlan(_ db: Connection) throws -> [String] {
        let plan = try db.prepare("EXPLAIN QUERY PLAN \(SQLiteRows.scanSQL(.layoutsByName, RowRange([.text("feed"), .real(300)], limit: 1)))")
        var details: [String] = []
        while try plan.step() { details.append(plan.text(at: 3)) }
        return details
    }

    @Test("a version-10 store migrates: the index holds every spec, the resolve reads it instead of the spec's row, and first queries answer as before")
    func migratesVersionNine() async throws {
        let directory = try TemporaryDirectory("v11")
        let spec = try Spec(jsonText: MigrationV3Tests.spec)
        let current = directory.file("current.sqlite")
        let writer = try LayoutStore(path: current)
        try await writer.save(spec, as: "feed", crossExtents: [300, 400])
        try await writer.save(spec, as: "other", crossExtents: [300])
        writer.close()
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 10, copying: current)
        let oldPool = try openOldStore(at: old, version: 10)
        #expect(try oldPool.read { db in try db.int("SELECT count(*) FROM sqlite_master WHERE name = 'specs_resolve'") } == 0)
        oldPool.close()

        let store = try LayoutStore(path: old)
        let pool = try #require(store.sqlitePool)
        try pool.read { db throws in
            #expect(try db.int("PRAGMA user_version") == EmbeddedMigrations.all.count)
            #expect(try db.int("SELECT count(*) FROM specs INDEXED BY specs_resolve WHERE name >= ''") == 2)
            let plan = try Self.resolvePlan(db)
            // One statement for the spec and the layout: the spec's columns from the index, not its row, and nothing sorted.
            #expect(plan.contains("SEARCH s USING COVERING INDEX specs_resolve (name=?)"), "\(plan)")
            #expect(plan.contains { $0.hasPrefix("SEARCH l USING INDEX") && $0.hasSuffix("(spec_id=? AND cross_extent=?)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
        for extent in [300.0, 400] {
            try await expectFirstQueries(at: old, name: "feed", spec: spec, crossExtent: extent, every: 900)
        }
        #expect(try await store.check().isHealthy)

        // A spec saved anew: its layouts at both extents are laid out again,
        // and first queries find them fresh against the hash the index holds.
        var changed = spec
        changed.sections[0].items = changed.sections[0].items.appending([Item(aspectRatio: 2)])
        try await store.save(changed, as: "feed", crossExtents: [300])
        let viewport = Rect(x: 0, y: 0, width: 300, height: 844)
        for extent in [300.0, 400] {
            let rect = Rect(x: 0, y: 0, width: extent, height: 844)
            let reopened = try LayoutStore(path: old)
            #expect(try await reopened.visibleElements(name: "feed", crossExtent: extent, viewport: rect, computeIfMissing: false)
                == LayoutEngine().layout(changed, crossExtent: extent).visibleElements(viewport: rect))
            reopened.close()
        }
        // A content hash changed behind the store's back reaches the index
        // with the row: the layouts no longer match it, and are not served.
        try pool.write { db in try db.execute("UPDATE specs SET content_hash = 'changed' WHERE name = 'feed'") }
        let reopened = try LayoutStore(path: old)
        let stale = try await #require(throws: StoreError.self) {
            try await reopened.visibleElements(name: "feed", crossExtent: 300, viewport: viewport, computeIfMissing: false)
        }
        #expect(stale.code == .notFound && stale.crossExtent == 300, "\(stale)")
        reopened.close()

        // The layout's row is verified as before: changed behind the store's back, it is damage, named.
        try pool.write { db in try db.execute("UPDATE layouts SET checksum = checksum + 1 WHERE cross_extent = 300 AND spec_id = (SELECT id FROM specs WHERE name = 'other')") }
        let damaged = try LayoutStore(path: old)
        let error = try await #require(throws: StoreError.self) {
            try await damaged.visibleElements(name: "other", crossExtent: 300, viewport: viewport, computeIfMissing: false)
        }
        #expect(error.code == .damaged && error.message.contains("the row of the layout of spec \"other\" at 300 does not match its checksum"), "\(error)")
        damaged.close()
    }
}
