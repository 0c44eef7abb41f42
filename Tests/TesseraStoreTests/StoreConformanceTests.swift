import Foundation
import Testing
import TesseraLayout
@testable import TesseraStore

/// The port's rules that no other suite states for every backend: what a
/// delete leaves, that ids are never reused, and what a closed store does.
/// With the suites over `TestBackend.all` (round trip and the brute-force
/// property test, incremental updates, appends, invalidation and prune,
/// listing, concurrent readers, check and damage), a new backend that
/// passes them keeps every rule of the store.
@Suite("store: the rules every backend keeps")
struct StoreConformanceTests {
    static func grid(_ count: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
    }

    static let everything = Rect(x: 0, y: 0, width: 1e6, height: 1e6)

    @Test("deleting a layout leaves the spec's others; deleting a spec deletes its layouts; a name saved again gets new ids", arguments: TestBackend.all)
    func deletes(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(600), as: "feed", crossExtents: [300, 400])
        try await store.save(Self.grid(3), as: "other", crossExtents: [300])
        let before = try await store.layouts().map(\.id)
        #expect(try await store.deleteLayout(name: "feed", crossExtent: 300))
        #expect(try await !store.deleteLayout(name: "feed", crossExtent: 300))
        #expect(try await store.layouts(name: "feed").map(\.crossExtent) == [400])
        #expect(try await store.elements(name: "feed", crossExtent: 400, in: Self.everything).count == 600)

        #expect(try await store.deleteSpec(named: "feed"))
        #expect(try await !store.deleteSpec(named: "feed"))
        #expect(try await store.specs().map(\.name) == ["other"])
        #expect(try await store.layouts().map(\.specName) == ["other"])
        await #expect(throws: StoreError.noSuchSpec(name: "feed")) { try await store.elements(name: "feed", crossExtent: 400, in: Self.everything) }
        #expect(try await store.check().isHealthy)

        // Readers cache layouts by id and revision: a deleted id never comes back.
        try await store.save(Self.grid(5), as: "feed", crossExtents: [300])
        let again = try #require(try await store.layouts(name: "feed").first)
        #expect(!before.contains(again.id))
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: Self.everything).count == 5)
        #expect(try await temporary.reopen().elements(name: "feed", crossExtent: 300, in: Self.everything).count == 5)
    }

    @Test("a closed store refuses every read and write with closed; another handle on it goes on", arguments: TestBackend.all)
    func close(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(10), as: "feed", crossExtents: [300])
        // A second handle is closed: the temporary store's clean-up needs its own open.
        let closed = try await temporary.reopen()
        #expect(try await closed.elements(name: "feed", crossExtent: 300, in: Self.everything).count == 10)
        closed.close()
        closed.close()
        let refusals: [() async throws -> Void] = [
            { _ = try await closed.specs() },
            { _ = try await closed.elements(name: "feed", crossExtent: 300, in: Self.everything) },
            { _ = try await closed.visibleElements(name: "feed", crossExtent: 300, viewport: Self.everything) },
            { try await closed.save(Self.grid(11), as: "feed") },
            { _ = try await closed.invalidate(name: "feed") },
        ]
        for refusal in refusals {
            #expect(try await #require(throws: StoreError.self) { try await refusal() }.code == .closed)
        }
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: Self.everything).count == 10)
        try await store.save(Self.grid(12), as: "feed")
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: Self.everything).count == 12)
    }
}
