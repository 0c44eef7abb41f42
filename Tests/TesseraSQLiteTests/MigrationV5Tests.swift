import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore
import TesseraPrecompute

@Suite("schema version 5: the store's inserts carry their checksums")
struct MigrationV5Tests {
    @Test("rows inserted without a checksum, by another program, still get theirs from the insert triggers")
    func triggersFillMissingChecksums() async throws {
        let directory = try TemporaryDirectory("v5")
        let path = directory.file("store.sqlite")
        let store = try LayoutStore(path: path)
        try await store.save(Spec(jsonText: MigrationV3Tests.spec), as: "feed", crossExtents: [300])
        let pool = try #require(store.sqlitePool)
        try pool.write { db in
            try db.execute("""
                INSERT INTO specs (name, body, content_hash, axis, section_count, created_at, updated_at)
                    VALUES ('by-hand', '{}', 'x', 'vertical', 0, 0, 0);
                INSERT INTO spec_sections (spec_id, section, identity, content_hash, body)
                    VALUES ((SELECT id FROM specs WHERE name = 'by-hand'), 0, 'i', 'h', '{}');
                INSERT INTO layouts (spec_id, cross_extent, engine_version, spec_hash, content_length, section_count,
                                     cell_count, element_count, status, created_at, updated_at)
                    VALUES ((SELECT id FROM specs WHERE name = 'by-hand'), 100, 1, 'x', 0, 0, 0, 0, 'stale', 0, 0)
                """)
        }
        try pool.read { db throws in
            for (table, columns) in [("specs", ChecksummedColumns.specs), ("spec_sections", ChecksummedColumns.specSections),
                                     ("layouts", ChecksummedColumns.layouts)] {
                #expect(try db.int("SELECT count(*) FROM \(table) WHERE checksum IS NULL") == 0, "\(table)")
                #expect(try db.int("SELECT count(*) FROM \(table) WHERE NOT (\(ChecksummedColumns.intact(columns)))") == 0, "\(table)")
            }
        }
    }

    @Test("layout ids given by the store's own inserts are never reused, as AUTOINCREMENT promises readers that cache by id")
    func layoutIDsNeverReused() async throws {
        let directory = try TemporaryDirectory("v5-ids")
        let store = try LayoutStore(path: directory.file("store.sqlite"))
        let spec = try Spec(jsonText: MigrationV3Tests.spec)
        try await store.save(spec, as: "a", crossExtents: [300, 400])
        let first = try await store.layouts().map(\.id)
        #expect(first == [1, 2])
        // The highest id goes: the next layout still gets a new one.
        #expect(try await store.deleteSpec(named: "a"))
        #expect(try await store.saveBatch([spec].map { var named = $0; named.name = "b"; return named }, crossExtents: [300]).saved == 1)
        try await store.save(spec, as: "c", crossExtents: [300])
        #expect(try await store.layouts().map(\.id).sorted() == [3, 4])
        #expect(try await store.check().isHealthy)
    }
}
