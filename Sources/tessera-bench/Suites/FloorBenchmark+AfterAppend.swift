import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

extension FloorBenchmark {
    /// The first pass over a feed's viewports after an append to its last
    /// section, once the new revision's directory is cached, beside the
    /// same pass warm before the append: what a feed appended to often
    /// (a photo feed) costs its readers at each append.
    struct AfterAppend: Codable {
        var feedItems: Int
        var viewports: Int
        var appendedItems: Int
        var firstPassP50Microseconds: Double
        var firstPassP99Microseconds: Double
        var warmP50Microseconds: Double
        var warmP99Microseconds: Double
    }

    /// Viewports of a pass: about one per cell group of a 1M feed.
    static let afterAppendViewports = 4_000
    static let afterAppendItems = 10

    /// A `count`-item feed at one width; each run: a pass of its viewports
    /// untimed (every group read), a pass timed (the baseline), an append
    /// of `afterAppendItems` items to its last section, a query that makes
    /// the store load the new revision's directory (in the background for a
    /// feed this large; waited for), then the same pass timed.
    func afterAppendFigures() async throws -> AfterAppend {
        let path = directory + "/tessera-bench-floor-after-append.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let spec = try StoreBenchmark.spec(count: count)
        let last = spec.sections.count - 1
        let store = try LayoutStore(path: path)
        defer { store.close() }
        try await store.save(spec, crossExtents: [BenchSpecs.width])
        await store.finishBackgroundWork()
        let length = try await store.layout(name: "bench", crossExtent: BenchSpecs.width).layout.contentLength
        var random = BenchRandom(seed: 29)
        let viewports = (0..<Self.afterAppendViewports).map { _ in
            Rect(x: 0, y: random.unit() * max(0, length - 844), width: BenchSpecs.width, height: 844)
        }
        let appended = [Item](repeating: Item(), count: Self.afterAppendItems)
        var first = Samples()
        var warm = Samples()
        var found = 0
        for _ in 0..<runs {
            for pass in 0..<2 {
                for rect in viewports {
                    let start = now()
                    found &+= try await store.visibleElements(name: "bench", crossExtent: BenchSpecs.width, viewport: rect).count
                    if pass == 1 { warm.add(now() - start) }
                }
            }
            let cached = store.cacheStatistics.layouts
            try await store.append(name: "bench", section: last, items: appended)
            // The new revision's directory, loaded and cached before the pass.
            var waited = 0
            while store.cacheStatistics.layouts <= cached {
                guard waited < 10_000 else { throw CommandError("the feed's directory was not cached 10 s after an append") }
                found &+= try await store.visibleElements(name: "bench", crossExtent: BenchSpecs.width, viewport: viewports[0]).count
                try await Task.sleep(for: .milliseconds(1))
                waited += 1
            }
            for rect in viewports {
                let start = now()
                found &+= try await store.visibleElements(name: "bench", crossExtent: BenchSpecs.width, viewport: rect).count
                first.add(now() - start)
            }
        }
        if found == -1 { print(found) }
        return AfterAppend(
            feedItems: count, viewports: viewports.count, appendedItems: appended.count,
            firstPassP50Microseconds: first.percentile(0.5) * 1e6, firstPassP99Microseconds: first.percentile(0.99) * 1e6,
            warmP50Microseconds: warm.percentile(0.5) * 1e6, warmP99Microseconds: warm.percentile(0.99) * 1e6
        )
    }
}
