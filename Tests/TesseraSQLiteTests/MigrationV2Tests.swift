import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("schema version 2: spec sections in a rowid table")
struct MigrationV2Tests {
    static let spec = #"{"format": 1, "name": "feed", "sections": [{"id": "top", "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 30, "cycle": [{}]}}, {"layout": {"kind": "staggered", "columns": 2}, "items": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}]}]}"#

    @Test("a version-1 store migrates with its specs and layouts intact, and its sections are rowid rows behind a unique index")
    func migratesVersionOne() async throws {
        let directory = try TemporaryDirectory("v2")
        let spec = try Spec(jsonText: Self.spec)
        // The rows a save writes, from a current store.
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(spec, as: "feed", crossExtents: [300])

        // A store at version 1 holding the same spec and layout rows.
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 1, copying: current)

        let store = try LayoutStore(path: old)
        let migrated = try #require(store.sqlitePool)
        try migrated.read { db throws in
            #expect(try db.int("PRAGMA user_version") == EmbeddedMigrations.all.count)
            #expect(try db.int("SELECT count(*) FROM sqlite_schema WHERE name = 'spec_sections' AND sql LIKE '%WITHOUT ROWID%'") == 0)
            #expect(try db.int("SELECT count(*) FROM sqlite_schema WHERE name = 'spec_sections_by_section'") == 1)
            #expect(try db.int("SELECT count(*) FROM spec_sections") == 2)
        }
        let stored = try #require(try await store.spec(named: "feed"))
        #expect(JSONWriter.canonical(stored.jsonValue) == JSONWriter.canonical(spec.jsonValue))
        let memory = try LayoutEngine().layout(spec, crossExtent: 300)
        let everything = Rect(x: 0, y: 0, width: 300, height: 1e6)
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: everything, computeIfMissing: false) == memory.elements(in: everything))
        // Section rows are still replaced one by one.
        try await store.append(name: "feed", section: 1, items: [Item(aspectRatio: 1)])
        let rows = try migrated.read { try $0.int("SELECT count(*) FROM spec_sections") }
        #expect(rows == 2)
        #expect(try await store.check().isHealthy)
    }
}
