import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraSQLite
@testable import TesseraStoreFormat

/// Verified frames in the store's cache, held in the slots of cached
/// directories (`CachedLayout.slots`): cached on first use, and warm answers under
/// a budget too small for a layout's frames.
@Suite("store: cached frames")
struct FrameCacheTests {
    /// Verified frames of `count` cells in a column, 100 points apart from `start`.
    static func frames(start: Double, count: Int = 250) throws -> CachedFrames {
        let cells = (0..<count).map { LocalFrame(cross: 0, scroll: start + Double($0) * 100, crossLength: 50, scrollLength: 90) }
        let bytes = FrameBlob.encode(cells[...])
        return try bytes.withUnsafeBytes { raw in try CachedFrames.verified(raw, checksum: Checksum.of(raw)).get() }
    }

    /// A feed's first query reads its groups and caches them, each once;
    /// the next ones find them all in memory.
    @Test("a store caches a group's frames on its first use, and answers alike each time", arguments: TestBackend.all)
    func firstUseCaches(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try Spec(jsonText: """
        {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2},
          "items": {"count": 5000, "cycle": [{"aspectRatio": 1}, {"aspectRatio": 0.5}]}}]}
        """)
        try await store.save(spec, as: "feed", crossExtents: [390])
        let engine = try LayoutEngine().layout(spec, crossExtent: 390)
        let viewport = Rect(x: 0, y: 20_000, width: 390, height: 844)
        let before = store.cacheStatistics
        var misses: [Int] = []
        var residents: [Int] = []
        for pass in 0..<3 {
            #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport) == engine.visibleElements(viewport: viewport), "pass \(pass)")
            let statistics = store.cacheStatistics
            misses.append(statistics.frameMisses - before.frameMisses)
            residents.append(statistics.frameGroups)
        }
        // The viewport meets at least one group; each pass asks for the same ones.
        let candidates = misses[0]
        #expect(candidates > 0 && before.frameGroups == 0)
        #expect(residents == [candidates, candidates, candidates], "\(residents)")
        #expect(misses == [candidates, candidates, candidates], "\(misses)")
        #expect(store.cacheStatistics.frameHits - before.frameHits == 2 * candidates)
    }

    @Test("the address a query prefetches from a slot is its frames' object, and none for an empty slot")
    func prefetchedAddress() throws {
        let frames = try Self.frames(start: 0)
        let slots: [CachedFrames?] = [frames, nil]
        let addresses = slots.withUnsafeBytes { raw in
            (0..<2).map { (raw.baseAddress! + $0 * MemoryLayout<CachedFrames?>.stride).load(as: UnsafeRawPointer?.self) }
        }
        #expect(addresses == [UnsafeRawPointer(Unmanaged.passUnretained(frames).toOpaque()), nil])
        // The lines asked for hold the object's header (16 bytes, then
        // ``CachedFrames/Header``) and a 250-frame group's 16 leaves.
        let leaves = (250 + CachedFrames.leafSize - 1) / CachedFrames.leafSize
        let bytes = 16 + MemoryLayout<CachedFrames.Header>.stride + leaves * MemoryLayout<QueryBounds>.stride
        #expect(bytes <= CachedFrames.prefetchedLines * 64, "\(bytes) bytes")
    }

    /// Random layouts of many groups under a budget of a few groups' frames:
    /// every answer, the first and the second of each viewport, equals a
    /// fresh store's and the engine's, while the cache evicts and stays
    /// within its budget.
    @Test("warm answers under a tiny frame budget equal a fresh store's and the engine's", arguments: UInt64(1)...6)
    func tinyBudget(seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed &* 977, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 4, maxItems: 3000)
        let spec = try Spec(jsonText: json)
        let memory = try LayoutEngine().layout(spec, crossExtent: extent)
        let temporary = try await TemporaryStore(.sqlite)
        try await temporary.store.save(spec, as: "random", crossExtents: [extent])
        let budget = 8_000 + 12_000
        let store = try LayoutStore(path: temporary.store.location, cacheBudget: 8_000, frameCacheBudget: 12_000)
        var random = SeededRandom(seed: seed)
        for query in 0..<40 {
            let rect = LayoutStoreRoundTripTests.randomRect(in: memory.contentSize, using: &random)
            let fresh = try LayoutStore(path: temporary.store.location)
            let expected = try await fresh.visibleElements(name: "random", crossExtent: extent, viewport: rect)
            #expect(expected == memory.visibleElements(viewport: rect), "seed \(seed) query \(query)")
            for pass in 0..<2 {
                #expect(try await store.visibleElements(name: "random", crossExtent: extent, viewport: rect) == expected, "seed \(seed) query \(query) pass \(pass)")
                #expect(try await store.elements(name: "random", crossExtent: extent, in: rect)
                    == LayoutStoreRoundTripTests.bruteForce(memory.elements, rect), "seed \(seed) query \(query) pass \(pass)")
            }
            fresh.close()
            #expect(store.cacheStatistics.bytes <= budget && store.cacheStatistics.budget == budget)
        }
        let statistics = store.cacheStatistics
        if memory.elements.count > 2000 { #expect(statistics.evictions > 0, "seed \(seed): \(statistics)") }
        #expect(statistics.frameHits > 0)
    }

    /// Commits by the same handle between two queries (a new version, an
    /// append): the next query answers the new layout, then from memory again.
    @Test("a commit by the same handle between two queries is seen by the next", arguments: [TestBackend.sqlite, .memory])
    func commitBetweenQueries(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        func spec(_ count: Int, _ aspect: Double) throws -> Spec {
            try Spec(jsonText: """
            {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2},
              "header": {"size": 44, "pinned": true}, "items": {"count": \(count), "cycle": [{"aspectRatio": \(aspect)}, {}]}}]}
            """)
        }
        let viewport = Rect(x: 0, y: 3000, width: 390, height: 844)
        for (count, aspect) in [(2000, 1.0), (2600, 0.75), (1500, 1.5), (2000, 1.0)] {
            let version = try spec(count, aspect)
            try await store.save(version, as: "feed", crossExtents: [390])
            let engine = try LayoutEngine().layout(version, crossExtent: 390)
            for pass in 0..<3 {
                #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
                    == engine.visibleElements(viewport: viewport), "\(count) items, aspect \(aspect), pass \(pass)")
            }
        }
    }
}

extension CachedLayout {
    /// ``frames(base:positions:into:)`` into an array, one element per position.
    func frames(base: Int, positions: [Int], into found: inout [CachedFrames?]) -> Int {
        found = Array(repeating: nil, count: positions.count)
        return positions.withUnsafeBufferPointer { positions in
            found.withUnsafeMutableBufferPointer { frames(base: base, positions: positions, into: $0) }
        }
    }

    /// Whether slot `ordinal` holds frames.
    func isFilled(_ ordinal: Int) -> Bool {
        slots.withLock { ordinal < $0.count && $0[ordinal] != nil }
    }

    /// The bytes of the frames the slots hold.
    var framesBytes: Int {
        slots.withLock { $0.reduce(0) { $0 + ($1?.byteCount ?? 0) } }
    }
}
