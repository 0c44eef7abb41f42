import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

/// Many small feeds, one per user, board or shop: a batch precompute of
/// `count` feeds of 150–300 items at two widths (feeds/s, beside saving
/// them one by one in the same run), the file's bytes per element, a rerun
/// of the same batch (all unchanged), and viewport queries of a random feed
/// at a random width and offset each.
struct FeedsBenchmark {
    var count: Int
    var directory: String
    /// Queries timed after the batch.
    var queries = 20_000

    static let widths = [390.0, 430.0]

    struct Report: Codable {
        var feeds: Int
        var elements: Int
        var batchSeconds: Double
        var feedsPerSecond: Double
        var elementsPerSecond: Double
        var transactions: Int
        var bytesPerElement: Double
        /// The same feeds saved one by one (one transaction each), on a sample.
        var oneByOneFeeds: Int
        var oneByOneFeedsPerSecond: Double
        var rerunSeconds: Double
        var rerunFeedsPerSecond: Double
        var queries: Int
        var queryP50Microseconds: Double
        var queryP99Microseconds: Double
        /// The same queries a second time: each feed's layout read before.
        var warmQueryP50Microseconds: Double
        var warmQueryP99Microseconds: Double
        var peakResidentBytes: Int
    }

    /// Feed `index`: a pinned header and a grid of 4–12 square shop items,
    /// then a waterfall of photos of varied aspect ratios, as a list (every
    /// item its own); 150–300 items in all.
    static func feed(_ index: Int) -> Spec {
        var random = BenchRandom(seed: UInt64(index) &* 0x2545_F491_4F6C_DD1D &+ 1)
        let total = 150 + Int(random.next() % 151)
        let top = 4 + Int(random.next() % 9)
        let ratios = [0.75, 1.0, 1.25, 1.5, 0.6, 1.33]
        let photos = (0..<(total - top)).map { _ in Item(aspectRatio: ratios[Int(random.next() % UInt64(ratios.count))]) }
        return Spec(name: "feed-\(index)", sectionSpacing: 12, sections: [
            Section(
                id: "top", layout: GridLayout(fraction: 4, itemSpacing: 2, lineSpacing: 2),
                insets: Insets(top: 8, left: 8, bottom: 8, right: 8), header: Supplementary(size: 44, pinned: true),
                items: .cycle(count: top, [Item()])
            ),
            Section(
                id: "photos", layout: StaggeredLayout(columns: 2 + index % 2, itemSpacing: 4, lineSpacing: 4),
                header: Supplementary(size: 44, pinned: true), items: .list(photos)
            ),
        ])
    }

    func run() async throws -> Report {
        let path = "\(directory)/feeds.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }

        // The baseline: a sample saved one spec per call, in a store of its own.
        let oneByOneFeeds = min(count, 2_000)
        let baselinePath = "\(directory)/feeds-one-by-one.sqlite"
        StoreBenchmark.remove(baselinePath)
        let oneByOneSeconds = try await { () async throws -> Double in
            defer { StoreBenchmark.remove(baselinePath) }
            let store = try LayoutStore(path: baselinePath)
            let start = now()
            for index in 0..<oneByOneFeeds { _ = try await store.save(Self.feed(index), crossExtents: Self.widths) }
            return now() - start
        }()

        let store = try LayoutStore(path: path)
        // Made as the batch reads them; the batch takes the sequence over.
        func feeds() -> some Sequence<Spec> { (0..<count).lazy.map(Self.feed) }
        var start = now()
        let report = try await store.saveBatch(feeds(), crossExtents: Self.widths)
        let batchSeconds = now() - start
        guard report.saved == count else { throw CommandError("the batch saved \(report.saved) of \(count) feeds: \(report.failures.first?.error.message ?? "")") }
        start = now()
        let rerun = try await store.saveBatch(feeds(), crossExtents: Self.widths)
        let rerunSeconds = now() - start
        guard rerun.unchanged == count else { throw CommandError("the rerun changed \(count - rerun.unchanged) feeds") }
        // The checkpoint the writes left to the background, before bytes and queries are measured.
        await store.finishBackgroundWork()

        let layouts = try await store.layouts()
        let elements = layouts.reduce(0) { $0 + $1.elementCount }
        let lengths = Dictionary(uniqueKeysWithValues: layouts.map { (LayoutKey(name: $0.specName, width: $0.crossExtent), $0.contentLength) })
        var random = BenchRandom(seed: 7)
        let picks: [(name: String, width: Double, viewport: Rect)] = (0..<queries).map { _ in
            let name = "feed-\(Int(random.next() % UInt64(count)))"
            let width = Self.widths[Int(random.next() % UInt64(Self.widths.count))]
            let length = lengths[LayoutKey(name: name, width: width)] ?? 0
            return (name, width, Rect(x: 0, y: random.unit() * max(0, length - 844), width: width, height: 844))
        }
        func timed() async throws -> Samples {
            var samples = Samples()
            for pick in picks {
                let started = now()
                _ = try await store.visibleElements(name: pick.name, crossExtent: pick.width, viewport: pick.viewport, computeIfMissing: false)
                samples.add(now() - started)
            }
            return samples
        }
        let samples = try await timed()
        let warm = try await timed()
        return Report(
            feeds: count,
            elements: elements,
            batchSeconds: batchSeconds,
            feedsPerSecond: Double(count) / batchSeconds,
            elementsPerSecond: Double(elements) / batchSeconds,
            transactions: report.transactions,
            bytesPerElement: Double(await store.fileBytes) / Double(max(elements, 1)),
            oneByOneFeeds: oneByOneFeeds,
            oneByOneFeedsPerSecond: Double(oneByOneFeeds) / oneByOneSeconds,
            rerunSeconds: rerunSeconds,
            rerunFeedsPerSecond: Double(count) / rerunSeconds,
            queries: queries,
            queryP50Microseconds: samples.median * 1e6,
            queryP99Microseconds: samples.percentile(0.99) * 1e6,
            warmQueryP50Microseconds: warm.median * 1e6,
            warmQueryP99Microseconds: warm.percentile(0.99) * 1e6,
            peakResidentBytes: ProcessMemory.peakResidentBytes ?? 0
        )
    }

    private struct LayoutKey: Hashable {
        var name: String
        var width: Double
    }
}
