import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// An append reads the section rows from its section on, and takes what
/// the sections before it add to the layout's totals from the layout's
/// row: every row and total it writes is the one a save of the whole spec
/// writes.
@Suite("store: appends read the rows from their section on")
struct AppendWindowTests {
    /// The layout's row totals and its section rows' geometries (slots
    /// aside: they name cells, not places), as the backend holds them.
    static func stored(_ store: LayoutStore, name: String, crossExtent: Double) async throws -> (totals: LayoutTotals, sections: [SectionGeometry])? {
        try await store.readAsync { rows -> (totals: LayoutTotals, sections: [SectionGeometry])? in
            guard let record = try rows.layoutRecord(name: name, crossExtent: crossExtent) else { return nil }
            return (record.totals, try rows.sections(layoutID: record.layout.id).map(\.geometry))
        }
    }

    static func expectSameRows(_ appended: LayoutStore, _ whole: LayoutStore, extents: [Double], _ step: String) async throws {
        for extent in extents {
            let (got, expected) = (try await stored(appended, name: "feed", crossExtent: extent), try await stored(whole, name: "feed", crossExtent: extent))
            let (a, b) = (try #require(got), try #require(expected))
            #expect(a.sections == b.sections, "\(step) @\(extent)")
            let totals: [Double] = [a.totals.contentLength, Double(a.totals.sectionCount), Double(a.totals.cellCount), Double(a.totals.elementCount), a.totals.overhang]
            let expectedTotals: [Double] = [b.totals.contentLength, Double(b.totals.sectionCount), Double(b.totals.cellCount), Double(b.totals.elementCount), b.totals.overhang]
            #expect(totals == expectedTotals, "\(step) @\(extent): \(a.totals) against \(b.totals)")
        }
    }

    @Test("random appends to any section of random specs: the layout's row and section rows equal those of the spec saved whole", arguments: TestBackend.all, Array(UInt64(1)...10))
    func randomAppends(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed &* 104_729, kinds: allKinds)
        generator.carouselChance = 0.2
        let (json, extent) = generator.spec(sections: 2...6, items: 0...40)
        var spec = try Spec(jsonText: json)
        var random = SeededRandom(seed: seed)
        let extents = [extent, extent + 37.5]
        let appended = try await TemporaryStore(backend)
        try await appended.store.save(spec, as: "feed", crossExtents: extents)
        for step in 0..<6 {
            let section = random.int(0...(spec.sections.count - 1))
            let items = IncrementalUpdateTests.itemsToAppend(spec.sections[section].items, count: random.int(1...25), random: &random)
            let report = try await appended.store.append(name: "feed", section: section, items: items)
            spec.sections[section].items = spec.sections[section].items.appending(items)
            // The sections before it are kept, untouched.
            #expect(report.layouts.allSatisfy { $0.kept >= section && $0.recomputed == 0 }, "seed \(seed) step \(step): \(report.layouts)")
            let whole = try await TemporaryStore(backend)
            try await whole.store.save(spec, as: "feed", crossExtents: extents)
            try await Self.expectSameRows(appended.store, whole.store, extents: extents, "seed \(seed) step \(step): append \(items.count) to \(section)")
            whole.store.close()
        }
        try await IncrementalUpdateTests.expectMatchesFullRecompute(
            appended.store, name: "feed", extents: extents, expected: spec, seed: seed, step: "after 6 appends")
        #expect(try await appended.store.check().isHealthy)
    }

    @Test("an append to the last section reads no row of the sections before it: a damaged one is left to the check", arguments: TestBackend.sqlBackends)
    func rowsBeforeAreNotRead(backend: TestBackend) async throws {
        var spec = try Spec(jsonText: #"""
            {"format": 1, "sections": [
              {"layout": {"kind": "grid", "fraction": 3}, "header": {"size": 40}, "items": {"count": 6000, "cycle": [{}]}},
              {"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 6000, "cycle": [{}]}},
              {"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 6000, "cycle": [{}]}}
            ]}
            """#)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        // 72 groups of cells: too many rows for a directory summary (which a write rebuilds from every row).
        try await store.save(spec, as: "feed", crossExtents: [390])
        // Section 0's row no longer matches its checksum.
        try await temporary.execute("UPDATE layout_sections SET checksum = checksum + 1 WHERE section = 0")
        let items = [Item](repeating: Item(), count: 7)
        let report = try await store.append(name: "feed", section: 2, items: items)
        spec.sections[2].items = spec.sections[2].items.appending(items)
        #expect(report.layouts.map(\.kept) == [2] && report.layouts.map(\.resumed) == [1])
        #expect(try await store.spec(named: "feed")?.canonicalText == spec.canonicalText)
        let memory = try LayoutEngine().layout(spec, crossExtent: 390)
        #expect(try await store.layouts().first?.contentSize == memory.contentSize)
        // The check still finds the damaged row, and an append that reads it fails.
        #expect(try await !store.check().isHealthy)
        let error = try await #require(throws: StoreError.self) { try await store.append(name: "feed", section: 0, items: items) }
        #expect(error.code == .damaged, "\(error)")
    }
}
