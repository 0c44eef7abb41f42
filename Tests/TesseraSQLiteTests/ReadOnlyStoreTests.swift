import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
import TesseraStore

@Suite("LayoutStore(path:readOnly: true)")
struct ReadOnlyStoreTests {
    static let spec = #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 900, "cycle": [{}]}}]}"#

    @Test("answers what the store holds; every write fails with .readOnly and nothing is left beside the file once closed")
    func readsButNeverWrites() async throws {
        let directory = try TemporaryDirectory("readonly")
        let path = directory.file("store.sqlite")
        let spec = try Spec(jsonText: Self.spec)
        try await writeClosedStore(spec, at: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["store.sqlite"])
        let original = try fileBytes(path)

        let store = try LayoutStore(path: path, readOnly: true)
        let everything = Rect(x: 0, y: 0, width: 300, height: 1e6)
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: everything) == LayoutEngine().layout(spec, crossExtent: 300).elements(in: everything))
        let writes: [(String, () async throws -> Void)] = [
            ("save", { try await store.save(spec, as: "other", crossExtents: [300]) }),
            ("compute a missing layout", { _ = try await store.elements(name: "feed", crossExtent: 400, in: everything) }),
            ("compute a missing layout, through answer", { _ = try await store.answer(.rect(everything), name: "feed", crossExtent: 400) }),
            ("invalidate", { _ = try await store.invalidate(name: "feed") }),
            ("append", { _ = try await store.append(name: "feed", section: 0, items: [Item()]) }),
        ]
        for (what, write) in writes {
            let error = try await #require(throws: StoreError.self, "\(what)") { try await write() }
            #expect(error.code == .readOnly, "\(what): \(error)")
        }
        #expect(try await store.check().isHealthy)
        // Open, the store has the -wal and -shm any reader that sees writers needs; its close removes them.
        store.close()
        #expect(try fileBytes(path) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["store.sqlite"])
    }

    @Test("a store of an older schema is refused (a read-only open does not migrate) and left byte for byte")
    func olderSchema() async throws {
        let directory = try TemporaryDirectory("readonly-old")
        let current = directory.file("current.sqlite")
        try await LayoutStore(path: current).save(try Spec(jsonText: Self.spec), as: "feed", crossExtents: [300])
        let old = directory.file("old.sqlite")
        try makeOldStore(at: old, version: 2, copying: current)
        let original = try fileBytes(old)
        let error = try #require(throws: StoreError.self) { _ = try LayoutStore(path: old, readOnly: true) }
        #expect(error.code == .readOnly)
        #expect(error.message.contains("schema version 2"), "\(error.message)")
        #expect(try fileBytes(old) == original)
        // A writing open migrates it, and then it opens read-only.
        _ = try LayoutStore(path: old)
        #expect(try await LayoutStore(path: old, readOnly: true).storedSpec(named: "feed") != nil)
    }

    @Test("a store with a WAL of commits beside it (a writer's crash image) is read through it and left byte for byte, WAL included")
    func walLeftAsItWas() async throws {
        let directory = try TemporaryDirectory("readonly-wal")
        let path = directory.file("store.sqlite")
        let crash = directory.file("crash.sqlite")
        let writer = try LayoutStore(path: path)
        try await writer.save(try Spec(jsonText: Self.spec), as: "feed", crossExtents: [300])
        // The file and its WAL copied while the writer holds them: the commit is in the WAL only.
        try FileManager.default.copyItem(atPath: path, toPath: crash)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: crash + "-wal")
        writer.close()
        let (original, wal) = (try fileBytes(crash), try fileBytes(crash + "-wal"))
        try #require(!wal.isEmpty)
        let store = try LayoutStore(path: crash, readOnly: true)
        #expect(try await store.storedSpec(named: "feed") != nil)
        store.close()
        #expect(try fileBytes(crash) == original)
        #expect(try fileBytes(crash + "-wal") == wal)
    }

    @Test("a missing file is not created, and a file that is not a store is refused with .notAStore, untouched")
    func refusals() async throws {
        let directory = try TemporaryDirectory("readonly-refusals")
        let missing = directory.file("missing.sqlite")
        #expect(throws: StoreError.self) { _ = try LayoutStore(path: missing, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: missing))
        let text = directory.file("notes.txt")
        try Data("not a database at all, but long enough to have a header of one hundred bytes ..........................".utf8)
            .write(to: URL(fileURLWithPath: text))
        let original = try fileBytes(text)
        let error = try #require(throws: StoreError.self) { _ = try LayoutStore(path: text, readOnly: true) }
        #expect(error.code == .notAStore)
        #expect(error.message.contains("is not a Tessera store"))
        #expect(try fileBytes(text) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
    }
}
