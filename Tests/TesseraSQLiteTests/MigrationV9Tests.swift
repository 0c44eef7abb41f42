import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("schema version 9: directory summaries")
struct MigrationV9Tests {
    @Test("a version-8 store migrates: its layouts have no summary and answer as before; the next write of a layout summarizes it")
    func migratesVersionEight() async throws {
        let directory = try TemporaryDirectory("v9")
        let spec = try Spec(jsonText: MigrationV3Tests.spec)
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(spec, as: "feed", crossExtents: [300, 400])
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 8, copying: current)

        let store = try LayoutStore(path: old)
        let pool = try #require(store.sqlitePool)
        try pool.read { db throws in
            #expect(try db.int("PRAGMA user_version") == EmbeddedMigrations.all.count)
            #expect(try db.int("SELECT count(*) FROM layouts WHERE directory_summary IS NULL") == 2)
        }
        let everything = Rect(x: 0, y: 0, width: 400, height: 1e6)
        for extent in [300.0, 400] {
            let memory = try LayoutEngine().layout(spec, crossExtent: extent)
            #expect(try await store.elements(name: "feed", crossExtent: extent, in: everything, computeIfMissing: false) == memory.elements)
            try await expectFirstQueries(at: old, name: "feed", spec: spec, crossExtent: extent, every: 700)
        }
        #expect(try await store.check().isHealthy)

        // An append rewrites both layouts' rows, and summarizes them.
        try await store.append(name: "feed", section: 1, items: [Item(aspectRatio: 0.8)])
        try pool.read { db throws in
            #expect(try db.int("SELECT count(*) FROM layouts WHERE directory_summary IS NULL") == 0)
        }
        let appended = try #require(try await store.spec(named: "feed"))
        for extent in [300.0, 400] {
            let fresh = try LayoutStore(path: old)
            #expect(try await fresh.elements(name: "feed", crossExtent: extent, in: everything, computeIfMissing: false)
                == LayoutEngine().layout(appended, crossExtent: extent).elements)
            fresh.close()
        }
        #expect(try await store.check().isHealthy)
    }
}
