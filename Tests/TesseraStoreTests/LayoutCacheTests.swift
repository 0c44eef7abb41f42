import Dispatch
import Foundation
import Testing
import TesseraLayout
@testable import TesseraStore

@Suite("store: layout directories in the cache")
struct LayoutCacheTests {
    static func grid(_ count: Int, fraction: Int = 4) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": \#(fraction)}, "items": {"count": \#(count), "cycle": [{}]}}, {"layout": {"kind": "grid", "fraction": 2}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
    }

    static let viewport = Rect(x: 0, y: 5_000, width: 400, height: 844)

    @Test("many layouts in rotation stay within the budget, least recently used dropped first, and answer exactly", arguments: TestBackend.all)
    func budget(backend: TestBackend) async throws {
        // One directory's bytes, measured on a store of its own.
        let probe = try await TemporaryStore(backend, frameCacheBudget: 0)
        try await probe.store.save(Self.grid(2_000), as: "feed", crossExtents: [300])
        _ = try await probe.store.visibleElements(name: "feed", crossExtent: 300, viewport: Self.viewport)
        let oneDirectory = probe.store.cacheStatistics.bytes
        #expect(oneDirectory > 0)
        // Room for three of them.
        let temporary = try await TemporaryStore(backend, cacheBudget: 3 * oneDirectory + oneDirectory / 2, frameCacheBudget: 0)
        let store = temporary.store
        var expected: [Double: [LayoutElement]] = [:]
        let widths: [Double] = [300, 320, 340, 360, 380, 400, 420, 440]
        try await store.save(Self.grid(2_000), as: "feed", crossExtents: widths)
        for width in widths {
            expected[width] = try LayoutEngine().layout(Self.grid(2_000), crossExtent: width).visibleElements(viewport: Self.viewport)
        }
        for round in 0..<3 {
            for width in widths {
                #expect(try await store.visibleElements(name: "feed", crossExtent: width, viewport: Self.viewport) == expected[width], "round \(round)")
                let statistics = store.cacheStatistics
                #expect(statistics.bytes <= statistics.budget)
            }
        }
        let statistics = store.cacheStatistics
        #expect(statistics.evictions > 0)
        // Three probes' worth at least; a fourth when the directories came out
        // smaller than the probe's (their arrays' capacities depend on how the
        // backend's read went: PostgreSQL retries a cold read in another way
        // when a statement is refused, which a loaded machine makes happen).
        #expect((3...4).contains(statistics.layouts), "\(statistics)")
        #expect(statistics.layouts < widths.count)
        #expect(statistics.hits + statistics.misses == 24)
    }

    @Test("a large layout's first query goes through the index while its directory loads; later queries hit the cache", arguments: TestBackend.all)
    func firstQuery(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(20_000), as: "feed", crossExtents: [400])
        let memory = try LayoutEngine().layout(Self.grid(20_000), crossExtent: 400)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 400, viewport: Self.viewport) == memory.visibleElements(viewport: Self.viewport))
        #expect(store.cacheStatistics.misses == 1)
        // The directory arrives in the background.
        let deadline = DispatchTime.now().uptimeNanoseconds + 30_000_000_000
        while store.cacheStatistics.layouts == 0, DispatchTime.now().uptimeNanoseconds < deadline { usleep(1_000) }
        #expect(store.cacheStatistics.layouts == 1)
        for offset in stride(from: 0.0, to: 100_000, by: 9_000) {
            let rect = Rect(x: 0, y: offset, width: 400, height: 844)
            #expect(try await store.visibleElements(name: "feed", crossExtent: 400, viewport: rect) == memory.visibleElements(viewport: rect))
        }
        #expect(store.cacheStatistics.hits == 12)
    }

    @Test("readers on every thread share one entry; a changed layout is a new entry", arguments: TestBackend.all)
    func shared(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(100), as: "feed", crossExtents: [400])
        _ = try await store.visibleElements(name: "feed", crossExtent: 400, viewport: Self.viewport)
        #expect(store.cacheStatistics.misses == 1)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<25 { _ = try? await store.visibleElements(name: "feed", crossExtent: 400, viewport: Self.viewport) }
                }
            }
        }
        #expect(store.cacheStatistics.misses == 1)
        #expect(store.cacheStatistics.hits == 200)
        try await store.append(name: "feed", section: 1, items: [Item()])
        let everything = Rect(x: 0, y: 0, width: 400, height: 1e6)
        #expect(try await store.elements(name: "feed", crossExtent: 400, in: everything).count == 201)
        #expect(store.cacheStatistics.misses == 2)
    }
}
