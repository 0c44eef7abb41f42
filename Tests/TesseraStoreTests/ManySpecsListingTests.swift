import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraPrecompute

/// Listings of stores with more specs than a read may send statements
/// (PostgreSQL's reads stop at 256): every layout in one scan.
@Suite("store: listings of many specs")
struct ManySpecsListingTests {
    @Test("layouts(), listing() and a page of 400 specs list every layout of 400 specs", arguments: TestBackend.all)
    func manySpecs(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let specs = try (0..<400).map { try BatchPrecomputeTests.feed(String(format: "feed-%03d", $0), items: 3 + $0 % 5) }
        let report = try await temporary.store.saveBatch(specs, crossExtents: [300, 414], jobs: 1)
        #expect(report.saved == 400)
        // One spec without layouts: listed, with none.
        _ = try await temporary.store.invalidate(name: "feed-007")
        _ = try await temporary.store.deleteSpec(named: "feed-008")
        try await temporary.store.save(BatchPrecomputeTests.feed("feed-008", items: 4), crossExtents: [])
        let layouts = try await temporary.store.layouts()
        #expect(layouts.count == 798)
        #expect(layouts.map(\.specName) == (0..<400).filter { $0 != 8 }.flatMap { index in Array(repeating: String(format: "feed-%03d", index), count: 2) })
        #expect(layouts.filter { $0.state == .stale }.map(\.specName) == ["feed-007", "feed-007"])
        let listing = try await temporary.store.listing()
        #expect(listing.count == 400 && listing.map(\.layouts.count).reduce(0, +) == 798)
        #expect(listing.first { $0.spec.name == "feed-008" }?.layouts.isEmpty == true)
        #expect(listing.allSatisfy { $0.layouts.map(\.crossExtent) == ($0.spec.name == "feed-008" ? [] : [300, 414]) })
        let page = try await temporary.store.listing(after: "feed-000", limit: 400)
        #expect(page.specs.count == 399 && page.next == nil)
        #expect(page.specs.map(\.layouts.count).reduce(0, +) == 796)
    }
}
