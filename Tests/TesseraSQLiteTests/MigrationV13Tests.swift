import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("schema version 13: a row the store updates arrives sealed and is written once")
struct MigrationV13Tests {
    @Test("an update that carries its checksum fires no trigger; one without it is sealed by the trigger, as before")
    func triggersSealOnlyUnsealedRows() async throws {
        let directory = try TemporaryDirectory("v13")
        let store = try LayoutStore(path: directory.file("store.sqlite"))
        try await store.save(Spec(jsonText: MigrationV3Tests.spec), as: "feed", crossExtents: [300])
        let pool = try #require(store.sqlitePool)
        try pool.write { db in
            // Sealed (the values and checksum it had): one row changed, by the statement alone.
            let before = try #require(try db.scalarInt64("SELECT total_changes()"))
            try db.execute("UPDATE layouts SET status = status")
            #expect(try db.scalarInt64("SELECT total_changes()") == before + 1)
            // Unsealed, as another program may write it: the trigger writes the row again, with its checksum.
            try db.execute("UPDATE layouts SET status = status, checksum = 0")
            #expect(try db.scalarInt64("SELECT total_changes()") == before + 3)
            #expect(try db.int("SELECT count(*) FROM layouts WHERE NOT (\(ChecksummedColumns.intact(ChecksummedColumns.layouts)))") == 0)
        }
        #expect(try await store.check().isHealthy)
        // The store's own updates (an append changes the layout's and sections' rows) leave every row sealed.
        try await store.append(name: "feed", section: 1, items: [Item(), Item()])
        #expect(try await store.check().isHealthy)
    }
}
