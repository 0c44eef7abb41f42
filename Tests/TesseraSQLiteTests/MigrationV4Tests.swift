import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
@testable import TesseraStore
import TesseraStoreFormat

@Suite("schema version 4: compact frame blobs, plain ones still read")
struct MigrationV4Tests {
    static let spec = MigrationV3Tests.spec

    /// Rewrites every frame blob of the store at `path` in the plain form
    /// of schema versions 1–3, with its checksum, as such a store holds it.
    static func makePlain(_ pool: DatabasePool) throws -> Int {
        try pool.write { db in
            var blobs: [(id: Int64, plain: [UInt8])] = []
            let query = try db.prepare("SELECT id, frames FROM cell_groups")
            while try query.step() {
                let frames = try #require(query.withBlob(at: 1, FrameBlob.decode))
                blobs.append((query.int64(at: 0), FrameBlob.encodePlain(frames[...])))
            }
            let update = try db.prepare("UPDATE cell_groups SET frames = ? WHERE id = ?")
            for blob in blobs {
                try blob.plain.withUnsafeBytes { raw in
                    try update.withBlobBoundWithoutCopy(raw, at: 1) {
                        try update.bind(blob.id, at: 2)
                        try update.execute()
                    }
                }
            }
            try db.execute("UPDATE cell_group_directory SET frames_checksum = (SELECT tessera_hash(frames) FROM cell_groups WHERE id = group_id)")
            return blobs.count
        }
    }

    @Test("a version-3 store of plain blobs migrates without rewriting them, answers exactly, and an append rewrites only the last group, compact")
    func plainStoreMigrates() async throws {
        let directory = try TemporaryDirectory("v4")
        let spec = try Spec(jsonText: Self.spec)
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(spec, as: "feed", crossExtents: [300])
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 3, copying: current)
        let groups = try Self.makePlain(openOldStore(at: old, version: 3))
        #expect(groups == 4)

        let store = try LayoutStore(path: old)
        let pool = try #require(store.sqlitePool)
        let lengths = { try pool.read { db in try db.int("SELECT count(*) FROM cell_groups WHERE length(frames) % 32 = 0 AND length(frames) >= 32") } }
        #expect(try pool.read { db in try db.int("PRAGMA user_version") } == EmbeddedMigrations.all.count)
        #expect(try lengths() == 4, "the migration rewrote a blob")
        let everything = Rect(x: 0, y: 0, width: 300, height: 1e6)
        let memory = try LayoutEngine().layout(spec, crossExtent: 300)
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: everything, computeIfMissing: false) == memory.elements(in: everything))
        let cells = memory.elements(in: everything).filter { $0.kind == .cell && $0.section == 0 }
        for item in [0, 249, 250, 599] {
            let stored = try await store.element(name: "feed", crossExtent: 300, section: 0, item: item, computeIfMissing: false)
            #expect(stored == cells.first { $0.item == item })
        }
        #expect(try await store.check().isHealthy)

        // The waterfall section's one group (3 items) is read, merged with the new cells and written compact.
        let items = [Item(aspectRatio: 1.5), Item(aspectRatio: 0.75)]
        let report = try await store.append(name: "feed", section: 1, items: items)
        #expect(report.layouts.first?.resumed == 1, "\(report)")
        var appended = spec
        appended.sections[1].items = .list([Item(aspectRatio: 0.5), Item(aspectRatio: 2), Item(aspectRatio: 1)] + items)
        let expected = try LayoutEngine().layout(appended, crossExtent: 300)
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: everything, computeIfMissing: false) == expected.elements(in: everything))
        #expect(try lengths() == 3)
        #expect(try await store.check().isHealthy)
    }
}
