import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraTiles

/// A store written before names were normalized may hold a name in another
/// form than NFC, or two specs under equivalent names. Opening it for
/// writing files a lone name under its NFC form; equivalent names are kept,
/// reported by `check`, and refused on every use (never answered with the
/// other's frames) until a delete of the name removes them.
@Suite("store: names stored before normalization, migrated")
struct LegacyNameTests {
    static let precomposed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"
    static let lone = "Ame\u{301}lie"

    /// `store` as a version before names were normalized left it, holding
    /// `twin-a` and `twin-b` as the two spellings of café and `lone` as a
    /// decomposed Amélie; then the store opened anew for writing.
    static func legacy(_ temporary: TemporaryStore) async throws -> LayoutStore {
        switch temporary.backend {
        case .sqlite:
            try await temporary.execute("""
                DROP TABLE spec_name_conflicts;
                UPDATE specs SET name = 'caf' || char(233) WHERE name = 'twin-a';
                UPDATE specs SET name = 'cafe' || char(769) WHERE name = 'twin-b';
                UPDATE specs SET name = 'Ame' || char(769) || 'lie' WHERE name = 'lone';
                PRAGMA user_version = 11;
                """)
        case .postgres:
            try await temporary.execute("""
                DROP TABLE spec_name_conflicts;
                UPDATE specs SET name = 'caf' || chr(233) WHERE name = 'twin-a';
                UPDATE specs SET name = 'cafe' || chr(769) WHERE name = 'twin-b';
                UPDATE specs SET name = 'Ame' || chr(769) || 'lie' WHERE name = 'lone';
                DELETE FROM tessera_migrations WHERE version >= 8;
                """)
        case .memory:
            throw StoreError(.internal, "an in-memory store files equivalent names under one key: it has no legacy")
        }
        return try await temporary.reopen()
    }

    static func spec(items: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2}, "items": {"count": \#(items), "cycle": [{}]}}]}"#)
    }

    @Test("a lone name is renamed to NFC; equivalent names are refused, reported, and deleted together", arguments: TestBackend.sqlBackends)
    func migrated(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        for (name, items) in [("twin-a", 1000), ("twin-b", 7), ("lone", 3), ("plain", 2)] {
            try await temporary.store.save(try Self.spec(items: items), as: name, crossExtents: [390])
        }
        let store = try await Self.legacy(temporary)
        let names = try await store.specs().map { $0.name.unicodeScalars.map(\.value) }
        #expect(names.count == 4)
        // Amélie is stored in NFC; both spellings of café are kept as they were.
        #expect(names.contains(Array("Am\u{E9}lie".unicodeScalars.map(\.value))))
        #expect(names.contains(Array(Self.precomposed.unicodeScalars.map(\.value))))
        #expect(names.contains(Array(Self.decomposed.unicodeScalars.map(\.value))))
        for spelling in [Self.lone, "Am\u{E9}lie"] {
            #expect(try await store.contentSize(name: spelling, crossExtent: 390) == LayoutEngine().layout(Self.spec(items: 3), crossExtent: 390).contentSize)
        }
        // Listings show each spelling with its own layouts, whole and paged.
        let whole = try await store.listing().map { (Array($0.spec.name.utf8), $0.layouts.map(\.elementCount)) }
        let paged = try await store.listing(after: nil, limit: 10).specs.map { (Array($0.spec.name.utf8), $0.layouts.map(\.elementCount)) }
        for entries in [whole, paged] {
            let counts = Dictionary(uniqueKeysWithValues: entries)
            #expect(counts[Array(Self.precomposed.utf8)] == [1000])
            #expect(counts[Array(Self.decomposed.utf8)] == [7])
        }
        // Every use of café, under either spelling, is refused with the reason.
        for spelling in [Self.precomposed, Self.decomposed] {
            for use in Self.uses {
                do {
                    try await use(store, spelling)
                    Issue.record("a use of \(spelling.debugDescription) was answered")
                } catch let error as StoreError {
                    #expect(error.code == .conflict)
                    #expect(error.message.contains("more than one spec under names equivalent to"), "\(error.message)")
                }
            }
        }
        let report = try await store.check()
        #expect(!report.isHealthy)
        #expect(report.problems.map(\.description) == [
            "spec \"caf\u{E9}\": 2 specs are filed under equivalent names (U+0063 0061 0066 0065 0301, U+0063 0061 0066 00E9), which the store "
                + "cannot tell apart: every use of the name is refused until it is deleted",
        ] || report.problems.map(\.description) == [
            "spec \"caf\u{E9}\": 2 specs are filed under equivalent names (U+0063 0061 0066 00E9, U+0063 0061 0066 0065 0301), which the store "
                + "cannot tell apart: every use of the name is refused until it is deleted",
        ], "\(report.problems)")
        // A delete of the name removes both, and the name is free again, here and in a store opened anew.
        #expect(try await store.deleteSpec(named: Self.decomposed))
        #expect(try await store.specs().count == 2)
        try await store.save(try Self.spec(items: 5), as: Self.decomposed, crossExtents: [390])
        let reopened = try await temporary.reopen()
        #expect(try await reopened.contentSize(name: Self.precomposed, crossExtent: 390) == LayoutEngine().layout(Self.spec(items: 5), crossExtent: 390).contentSize)
        #expect(try await reopened.check().isHealthy)
    }

    /// Each way a request uses a name.
    static let uses: [@Sendable (LayoutStore, String) async throws -> Void] = [
        { store, name in _ = try await store.visibleElements(name: name, crossExtent: 390, viewport: Rect(x: 0, y: 0, width: 390, height: 800)) },
        { store, name in _ = try await store.elements(name: name, crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: 800)) },
        { store, name in _ = try await store.element(name: name, crossExtent: 390, section: 0, item: 0) },
        { store, name in _ = try await store.layouts(name: name) },
        { store, name in _ = try await store.spec(named: name) },
        { store, name in _ = try await store.listing(name: name) },
        { store, name in _ = try await store.tileManifest(name: name, crossExtent: 390) },
        { store, name in _ = try await store.save(try LegacyNameTests.spec(items: 2), as: name, crossExtents: [390]) },
        { store, name in _ = try await store.append(name: name, section: 0, items: [Item()]) },
        { store, name in _ = try await store.invalidate(name: name) },
    ]
}
