import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraPrecompute
import TesseraTiles

/// Names that differ only in Unicode normalization are one name: every entry
/// of the library files and finds a spec under the name's NFC bytes, so the
/// store never holds two specs for one name and never answers one with the
/// other's frames.
@Suite("store: canonically equivalent names are one name")
struct EquivalentNameStoreTests {
    static func spec(items: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "lineSpacing": 2}, "items": {"count": \#(items), "cycle": [{}]}}]}"#)
    }

    @Test("random equivalent pairs: the second save updates the first, and every read under either spelling answers it", arguments: TestBackend.all)
    func pairs(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        var random = SeededRandom(seed: 0x4E46_43)
        let small = try Self.spec(items: 7)
        let expected = try LayoutEngine().layout(small, crossExtent: 390)
        let viewport = Rect(x: 0, y: 0, width: 390, height: 300)
        for round in 0..<12 {
            let (first, second) = EquivalentNames.pair(using: &random)
            let stored = Array(Spec.normalizedName(first).utf8)
            let created = try await store.save(try Self.spec(items: 1000), as: first, crossExtents: [390])
            #expect(created.created)
            let updated = try await store.save(small, as: second, crossExtents: [390])
            #expect(!updated.created, "round \(round): \(second.debugDescription) was filed apart from \(first.debugDescription)")
            let specs = try await store.specs()
            #expect(specs.count == round + 1)
            #expect(specs.filter { Array($0.name.utf8) == stored }.count == 1)
            for name in [first, second] {
                #expect(try await store.contentSize(name: name, crossExtent: 390) == expected.contentSize)
                #expect(try await store.visibleElements(name: name, crossExtent: 390, viewport: viewport) == expected.visibleElements(viewport: viewport))
                #expect(try await store.elements(name: name, crossExtent: 390, in: viewport) == expected.elements(in: viewport))
                #expect(try await store.element(name: name, crossExtent: 390, section: 0, item: 6)?.frame == expected.element(section: 0, item: 6)?.frame)
                #expect(try await store.layouts(name: name).map(\.crossExtent) == [390])
                #expect(try await store.storedSpec(named: name).map { Array($0.name.utf8) } == stored)
                #expect(try await store.listing(name: name).map { Array($0.spec.name.utf8) } == stored)
                guard case .found(let manifest, _) = try await store.tileManifest(name: name, crossExtent: 390) else {
                    Issue.record("no tiles under \(name.debugDescription)")
                    continue
                }
                #expect(manifest.layout.contentSize == expected.contentSize)
            }
            _ = try await store.append(name: first, section: 0, items: [Item()])
            #expect(try await store.element(name: second, crossExtent: 390, section: 0, item: 7) != nil)
            #expect(try await store.invalidate(name: second) == 1)
            #expect(try await store.deleteLayout(name: first, crossExtent: 390))
            _ = try await store.save(small, as: second, crossExtents: [390])
        }
        // Deleting under one spelling deletes the one spec.
        let (first, second) = EquivalentNames.pair(using: &random)
        _ = try await store.save(small, as: first, crossExtents: [390])
        #expect(try await store.deleteSpec(named: second))
        #expect(try await store.spec(named: first) == nil)
    }

    @Test("a spec's own name and a batch's names are normalized as a name to save as is")
    func specNames() async throws {
        let temporary = try await TemporaryStore()
        var random = SeededRandom(seed: 7)
        let (first, second) = EquivalentNames.pair(using: &random)
        var named = try Self.spec(items: 3)
        named.name = first
        _ = try await temporary.store.save(named, crossExtents: [390])
        var other = try Self.spec(items: 5)
        other.name = second
        let report = try await temporary.store.saveBatch([other], crossExtents: [390], onFailure: .stop)
        #expect(report.saved == 1)
        #expect(try await temporary.store.specs().map { Array($0.name.utf8) } == [Array(Spec.normalizedName(second).utf8)])
        #expect(try await temporary.store.contentSize(name: first, crossExtent: 390) == LayoutEngine().layout(other, crossExtent: 390).contentSize)
    }
}
