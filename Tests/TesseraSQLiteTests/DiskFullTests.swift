import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("a full disk")
struct DiskFullTests {
    @Test("a write that runs out of room fails with .diskFull and leaves the store as it was")
    func fullDisk() async throws {
        let directory = try TemporaryDirectory("full")
        let store = try LayoutStore(path: directory.file("store.sqlite"))
        let small = try Spec(jsonText: #"{"format": 1, "name": "small", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 300, "cycle": [{}]}}]}"#)
        try await store.save(small, as: "small", crossExtents: [300])
        let everything = Rect(x: 0, y: 0, width: 300, height: 1e6)
        let before = try await store.elements(name: "small", crossExtent: 300, in: everything, computeIfMissing: false)
        let pool = try #require(store.sqlitePool)
        // SQLite's page limit on the writer: the file cannot grow past it,
        // exactly as when the disk is full (SQLITE_FULL).
        try pool.writeWithoutTransaction { db in
            let pages = try db.int("PRAGMA page_count")
            try db.execute("PRAGMA max_page_count = \(pages + 2)")
        }
        let big = try Spec(jsonText: #"{"format": 1, "name": "big", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 200000, "cycle": [{}]}}]}"#)
        let error = try await #require(throws: StoreError.self) { try await store.save(big, as: "big", crossExtents: [300]) }
        #expect(error.code == .diskFull, "\(error)")
        #expect(error.message.contains("is full; nothing was written"), "\(error.message)")
        #expect(try await store.storedSpec(named: "big") == nil)
        #expect(try await store.elements(name: "small", crossExtent: 300, in: everything, computeIfMissing: false) == before)
        #expect(try await store.check().isHealthy)
    }
}
