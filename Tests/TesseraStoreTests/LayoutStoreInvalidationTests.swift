import Foundation
import Testing
import TesseraInMemory
import TesseraStoreTesting
import TesseraLayout
@testable import TesseraStore
import TesseraSQLite
@testable import SQLiteToolkit

@Suite("store: invalidation, prune and refusals")
struct LayoutStoreInvalidationTests {
    static func grid(_ fraction: Int, count: Int = 30) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": \#(fraction)}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
    }

    @Test("saving changed content recomputes every stored width in the same call", arguments: TestBackend.all)
    func specChange(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(3), as: "feed", crossExtents: [300, 600])
        #expect(try await store.element(name: "feed", crossExtent: 300, section: 0, item: 0)?.frame.width == 100)
        let layouts = try await store.save(Self.grid(2), as: "feed").layouts
        #expect(layouts.map(\.crossExtent) == [300, 600])
        #expect(layouts.allSatisfy { $0.state == .fresh })
        #expect(try await store.element(name: "feed", crossExtent: 300, section: 0, item: 0)?.frame.width == 150)
        #expect(try await store.element(name: "feed", crossExtent: 600, section: 0, item: 0)?.frame.width == 300)
    }

    @Test("another width is another layout, computed on first use", arguments: TestBackend.all)
    func widthChange(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(3), as: "feed", crossExtents: [300])
        let result = try await store.layout(name: "feed", crossExtent: 450)
        let layout = result.layout
        #expect(result.computed)
        #expect(layout.contentSize == Size(width: 450, height: 1500))
        #expect(try await store.layout(name: "feed", crossExtent: 450).computed == false)
        #expect(try await store.layouts().map(\.crossExtent) == [300, 450])
    }

    /// Every layout row as another engine version would have written it.
    static func nextEngineVersion(_ tables: inout InMemoryTables) {
        tables.alterLayouts { $0.engineVersion += 1; $0.resum() }
    }

    @Test("a layout of another engine version is stale and recomputed, never served", arguments: TestBackend.all)
    func engineVersion(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(3), as: "feed", crossExtents: [300])
        try await temporary.change(sql: "UPDATE layouts SET engine_version = engine_version + 1", memory: Self.nextEngineVersion)
        #expect(try await store.layouts().map(\.state) == [.stale])
        #expect(try await store.layout(name: "feed", crossExtent: 300).computed)
        #expect(try await store.layouts().map(\.state) == [.fresh])
    }

    @Test("a warm reader sees every change another store (as another process) makes to the file", arguments: TestBackend.all)
    func warmReaderSeesOtherWriters(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let reader = temporary.store
        let writer = try await temporary.reopen()
        try await writer.save(Self.grid(3), as: "feed", crossExtents: [300])
        let everything = Rect(x: 0, y: 0, width: 300, height: 1e6)
        // Warm the reader's caches of the resolved layout and its groups.
        for _ in 0..<3 { #expect(try await reader.elements(name: "feed", crossExtent: 300, in: everything).count == 30) }

        try await writer.save(Self.grid(2), as: "feed")
        #expect(try await reader.element(name: "feed", crossExtent: 300, section: 0, item: 0)?.frame.width == 150)

        try await writer.save(Self.grid(2, count: 31), as: "feed")
        #expect(try await reader.elements(name: "feed", crossExtent: 300, in: everything).count == 31)

        // Served from a stale resolution, the query would not recompute.
        try await writer.deleteLayout(name: "feed", crossExtent: 300)
        #expect(try await writer.layouts().isEmpty)
        #expect(try await reader.elements(name: "feed", crossExtent: 300, in: everything).count == 31)
        #expect(try await writer.layouts().map(\.state) == [.fresh])

        try await backend.change(sql: "UPDATE layouts SET engine_version = engine_version + 1", memory: Self.nextEngineVersion, on: writer)
        #expect(try await reader.elements(name: "feed", crossExtent: 300, in: everything).count == 31)
        #expect(try await writer.layouts().map(\.state) == [.fresh])
    }

    @Test("invalidate marks layouts stale; the next query recomputes; prune deletes and shrinks the file", arguments: TestBackend.all)
    func invalidateAndPrune(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(3, count: 30_000), as: "feed", crossExtents: [300, 600])
        #expect(try await store.invalidate(name: "feed", crossExtent: 300) == 1)
        #expect(try await store.layouts().map(\.state) == [.stale, .fresh])
        #expect(try await store.invalidate(name: "feed") == 2)
        #expect(try await store.layout(name: "feed", crossExtent: 300).computed)
        let report = try await store.prune()
        #expect(report.layoutsDeleted == 1)
        #expect(try await store.layouts().map(\.crossExtent) == [300])
        switch backend {
        case .sqlite, .memory:
            #expect(report.bytesAfter < report.bytesBefore)
        case .postgres:
            // VACUUM makes the space reusable without rewriting tables (which
            // would lock out every reader): the pruned layout (half the store)
            // computed again mostly fits in it, where it would otherwise add half.
            // VACUUM frees nothing a transaction of another session (another
            // test's, in parallel) may still see, and the file never shrinks:
            // a round whose recompute found the space still held (and grew
            // the file by about half) is followed by another, whose recompute
            // reuses what its prune freed.
            var previous = report.bytesAfter
            var growths: [Int] = []
            for _ in 0..<4 {
                #expect(try await store.layout(name: "feed", crossExtent: 600).computed)
                let now = try await store.prune().bytesAfter
                growths.append(now - previous)
                if now - previous <= report.bytesBefore / 4 { break }
                _ = try await store.invalidate(name: "feed", crossExtent: 600)
                previous = try await store.prune().bytesAfter
            }
            #expect(growths.last.map { $0 <= report.bytesBefore / 4 } == true, "\(report.bytesBefore) bytes, grown by \(growths)")
        }
        await #expect(throws: StoreError.noSuchSpec(name: "nope")) { try await store.invalidate(name: "nope") }
    }

    @Test("a spec that fails at any width changes nothing: the old spec and layouts stay", arguments: TestBackend.all)
    func badSpecChangesNothing(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(3), as: "feed", crossExtents: [300])
        let before = try await store.elements(name: "feed", crossExtent: 300, in: Rect(x: 0, y: 0, width: 300, height: 1e6))
        // Valid at 300, impossible at 10: 2 items per line need 50 points of spacing.
        let bad = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2, "itemSpacing": 50}, "items": [{}]}]}"#)
        let error = try await #require(throws: StoreError.self) { try await store.save(bad, as: "feed", crossExtents: [300, 10]) }
        #expect(error.code == .invalidSpec)
        #expect(error.path == "sections[0].layout.fraction")
        #expect(error.spec == "feed")
        #expect(error.cause is SpecError)
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: Rect(x: 0, y: 0, width: 300, height: 1e6)) == before)
        #expect(try await store.layouts().map(\.crossExtent) == [300])
        #expect(try await store.specs().count == 1)
        let unnamed = try await #require(throws: StoreError.self) { try await store.save(Self.grid(3)) }
        #expect(unnamed.code == .invalidArgument)
    }

    /// A flow section of one 10×10 item read from items.ndjson, saved as
    /// "files" at width 100.
    static func saveFileSpec(in temporary: TemporaryStore) async throws -> LayoutStore {
        try #"{"size": [10, 10]}"#.write(toFile: temporary.file("items.ndjson"), atomically: true, encoding: .utf8)
        try #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"file": "items.ndjson"}}]}"#
            .write(toFile: temporary.file("spec.json"), atomically: true, encoding: .utf8)
        try await temporary.store.save(Spec(contentsOfFile: temporary.file("spec.json")), as: "files", crossExtents: [100])
        return temporary.store
    }

    @Test("a changed items file is caught: the stored layout stays, a recompute asks for a new save", arguments: TestBackend.all)
    func changedItemsFile(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = try await Self.saveFileSpec(in: temporary)
        try "{\"size\": [20, 20]}\n{\"size\": [20, 20]}".write(toFile: temporary.file("items.ndjson"), atomically: true, encoding: .utf8)
        #expect(try await store.element(name: "files", crossExtent: 100, section: 0, item: 0)?.frame.width == 10)
        #expect(try await #require(throws: StoreError.self) { try await store.layout(name: "files", crossExtent: 200) }.code == .conflict)
        try await store.save(Spec(contentsOfFile: temporary.file("spec.json")), as: "files")
        #expect(try await store.element(name: "files", crossExtent: 100, section: 0, item: 1)?.frame.width == 20)
    }

    @Test("a file section that was appended to (file + list segments) still notices when its file changes", arguments: TestBackend.all)
    func changedFileInsideSegments(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = try await Self.saveFileSpec(in: temporary)
        try await store.append(name: "files", section: 0, items: [Item(size: Size(width: 30, height: 30))])
        let stored = try #require(try await store.spec(named: "files"))
        guard case .segments(let parts) = stored.sections[0].items, case .file(let path, _) = parts.first else {
            Issue.record("expected file + list segments, got \(stored.sections[0].items)")
            return
        }
        #expect(path.hasPrefix("/"), "the stored path \(path) must not depend on the current folder")

        try "{\"size\": [20, 20]}".write(toFile: temporary.file("items.ndjson"), atomically: true, encoding: .utf8)
        #expect(try await #require(throws: StoreError.self) { try await store.layout(name: "files", crossExtent: 200) }.code == .conflict)
        // Saving the stored spec again reads the new file, and keeps the appended item.
        try await store.save(stored, as: "files")
        #expect(try await store.element(name: "files", crossExtent: 100, section: 0, item: 0)?.frame.width == 20)
        #expect(try await store.element(name: "files", crossExtent: 100, section: 0, item: 1)?.frame.width == 30)
    }

    @Test("a segments spec names its files relative to the spec, and stores them absolute", arguments: TestBackend.all)
    func relativeFileInSegments(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        try #"{"size": [10, 10]}"#.write(toFile: temporary.file("items.ndjson"), atomically: true, encoding: .utf8)
        try #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"segments": [{"file": "items.ndjson"}, [{"size": [5, 5]}]]}}]}"#
            .write(toFile: temporary.file("spec.json"), atomically: true, encoding: .utf8)
        let store = temporary.store
        try await store.save(Spec(contentsOfFile: temporary.file("spec.json")), as: "segments", crossExtents: [100])
        let stored = try #require(try await store.spec(named: "segments"))
        #expect(stored.sections[0].items.itemFiles.map(\.resolvedPath) == [realPath(temporary.file("items.ndjson"))])
        #expect(try await store.element(name: "segments", crossExtent: 100, section: 0, item: 1)?.frame.width == 5)
        try "{\"size\": [40, 40]}".write(toFile: temporary.file("items.ndjson"), atomically: true, encoding: .utf8)
        #expect(try await #require(throws: StoreError.self) { try await store.layout(name: "segments", crossExtent: 300) }.code == .conflict)
    }

    private func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
