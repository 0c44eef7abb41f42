import Foundation
import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraStoreJSON

@Suite("store: listing and its JSON")
struct ListingTests {
    static func sync<T>(_ body: () throws -> T) rethrows -> T { try body() }

    static func grid(_ count: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
    }

    @Test("listing gives every spec with its own layouts, in one snapshot; listing(name:) one of them", arguments: TestBackend.all)
    func listing(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
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

    @Test("pages of the listing follow one another in the byte order of the names' UTF-8, and concatenate to it", arguments: TestBackend.all)
    func pages(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        // Upper case before lower, ASCII before accented letters and CJK: byte order, not a locale's.
        let names = ["b-2", "Zeta", "alpha", "émile", "zèbre", "日本", "b"]
        for (index, name) in names.enumerated() {
            try await store.save(Self.grid(index + 1), as: name, crossExtents: index.isMultiple(of: 2) ? [320, 200] : [])
        }
        let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(sorted == ["Zeta", "alpha", "b", "b-2", "zèbre", "émile", "日本"])
        let whole = try await store.listing()
        #expect(whole.map(\.spec.name) == sorted)

        var pages: [ListingPage] = []
        var after: String?
        repeat {
            let page = try await store.listing(after: after, limit: 3)
            pages.append(page)
            after = page.next
        } while after != nil && pages.count < 10
        #expect(pages.map { $0.specs.map(\.spec.name) } == [["Zeta", "alpha", "b"], ["b-2", "zèbre", "émile"], ["日本"]])
        #expect(pages.map(\.next) == ["b", "émile", nil])
        #expect(pages.flatMap(\.specs) == whole)

        // A name that is not stored pages from where it would be; past the last, an empty last page.
        #expect(try await store.listing(after: "b-1", limit: 2) == ListingPage(specs: Array(whole[3...4]), next: "zèbre"))
        #expect(try await store.listing(after: "zèbres", limit: 5).specs.map(\.spec.name) == ["émile", "日本"])
        #expect(try await store.listing(after: "日本", limit: 5) == ListingPage(specs: [], next: nil))
        // A page as long as what is left is the last.
        #expect(try await store.listing(after: "b-2", limit: 3) == ListingPage(specs: Array(whole[4...]), next: nil))
        #expect(try await store.listing(limit: 1) == ListingPage(specs: [whole[0]], next: "Zeta"))
        await #expect(throws: StoreError.self) { try await store.listing(limit: 0) }
        let error = await #expect(throws: StoreError.self) { try await store.listing(after: "a", limit: -1) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("a page's JSON is the listing's with \"next\" beside \"specs\"")
    func pageJSON() throws {
        let spec = StoredSpec(name: "a", axis: .vertical, sectionCount: 1, contentHash: "x", updatedAt: 0)
        let entries = [SpecListing(spec: spec, layouts: [])]
        #expect(StoreJSON.page(ListingPage(specs: entries, next: "a \"b\"")) == #"{"specs": [{"name": "a", "axis": "vertical", "sections": 1, "layouts": []}], "next": "a \"b\""}"#)
        #expect(StoreJSON.page(ListingPage(specs: [], next: nil)) == #"{"specs": [], "next": null}"#)
        #expect(StoreJSON.page(ListingPage(specs: entries + entries, next: nil))
            == StoreJSON.listingOpening + StoreJSON.entries(entries, first: true) + StoreJSON.entries(entries, first: false) + StoreJSON.pageClosing(next: nil))
    }

    @Test("list JSON and an update report are the contract's objects, read back by Foundation")
    func json() async throws {
        let spec = StoredSpec(name: "feed \"1\"", axis: .vertical, sectionCount: 2, contentHash: "x", updatedAt: 0)
        let layout = StoredLayout(
            id: 7, specName: spec.name, axis: .vertical, crossExtent: 390.5, state: .fresh, contentLength: 1234.25,
            sectionCount: 2, cellCount: 10, elementCount: 12, engineVersion: 1, computeSeconds: 0.125
        )
        let text = StoreJSON.page(ListingPage(specs: [SpecListing(spec: spec, layouts: [layout])], next: nil))
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
