import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraSQLite

@Suite("store: round trip against the engine")
struct LayoutStoreRoundTripTests {
    /// Readers answer from a cached directory of groups, or through the
    /// on-disk R*Tree when the layout is too large to cache (limit 0 here).
    static let cases: [(seed: UInt64, cacheLimit: Int)] =
        (UInt64(1)...50).map { ($0, LayoutStore.defaultCacheBudget) } + (UInt64(51)...80).map { ($0, 0) }

    @Test("stored layouts answer every query exactly like the in-memory layout, cached and through the R*Tree", arguments: TestBackend.all, cases)
    func roundTrip(backend: TestBackend, testCase: (seed: UInt64, cacheLimit: Int)) async throws {
        let (seed, cacheLimit) = testCase
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 5, maxItems: 400)
        let spec = try Spec(jsonText: json)
        let memory = try LayoutEngine().layout(spec, crossExtent: extent)
        let temporary = try await TemporaryStore(backend, cacheBudget: cacheLimit)
        let store = temporary.store
        try await store.save(spec, as: "random", crossExtents: [extent])

        #expect(try await store.contentSize(name: "random", crossExtent: extent) == memory.contentSize)
        let everything = Rect(x: -1e6, y: -1e6, width: 4e6, height: 4e6)
        #expect(try await store.elements(name: "random", crossExtent: extent, in: everything) == memory.elements, "seed \(seed)")

        var random = SeededRandom(seed: seed &* 7919)
        let size = memory.contentSize
        let all = memory.elements
        for query in 0..<30 {
            var rect = Self.randomRect(in: size, using: &random)
            if query % 2 == 0, let element = all.randomElement(using: &random) {
                // A rect that only touches one of an element's edges: that element does not match.
                let frame = element.frame
                switch query / 2 % 4 {
                case 0: rect = Rect(x: frame.maxX, y: frame.minY, width: 5, height: frame.height)
                case 1: rect = Rect(x: frame.minX - 5, y: frame.minY, width: 5, height: frame.height)
                case 2: rect = Rect(x: frame.minX, y: frame.maxY, width: frame.width, height: 5)
                default: rect = Rect(x: frame.minX, y: frame.minY - 5, width: frame.width, height: 5)
                }
                #expect(try await !store.elements(name: "random", crossExtent: extent, in: rect).contains(element), "seed \(seed) rect \(rect)")
            }
            let hits = try await store.elements(name: "random", crossExtent: extent, in: rect)
            #expect(hits == Self.bruteForce(all, rect), "seed \(seed) rect \(rect)")
            #expect(hits == memory.elements(in: rect), "seed \(seed) rect \(rect)")
            #expect(try await store.visibleElements(name: "random", crossExtent: extent, viewport: rect) == memory.visibleElements(viewport: rect),
                    "seed \(seed) viewport \(rect)")
        }
        for (index, section) in memory.sections.enumerated() where section.itemCount > 0 {
            for item in [0, section.itemCount / 2, section.itemCount - 1] {
                #expect(try await store.element(name: "random", crossExtent: extent, section: index, item: item)
                    == memory.element(section: index, item: item))
            }
            #expect(try await store.element(name: "random", crossExtent: extent, section: index, item: section.itemCount) == nil)
        }
    }

    /// A rect of up to 500 × 900 points (in quarters) around content of `size`.
    static func randomRect(in size: Size, using random: inout SeededRandom) -> Rect {
        Rect(
            x: random.quarter(-50...(size.width + 50)), y: random.quarter(-50...(size.height + 50)),
            width: random.quarter(0...500), height: random.quarter(0...900)
        )
    }

    /// The contract's rule, element by element: open interiors overlap.
    static func bruteForce(_ elements: [LayoutElement], _ rect: Rect) -> [LayoutElement] {
        elements.filter { element in
            let e = element.frame
            return e.minX < rect.maxX && rect.minX < e.maxX && e.minY < rect.maxY && rect.minY < e.maxY
        }
    }

    @Test("a layout far down the scroll axis keeps exact frames (R*Tree floats are only an index)", arguments: TestBackend.all, [LayoutStore.defaultCacheBudget, 0])
    func exactFarFrames(backend: TestBackend, cacheLimit: Int) async throws {
        let spec = try Spec(jsonText: """
        {"format": 1, "sections": [{"layout": {"kind": "flow"}, "insets": {"top": 48000000.3}, "items": [{"size": [100.1, 0.7]}, {"size": [100.1, 0.7]}]}]}
        """)
        let memory = try LayoutEngine().layout(spec, crossExtent: 390)
        let temporary = try await TemporaryStore(backend, cacheBudget: cacheLimit)
        try await temporary.store.save(spec, as: "far", crossExtents: [390])
        let rect = Rect(x: 100.1, y: 48000000.3, width: 1, height: 0.5)
        // The second cell starts exactly at x = 100.1: the first one only touches the rect.
        let stored = try await temporary.store.elements(name: "far", crossExtent: 390, in: rect)
        #expect(stored == memory.elements(in: rect))
        #expect(stored.map(\.item) == [1])
        #expect(stored.first?.frame == Rect(x: 100.1, y: 48000000.3, width: 100.1, height: 0.7))
    }
}
