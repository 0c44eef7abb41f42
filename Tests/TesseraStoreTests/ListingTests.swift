import Foundation
import Testing
import TesseraLayout
@testable import TesseraStore

@Suite("store: listing and its JSON")
struct ListingTests {
    static func sync<T>(_ body: () throws -> T) rethrows -> T { try body() }

    static func grid(_ count: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
    }

    @Test("listing gives every spec with its own layouts, in one snapshot; listing(name:) one of them", arguments: TestBackend.all)
    func listing(backend: TestBackend) async throws {
        let temporary = try TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(4), as: "b", crossExtents: [200, 100])
        try await store.save(Self.grid(2), as: "a", crossExtents: [300])
        try await store.save(Self.grid(1), as: "c")
        let listing = try await store.listing()
        #expect(listing.map(\.spec.name) == ["a", "b", "c"])
        #expect(listing.map { $0.layouts.map(\.crossExtent) } == [[300], [100, 200], []])
        #expect(listing[1].layouts.allSatisfy { $0.specName == "b" && $0.elementCount == 4 })
        #expect(try await store.listing(name: "b") == listing[1])
        #expect(try await store.listing(name: "nope") == nil)
        #expect(try await store.listing() == listing)
    }

    @Test("list JSON and an update report are the contract's objects, read back by Foundation")
    func json() async throws {
        let spec = StoredSpec(name: "feed \"1\"", axis: .vertical, sectionCount: 2, contentHash: "x", updatedAt: 0)
        let layout = StoredLayout(
            id: 7, specName: spec.name, axis: .vertical, crossExtent: 390.5, state: .fresh, contentLength: 1234.25,
            sectionCount: 2, cellCount: 10, elementCount: 12, engineVersion: 1, computeSeconds: 0.125
        )
        let text = StoreJSON.listing([SpecListing(spec: spec, layouts: [layout])])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let entry = try #require((object["specs"] as? [[String: Any]])?.first)
        #expect(entry["name"] as? String == "feed \"1\"")
        #expect(entry["sections"] as? Int == 2)
        let stored = try #require((entry["layouts"] as? [[String: Any]])?.first)
        #expect(stored["extent"] as? Double == 390.5)
        #expect(stored["state"] as? String == "fresh")
        #expect(stored["elements"] as? Int == 12)
        #expect(stored["contentSize"] as? [Double] == [390.5, 1234.25])
        #expect(stored["frameBytes"] as? Int == 320)

        var entryReport = UpdateReport.Layout(crossExtent: 390)
        entryReport.kept = 3
        entryReport.resumed = 1
        let report = StoreJSON.report(name: "feed", UpdateReport(layouts: [entryReport]))
        #expect(report == #"{"name": "feed", "layouts": [{"extent": 390, "kept": 3, "shifted": 0, "resumed": 1, "recomputed": 0}]}"#)
    }
}
