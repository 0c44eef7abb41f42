import Foundation
import SQLiteToolkit
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// The first query of a feed a process has not read before, the common
/// case of a server with many users: `count` small feeds (150–300 items at
/// two widths, as in the feeds suite) stored in a batch; then a store
/// object opened anew (no resolved name, directory, verified blob or page
/// of SQLite's cache of its own) queries one viewport of each feed, in a
/// random order, at a random width and offset; then the same viewports
/// again (each layout read before), beside them in the same run. The same
/// queries of a copy of the store whose layout rows lack their directory
/// summaries (as a store written before schema version 9) are the
/// baseline: each first query reads the directory's rows.
struct FirstQueryBenchmark {
    var count: Int
    var directory: String
    /// First queries timed: one per feed, at most this many.
    var queries = 20_000

    struct Report: Codable {
        var feeds: Int
        var queries: Int
        /// Opening the store object the queries then go through.
        var openMilliseconds: Double
        var firstQueryP50Microseconds: Double
        var firstQueryP99Microseconds: Double
        /// The same viewports again, through the same store object.
        var warmQueryP50Microseconds: Double
        var warmQueryP99Microseconds: Double
        /// The first queries of the copy without summaries.
        var rowsFirstQueryP50Microseconds: Double
        var rowsFirstQueryP99Microseconds: Double
        var rowsWarmQueryP50Microseconds: Double
        var rowsWarmQueryP99Microseconds: Double
    }

    func run() async throws -> Report {
        let path = "\(directory)/tessera-bench-first.sqlite"
        let rowsPath = "\(directory)/tessera-bench-first-rows.sqlite"
        StoreBenchmark.remove(path)
        StoreBenchmark.remove(rowsPath)
        defer {
            StoreBenchmark.remove(path)
            StoreBenchmark.remove(rowsPath)
        }
        let writer = try LayoutStore(path: path)
        let saved = try await writer.saveBatch((0..<count).lazy.map(FeedsBenchmark.feed), crossExtents: FeedsBenchmark.widths)
        guard saved.saved == count else { throw CommandError("the batch saved \(saved.saved) of \(count) feeds") }
        var lengths: [String: Double] = [:]
        for layout in try await writer.layouts() { lengths["\(layout.specName)@\(layout.crossExtent)"] = layout.contentLength }
        writer.close()
        try FileManager.default.copyItem(atPath: path, toPath: rowsPath)
        do {
            let connection = try Connection(path: rowsPath)
            try connection.execute("UPDATE layouts SET directory_summary = NULL")
            connection.close()
        }

        // Distinct feeds in a random order, each at a random width and offset.
        var random = BenchRandom(seed: 27)
        var order = Array(0..<count)
        for index in order.indices.reversed() where index > 0 { order.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        let picks: [(name: String, width: Double, viewport: Rect)] = order.prefix(queries).map { feed in
            let name = "feed-\(feed)"
            let width = FeedsBenchmark.widths[Int(random.next() % UInt64(FeedsBenchmark.widths.count))]
            let length = lengths["\(name)@\(width)"] ?? 0
            return (name, width, Rect(x: 0, y: random.unit() * max(0, length - 844), width: width, height: 844))
        }

        func measure(_ path: String) throws -> (open: Double, first: Samples, warm: Samples) {
            let opened = now()
            let store = try LayoutStore(path: path)
            let openSeconds = now() - opened
            defer { store.close() }
            func timed() throws -> Samples {
                var samples = Samples()
                try synchronously {
                    for pick in picks {
                        let started = now()
                        _ = try store.visibleElements(name: pick.name, crossExtent: pick.width, viewport: pick.viewport, computeIfMissing: false)
                        samples.add(now() - started)
                    }
                }
                return samples
            }
            let first = try timed()
            return (openSeconds, first, try timed())
        }
        let rows = try measure(rowsPath)
        let (openSeconds, first, warm) = try measure(path)
        return Report(
            feeds: count, queries: picks.count, openMilliseconds: openSeconds * 1000,
            firstQueryP50Microseconds: first.median * 1e6, firstQueryP99Microseconds: first.percentile(0.99) * 1e6,
            warmQueryP50Microseconds: warm.median * 1e6, warmQueryP99Microseconds: warm.percentile(0.99) * 1e6,
            rowsFirstQueryP50Microseconds: rows.first.median * 1e6, rowsFirstQueryP99Microseconds: rows.first.percentile(0.99) * 1e6,
            rowsWarmQueryP50Microseconds: rows.warm.median * 1e6, rowsWarmQueryP99Microseconds: rows.warm.percentile(0.99) * 1e6
        )
    }
}

extension BenchTable {
    static func firstQuery(_ report: FirstQueryBenchmark.Report) -> String {
        func pair(_ p50: Double, _ p99: Double) -> String { String(format: "%.1f / %.1f µs", p50, p99) }
        let rows = [
            ["measure (p50 / p99)", "directory summaries", "baseline (same run): directory rows"],
            ["first query of a feed not read before", pair(report.firstQueryP50Microseconds, report.firstQueryP99Microseconds),
             pair(report.rowsFirstQueryP50Microseconds, report.rowsFirstQueryP99Microseconds)],
            ["the same viewports again (warm)", pair(report.warmQueryP50Microseconds, report.warmQueryP99Microseconds),
             pair(report.rowsWarmQueryP50Microseconds, report.rowsWarmQueryP99Microseconds)],
            ["opening the store object", String(format: "%.2f ms", report.openMilliseconds), ""],
        ]
        return "First queries: \(report.queries) feeds of \(report.feeds) (150–300 items at widths 390 and 430), "
            + "each queried once through a store object opened anew, then again\n" + format(rows)
    }
}
