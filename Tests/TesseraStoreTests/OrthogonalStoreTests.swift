import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraTiles

/// Orthogonal sections (carousels) in a store: stored like other sections
/// with their content length, found through the cached directory and
/// through the backend's spatial index when they lie past the cross
/// extent, scrolled by offsets at query time, and appended to as a full
/// recompute would lay them out.
@Suite("store: orthogonal sections")
struct OrthogonalStoreTests {
    static let cases: [(seed: UInt64, cacheLimit: Int)] =
        (UInt64(1)...16).map { ($0, LayoutStore.defaultCacheBudget) } + (UInt64(17)...30).map { ($0, 0) }

    @Test("queries with offsets, both directions, answer as the in-memory layout and a brute-force filter, cached and through the index",
          arguments: TestBackend.all, cases)
    func queries(backend: TestBackend, testCase: (seed: UInt64, cacheLimit: Int)) async throws {
        let (seed, cacheLimit) = testCase
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        generator.carouselChance = 0.6
        let (json, extent) = generator.spec(sections: 1...5, items: 1...300, axis: seed % 2 == 0 ? .vertical : .horizontal)
        let spec = try Spec(jsonText: json)
        let memory = try LayoutEngine().layout(spec, crossExtent: extent)
        let temporary = try await TemporaryStore(backend, cacheBudget: cacheLimit)
        let store = temporary.store
        try await store.save(spec, as: "carousels", crossExtents: [extent])
        let all = memory.elements
        let size = memory.contentSize
        var random = SeededRandom(seed: seed &* 6151)
        for round in 0..<20 {
            let (given, rect) = random.carouselQuery(sectionCount: spec.sections.count, size: size, offsets: -200...900, across: 900)
            let offsets = OrthogonalOffsets(given)
            let direction: LayoutDirection = round % 2 == 0 ? .leftToRight : .rightToLeft
            let answer = try await store.answer(.rect(rect), name: "carousels", crossExtent: extent, direction: direction, offsets: offsets)
            let expected = ContractReading.answer(all, spec: spec, rect: rect, offsets: given, direction: direction, contentSize: size)
            #expect(answer.elements == expected, "seed \(seed) rect \(rect) offsets \(given)\n\(json)")
            #expect(answer.elements == memory.elements(in: rect, direction: direction, offsets: offsets))
            #expect(answer.orthogonal == memory.orthogonalContent(of: answer.elements), "seed \(seed)")
            let visible = try await store.answer(.viewport(rect), name: "carousels", crossExtent: extent, direction: direction, offsets: offsets)
            #expect(visible.elements == memory.visibleElements(viewport: rect, direction: direction, offsets: offsets), "seed \(seed) viewport \(rect)")
        }
        for (index, section) in memory.sections.enumerated() where section.itemCount > 0 {
            let offsets = OrthogonalOffsets([index: 37.5])
            for item in [0, section.itemCount - 1] {
                let answer = try await store.answer(.item(section: index, item: item), name: "carousels", crossExtent: extent, direction: .rightToLeft, offsets: offsets)
                #expect(answer.elements == [memory.element(section: index, item: item, direction: .rightToLeft, offsets: offsets)].compactMap { $0 })
                #expect(answer.orthogonal == memory.orthogonalContent(of: answer.elements))
            }
        }
    }

    @Test("a carousel far past the cross extent is found through the spatial index at its offset", arguments: TestBackend.all)
    func farCells(backend: TestBackend) async throws {
        let spec = try Spec(jsonText: """
        {"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{"size": [100, 50]}]},
          {"layout": {"kind": "grid", "aspectRatio": 1}, "orthogonal": {"length": 100}, "items": {"count": 3000, "cycle": [{}]}}]}
        """)
        let temporary = try await TemporaryStore(backend, cacheBudget: 0)
        let store = temporary.store
        try await store.save(spec, as: "wide", crossExtents: [390])
        // Items are 100 square, side by side from x = 0: item 2500 starts at 250000.
        let answer = try await store.answer(.rect(Rect(x: 0, y: 60, width: 390, height: 10)), name: "wide", crossExtent: 390, offsets: OrthogonalOffsets([1: 250_000]))
        #expect(answer.elements.map(\.item) == [2500, 2501, 2502, 2503])
        #expect(answer.elements.first?.frame == Rect(x: 0, y: 50, width: 100, height: 100))
        #expect(answer.orthogonal == [OrthogonalContent(section: 1, contentLength: 300_000)])
        let none = try await store.answer(.rect(Rect(x: 0, y: 0, width: 390, height: 40)), name: "wide", crossExtent: 390, offsets: OrthogonalOffsets([1: 250_000]))
        #expect(none.orthogonal == [] && none.elements.map(\.section) == [0])
    }

    @Test("appends to carousels resume and equal a full recompute", arguments: TestBackend.all, Array(UInt64(1)...12))
    func appends(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        generator.carouselChance = 1
        let (json, extent) = generator.spec(sections: 1...3, items: 1...120)
        var spec = try Spec(jsonText: json)
        let extents = [extent, extent + 97.5]
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: extents)
        var random = SeededRandom(seed: seed &* 409)
        for step in 0..<4 {
            let section = random.int(0...(spec.sections.count - 1))
            let items = IncrementalUpdateTests.itemsToAppend(spec.sections[section].items, count: random.int(1...90), random: &random)
            spec.sections[section].items = spec.sections[section].items.appending(items)
            let report = try await store.append(name: "feed", section: section, items: items)
            #expect(report.layouts.allSatisfy { $0.resumed == 1 && $0.recomputed == 0 }, "seed \(seed) step \(step)")
            try await IncrementalUpdateTests.expectMatchesFullRecompute(store, name: "feed", extents: extents, expected: spec, seed: seed, step: "append step \(step)")
            for extent in extents {
                let memory = try LayoutEngine().layout(spec, crossExtent: extent)
                let everything = Rect(x: -1e7, y: -1e7, width: 4e7, height: 4e7)
                let answer = try await store.answer(.rect(everything), name: "feed", crossExtent: extent)
                #expect(answer.orthogonal == memory.orthogonalContent(of: memory.elements), "seed \(seed) step \(step)")
            }
        }
    }

    @Test("breakpoints inside a carousel resolve at the feed's width on every path: save, append, resize, tiles", arguments: TestBackend.all)
    func breakpointsAtContainerExtent(backend: TestBackend) async throws {
        // 1 row of cards below 600 points, 2 from 600, 4 from 1000; the carousel's length stays 240.
        func spec(items: [String]) throws -> Spec {
            try Spec(jsonText: """
                {"format": 1, "sections": [
                  {"layout": {"kind": "flow", "itemSize": [100, 40]}, "items": [{}]},
                  {"orthogonal": {"length": 240}, "header": {"size": 20},
                   "layout": {"kind": "staggered", "columns": 1, "itemSpacing": 4, "breakpoints": [{"minExtent": 600, "columns": 2}, {"minExtent": 1000, "columns": 4}]},
                   "items": [\(items.joined(separator: ", "))]},
                  {"layout": {"kind": "flow", "itemSize": [100, 40]}, "items": [{}]}]}
                """)
        }
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        var items = (0..<9).map { "{\"length\": \(80 + $0 * 7)}" }
        let extents: [Double] = [390, 700, 1200]
        try await store.save(try spec(items: items), as: "shelf", crossExtents: extents)
        func expectEqual(_ stage: String) async throws {
            let current = try spec(items: items)
            for extent in extents {
                let memory = try LayoutEngine().layout(current, crossExtent: extent)
                let everything = Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)
                #expect(try await store.elements(name: "shelf", crossExtent: extent, in: everything) == memory.elements(in: everything), "\(stage) at \(extent)")
                guard case .found(let manifest, _) = try await store.tileManifest(name: "shelf", crossExtent: extent) else {
                    Issue.record("\(stage): no tiles at \(extent)")
                    continue
                }
                var tiled: [LayoutElement] = []
                for index in 0..<manifest.tileCount {
                    guard case .found(let tile, _) = try await store.tile(name: "shelf", crossExtent: extent, revision: manifest.revision, index: index) else { continue }
                    tiled += tile.elements.filter { !tiled.contains($0) }
                }
                #expect(Set(tiled.map(\.frame)) == Set(memory.elements.map(\.frame)), "\(stage) tiles at \(extent)")
            }
            // The rows differ by width: 1 at 390, 2 at 700, 4 at 1200 (each card's height across the 240-point carousel).
            let heights = try extents.map { extent in
                try #require(try LayoutEngine().layout(current, crossExtent: extent).element(section: 1, item: 0)).frame.height
            }
            #expect(heights == [240, 118, 57], "\(stage)")
        }
        try await expectEqual("saved")
        let appended = (0..<5).map { "{\"length\": \(60 + $0 * 3)}" }
        try await store.append(name: "shelf", section: 1, items: try appended.map { try Item(json: JSONParser.parse($0), path: .root) })
        items += appended
        try await expectEqual("appended")
        try await store.resize(name: "shelf", section: 1, changes: [ItemChange(item: 2, fields: [.length: .number(150)])])
        items[2] = #"{"length": 150}"#
        try await expectEqual("resized")
    }
}
