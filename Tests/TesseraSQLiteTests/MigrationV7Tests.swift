import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("schema version 7: orthogonal sections")
struct MigrationV7Tests {
    /// The columns a section row's checksum covered before version 7.
    static let oldColumns = ChecksummedColumns.layoutSections.replacingOccurrences(of: ", orthogonal_content_length", with: "")

    @Test("a version-6 store migrates: intact section rows get the new checksum, a damaged one stays damaged, answers are unchanged")
    func migratesVersionSix() async throws {
        let directory = try TemporaryDirectory("v7")
        let spec = try Spec(jsonText: MigrationV3Tests.spec)
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(spec, as: "feed", crossExtents: [300])
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 6, copying: current)
        // Section rows as version 6 wrote them: checksums of the old columns; section 1's damaged.
        let memory = try LayoutEngine().layout(spec, crossExtent: 300)
        let intactCopy = directory.file("intact.sqlite")
        try makeOldStore(at: intactCopy, version: 6, copying: current)
        let oldPool = try openOldStore(at: old, version: 6)
        try oldPool.write { db in
            try db.execute("UPDATE layout_sections SET checksum = tessera_checksum(\(Self.oldColumns))")
            try db.execute("UPDATE layout_sections SET checksum = checksum + 1 WHERE section = 1")
        }
        oldPool.close()

        let store = try LayoutStore(path: old)
        let pool = try #require(store.sqlitePool)
        try pool.read { db throws in
            #expect(try db.int("PRAGMA user_version") == EmbeddedMigrations.all.count)
            #expect(try db.int("SELECT count(*) FROM layout_sections WHERE orthogonal_content_length IS NOT NULL") == 0)
            let intact = ChecksummedColumns.intact(ChecksummedColumns.layoutSections)
            #expect(try db.int("SELECT count(*) FROM layout_sections WHERE \(intact)") == 1)
            #expect(try db.int("SELECT count(*) FROM layout_sections WHERE NOT (\(intact))") == 1)
        }
        // The damaged row is an error, never wrong frames.
        let error = try await #require(throws: StoreError.self) {
            try await store.elements(name: "feed", crossExtent: 300, in: Rect(x: 0, y: 0, width: 300, height: 100), computeIfMissing: false)
        }
        #expect(error.code == .damaged && error.message.contains("section 1"), "\(error.message)")
        let report = try await store.check()
        #expect(report.checksumMismatches == 1 && !report.isHealthy, "\(report.problems)")

        // Without damage, the migrated store answers as before.
        let intactPool = try openOldStore(at: intactCopy, version: 6)
        try intactPool.write { db in try db.execute("UPDATE layout_sections SET checksum = tessera_checksum(\(Self.oldColumns))") }
        intactPool.close()
        let migrated = try LayoutStore(path: intactCopy)
        let everything = Rect(x: 0, y: 0, width: 300, height: 1e6)
        #expect(try await migrated.elements(name: "feed", crossExtent: 300, in: everything, computeIfMissing: false) == memory.elements(in: everything))
        #expect(try await migrated.check().isHealthy)

        // A carousel stored after the migration keeps its content length, checksummed.
        let carousel = try Spec(jsonText: #"{"format": 1, "sections": [{"orthogonal": {"length": 100}, "layout": {"kind": "flow"}, "items": [{"size": [120, 80]}, {"size": [60, 80]}]}]}"#)
        try await store.save(carousel, as: "carousel", crossExtents: [300])
        try pool.read { db throws in
            #expect(try db.int("SELECT CAST(orthogonal_content_length AS INTEGER) FROM layout_sections WHERE orthogonal_content_length IS NOT NULL") == 180)
        }
        // Another program's update of the new column gets its checksum from the update trigger.
        try pool.write { db in try db.execute("UPDATE layout_sections SET orthogonal_content_length = 181 WHERE orthogonal_content_length = 180") }
        try pool.read { db throws in
            let intact = ChecksummedColumns.intact(ChecksummedColumns.layoutSections)
            #expect(try db.int("SELECT count(*) FROM layout_sections WHERE orthogonal_content_length = 181 AND \(intact)") == 1)
        }
    }
}
