import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// A cached directory's groups, numbered across the layout's sections
/// (``LayoutGroups``): each section's ordinals, and the candidates of a
/// query equal to a brute-force filter of its groups' bounds, for sections
/// searched in a line and through their bounds index (more than 64 groups).
@Suite("LayoutGroups")
struct LayoutGroupsTests {
    /// Random sections of 0–200 groups, ids numbered across them, bounds
    /// mostly advancing along the scroll axis with some reaching far back
    /// (a mozaik's back-filled holes).
    private static func rows(_ random: inout SeededRandom) -> [[GroupRow]] {
        var id: Int64 = 1
        return (0..<(1 + random.int(0...5))).map { _ in
            var rows: [GroupRow] = []
            let count = random.chance(0.25) ? 0 : random.int(0...200)
            var scroll = 0.0
            for position in 0..<count {
                scroll += random.double(0...1) * 100
                let start = random.chance(0.1) ? scroll * random.double(0...1) : scroll
                let cross = random.double(0...1) * 300
                rows.append(GroupRow(
                    layoutID: 0, slot: 0, firstItem: SectionGroups.firstItem(at: position), id: id,
                    bounds: QueryBounds(minCross: cross, maxCross: cross + random.double(0...1) * 100, minScroll: start, maxScroll: scroll + random.double(0...1) * 150),
                    framesChecksum: Int64(bitPattern: random.next())
                ))
                id += 1
            }
            return rows
        }
    }

    @Test("each section's ordinals follow the ones before; ids, bounds and checksums are the rows', in order")
    func ordinals() {
        var random = SeededRandom(seed: 27)
        for _ in 0..<50 {
            let rows = Self.rows(&random)
            let groups = CachedLayout(sections: [], groups: LayoutGroups(rows))
            var next = 0
            for (section, row) in rows.enumerated() {
                let ordinals = groups.ordinals(ofSection: section)
                #expect(ordinals == next..<(next + row.count))
                #expect(Array(groups.ids[ordinals]) == row.map(\.id) && Array(groups.checksums[ordinals]) == row.map(\.framesChecksum))
                #expect(Array(groups.bounds[ordinals]) == row.map(\.bounds))
                next = ordinals.upperBound
            }
            #expect(groups.ids.count == next)
            #expect(groups.ordinals(ofSection: rows.count).isEmpty && groups.ordinals(ofSection: -1).isEmpty)
        }
    }

    @Test("a section's candidates are exactly its groups whose bounds may meet the query, in item order, indexed or not")
    func candidatesEqualFilter() {
        var random = SeededRandom(seed: 31)
        var indexedSections = 0
        for _ in 0..<60 {
            let rows = Self.rows(&random)
            let groups = CachedLayout(sections: [], groups: LayoutGroups(rows))
            for (section, row) in rows.enumerated() {
                if row.count > CachedLayout.indexedAbove { indexedSections += 1 }
                for _ in 0..<20 {
                    let scroll = random.double(0...1) * 12_000 - 500
                    let cross = random.double(0...1) * 400 - 50
                    let query = QueryBounds(minCross: cross, maxCross: cross + random.double(0...1) * 200, minScroll: scroll, maxScroll: scroll + random.double(0...1) * 2_000)
                    var found: [Int] = []
                    groups.forEachCandidate(section: section, ordinals: groups.ordinals(ofSection: section), in: query) { found.append($0) }
                    #expect(found == row.indices.filter { row[$0].bounds.mayIntersect(query) })
                }
            }
        }
        // Both searches ran.
        #expect(indexedSections > 10)
    }

    /// A section of 20,000 items has 80 groups, searched through its
    /// bounds index: the store's answers, read and then from memory, are
    /// brute force's and the engine's, beside sections searched in a line.
    @Test("a section of more than 64 groups answers as brute force does, cold and warm", arguments: TestBackend.all)
    func indexedSectionAnswers(backend: TestBackend) async throws {
        let spec = try Spec(jsonText: #"""
        {"format": 1, "sections": [
          {"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 700, "cycle": [{}]}},
          {"layout": {"kind": "flow", "itemSpacing": 2}, "items": {"count": 20000, "cycle": [{"size": [90, 60]}, {"size": [140, 60]}]}},
          {"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 3, "cycle": [{}]}}
        ]}
        """#)
        let memory = try LayoutEngine().layout(spec, crossExtent: 390)
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(spec, as: "feed", crossExtents: [390])
        var random = SeededRandom(seed: 64)
        for _ in 0..<40 {
            let rect = LayoutStoreRoundTripTests.randomRect(in: memory.contentSize, using: &random)
            for pass in 0..<2 {
                #expect(try await temporary.store.elements(name: "feed", crossExtent: 390, in: rect)
                    == LayoutStoreRoundTripTests.bruteForce(memory.elements, rect), "pass \(pass) rect \(rect)")
                #expect(try await temporary.store.visibleElements(name: "feed", crossExtent: 390, viewport: rect)
                    == memory.visibleElements(viewport: rect), "pass \(pass) viewport \(rect)")
            }
        }
    }
}
