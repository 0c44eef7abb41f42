import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore
import TesseraPrecompute
import TesseraStoreFormat

@Suite("schema version 3: checksums on every row an answer depends on")
struct MigrationV3Tests {
    static let spec = #"{"format": 1, "name": "feed", "sections": [{"id": "top", "header": {"size": 40}, "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 600, "cycle": [{}]}}, {"layout": {"kind": "staggered", "columns": 2}, "items": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}]}]}"#

    @Test("a version-2 store migrates: every existing row gets its checksum, answers are unchanged, and damage is found")
    func migratesVersionTwo() async throws {
        let directory = try TemporaryDirectory("v3")
        let spec = try Spec(jsonText: Self.spec)
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(spec, as: "feed", crossExtents: [300])
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 2, copying: current)

        let store = try LayoutStore(path: old)
        let pool = try #require(store.sqlitePool)
        try pool.read { db throws in
            #expect(try db.int("PRAGMA user_version") == EmbeddedMigrations.all.count)
            for table in ["specs", "spec_sections", "layouts", "layout_sections", "cell_group_directory"] {
                #expect(try db.int("SELECT count(*) FROM \(table) WHERE checksum IS NULL") == 0, "\(table)")
                #expect(try db.int("SELECT count(*) FROM \(table)") > 0, "\(table)")
            }
            #expect(try db.int("SELECT count(*) FROM cell_group_directory WHERE frames_checksum IS NULL") == 0)
        }
        let memory = try LayoutEngine().layout(spec, crossExtent: 300)
        let everything = Rect(x: 0, y: 0, width: 300, height: 1e6)
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: everything, computeIfMissing: false) == memory.elements(in: everything))
        #expect(try await store.check().isHealthy)

        // The migrated checksums are the ones a fresh store writes.
        let fresh = try Connection(path: current, options: .store)
        for table in ["specs", "spec_sections", "layouts", "layout_sections", "cell_group_directory"] {
            let migrated = try pool.read { db in try db.int("SELECT sum(checksum % 1000003) FROM \(table)") }
            #expect(try fresh.int("SELECT sum(checksum % 1000003) FROM \(table)") == migrated, "\(table)")
        }
        fresh.close()

        // One changed byte in a migrated frame blob is an error, never other frames.
        try pool.write { db in
            try db.execute("UPDATE cell_groups SET frames = substr(frames, 1, 100) || x'7F' || substr(frames, 102) WHERE id = (SELECT min(id) FROM cell_groups)")
        }
        let reopened = try LayoutStore(path: old)
        let error = try await #require(throws: StoreError.self) {
            try await reopened.elements(name: "feed", crossExtent: 300, in: everything, computeIfMissing: false)
        }
        #expect(error.code == .damaged)
        #expect(error.spec == "feed")
        #expect(error.crossExtent == 300)
        #expect(error.message.contains("cell group"), "\(error.message)")
    }

    @Test("every row a fresh store writes verifies, through each kind of write (save, append, update, invalidate)")
    func freshRowsVerify() async throws {
        let directory = try TemporaryDirectory("v3fresh")
        let path = directory.file("store.sqlite")
        let store = try LayoutStore(path: path)
        let spec = try Spec(jsonText: Self.spec)
        try await store.save(spec, as: "feed", crossExtents: [300, 500])
        // A batch stores a new spec's layout rows whole (computed before its write).
        var batched = spec
        batched.name = "batched"
        #expect(try await store.saveBatch([batched], crossExtents: [300, 500]).saved == 1)
        try await store.append(name: "feed", section: 1, items: [Item(aspectRatio: 1)])
        var changed = spec
        changed.sections[0].items = .cycle(count: 599, [Item()])
        try await store.save(changed, as: "feed", crossExtents: [300, 500])
        _ = try await store.invalidate(name: "feed", crossExtent: 500)
        let pool = try #require(store.sqlitePool)
        try pool.read { db throws in
            #expect(try db.int("SELECT count(*) FROM specs WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.specs)))") == 0)
            #expect(try db.int("SELECT count(*) FROM spec_sections WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.specSections)))") == 0)
            #expect(try db.int("SELECT count(*) FROM layouts WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.layouts)))") == 0)
            #expect(try db.int("SELECT count(*) FROM layout_sections WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.layoutSections)))") == 0)
            #expect(try db.int("SELECT count(*) FROM cell_group_directory WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.directory)))") == 0)
            #expect(try db.int("""
                SELECT count(*) FROM cell_group_directory AS d JOIN cell_groups AS g ON g.id = d.group_id
                WHERE tessera_hash(g.frames) IS NOT d.frames_checksum
                """) == 0)
            #expect(try db.int("SELECT count(*) FROM layout_sections") > 0)
        }
        #expect(try await store.check().isHealthy)
    }

    @Test("the checksum is XXH64: the published value of the empty input, and a change of one bit changes it")
    func checksumFunction() async {
        #expect(Checksum.xxh64(UnsafeRawBufferPointer(start: nil, count: 0)) == 0xEF46_DB37_51D8_E999)
        var bytes = [UInt8](repeating: 7, count: 8000)
        let before = Checksum.of(bytes)
        bytes[4321] ^= 0x10
        #expect(Checksum.of(bytes) != before)
        var record = ChecksumRecord()
        record.add(Int64(1))
        var other = ChecksumRecord()
        other.add(1.0)
        #expect(record.checksum != other.checksum)
    }

    @Test("SQL's tessera_checksum is the record's checksum, values of every type and texts longer than a record's first allocation")
    func sqlChecksumMatchesRecord() throws {
        let directory = try TemporaryDirectory("checksum")
        let db = try Connection(path: directory.file("functions.sqlite"), options: .store)
        let long = String(repeating: "sections[2].items ", count: 40)
        for text in ["", "a", long, long + long] {
            let statement = try db.prepare("SELECT tessera_checksum(7, 2.5, ?1, x'00ff10', NULL, ?1, -3)")
            try statement.bind(text)
            #expect(try statement.step())
            var record = ChecksumRecord()
            record.add(Int64(7))
            record.add(2.5)
            text.utf8CString.withUnsafeBytes { record.add(text: UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
            [UInt8]([0x00, 0xFF, 0x10]).withUnsafeBytes { record.add(blob: $0) }
            record.addNull()
            text.utf8CString.withUnsafeBytes { record.add(text: UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
            record.add(Int64(-3))
            #expect(statement.int64(at: 0) == record.checksum, "\(text.utf8.count) bytes of text")
        }
    }
}
