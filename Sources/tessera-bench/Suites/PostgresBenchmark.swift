#if PostgreSQL
import Foundation
import TesseraLayout
@_spi(Testing) import TesseraPostgres
import TesseraSQLite
import TesseraStore

/// Measures the PostgreSQL backend against a server (`--postgres URL`):
/// precompute + persist, bytes on the server, warm viewport queries from one
/// client and from 16 concurrent clients, and the same precompute and
/// queries on the SQLite backend in the same run. The per-element GiST
/// baseline runs in SQL beside it (Scripts/pg-baseline.sh, from
/// Scripts/bench-postgres.sh).
struct PostgresBenchmark {
    var count: Int
    var runs: Int
    var url: String
    var directory: String
    /// Seconds of the 16-client load.
    var loadSeconds: Double = 10

    struct Report: Codable {
        var elements: Int
        var precomputeSeconds: Double
        var bytes: Int
        var bytesPerElement: Double
        var viewportP50Microseconds: Double
        var viewportP99Microseconds: Double
        /// The same queries with the frame cache off: every query fetches its frames.
        var uncachedViewportP50Microseconds: Double
        var uncachedViewportP99Microseconds: Double
        /// With `freshness=notified`: warm queries send nothing.
        var notifiedViewportP50Microseconds: Double
        var notifiedViewportP99Microseconds: Double
        var notifiedConcurrentQueriesPerSecond: Double
        /// From a commit's return in one process to another process's reader
        /// (notified) answering from it.
        var notificationDelayP50Microseconds: Double
        var notificationDelayP99Microseconds: Double
        var clients: Int
        var concurrentQueriesPerSecond: Double
        var sqlitePrecomputeSeconds: Double
        var sqliteViewportP50Microseconds: Double
        var sqliteViewportP99Microseconds: Double
    }

    static let clients = 16

    func run() async throws -> Report {
        let spec = try StoreBenchmark.spec(count: count)
        let width = BenchSpecs.width
        var precompute = Samples()
        let schema = "tessera_bench_\(getpid())"
        let storeURL = url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
        for _ in 0..<runs {
            let store = try await LayoutStore(url: storeURL, maximumReaders: Self.clients)
            try await store.executePostgres("DROP SCHEMA \(schema) CASCADE")
            let fresh = try await LayoutStore(url: storeURL, maximumReaders: Self.clients)
            let start = now()
            try await fresh.save(spec, as: "bench", crossExtents: [width])
            precompute.add(now() - start)
        }
        let store = try await LayoutStore(url: storeURL, maximumReaders: Self.clients)
        do {
            let report = try await measure(store, storeURL: storeURL, precompute: precompute, spec: spec)
            try await store.executePostgres("DROP SCHEMA \(schema) CASCADE")
            return report
        } catch {
            try? await store.executePostgres("DROP SCHEMA \(schema) CASCADE")
            throw error
        }
    }

    /// The figures of the store at `storeURL` (`store`, holding `spec`).
    private func measure(_ store: LayoutStore, storeURL: String, precompute: Samples, spec: Spec) async throws -> Report {
        let width = BenchSpecs.width
        try await store.prune()
        let layout = try await store.layout(name: "bench", crossExtent: width).layout
        let bytes = await store.fileBytes
        let viewports = StoreBenchmark.viewports(contentLength: layout.contentLength)
        let single = try await Self.viewportTimes(store, width: width, viewports: viewports)
        let uncached = try await Self.viewportTimes(
            try await LayoutStore(url: storeURL, maximumReaders: 1, frameCacheBudget: 0), width: width, viewports: viewports
        )
        let concurrent = try await Self.concurrentQueries(store, width: width, viewports: viewports, seconds: loadSeconds)
        let notifiedStore = try await LayoutStore(url: storeURL + "&freshness=notified", maximumReaders: Self.clients)
        let notified = try await Self.viewportTimes(notifiedStore, width: width, viewports: viewports)
        let notifiedConcurrent = try await Self.concurrentQueries(notifiedStore, width: width, viewports: viewports, seconds: loadSeconds)
        let delays = try await Self.notificationDelays(writer: store, reader: notifiedStore)

        // The SQLite backend, same spec, same viewports.
        let path = "\(directory)/postgres-bench-\(getpid()).sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let sqlite = try LayoutStore(path: path)
        let sqliteStart = now()
        try await sqlite.save(spec, as: "bench", crossExtents: [width])
        let sqliteSeconds = now() - sqliteStart
        await sqlite.finishBackgroundWork()
        let sqliteQueries = try await Self.viewportTimes(sqlite, width: width, viewports: viewports)

        return Report(
            elements: layout.elementCount,
            precomputeSeconds: precompute.median,
            bytes: bytes,
            bytesPerElement: Double(bytes) / Double(layout.elementCount),
            viewportP50Microseconds: single.median * 1e6,
            viewportP99Microseconds: single.percentile(0.99) * 1e6,
            uncachedViewportP50Microseconds: uncached.median * 1e6,
            uncachedViewportP99Microseconds: uncached.percentile(0.99) * 1e6,
            notifiedViewportP50Microseconds: notified.median * 1e6,
            notifiedViewportP99Microseconds: notified.percentile(0.99) * 1e6,
            notifiedConcurrentQueriesPerSecond: notifiedConcurrent,
            notificationDelayP50Microseconds: delays.median * 1e6,
            notificationDelayP99Microseconds: delays.percentile(0.99) * 1e6,
            clients: Self.clients,
            concurrentQueriesPerSecond: concurrent,
            sqlitePrecomputeSeconds: sqliteSeconds,
            sqliteViewportP50Microseconds: sqliteQueries.median * 1e6,
            sqliteViewportP99Microseconds: sqliteQueries.percentile(0.99) * 1e6
        )
    }

    /// Warm viewport queries (pinned headers applied, frames decoded): the
    /// first pass warms the caches, the next two are timed.
    static func viewportTimes(_ store: LayoutStore, width: Double, viewports: [Rect]) async throws -> Samples {
        var samples = Samples()
        var found = 0
        for pass in 0..<3 {
            for viewport in viewports {
                let start = now()
                found &+= try await store.visibleElements(name: "bench", crossExtent: width, viewport: viewport).count
                if pass > 0 { samples.add(now() - start) }
            }
        }
        if found == -1 { print(found) }
        return samples
    }

    /// Queries per second from `clients` tasks querying at once, each in a
    /// loop over the viewports, for `seconds`.
    static func concurrentQueries(_ store: LayoutStore, width: Double, viewports: [Rect], seconds: Double) async throws -> Double {
        let deadline = now() + seconds
        let start = now()
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<clients {
                group.addTask {
                    var index = client * 97
                    var done = 0
                    while now() < deadline {
                        _ = try await store.visibleElements(name: "bench", crossExtent: width, viewport: viewports[index % viewports.count])
                        index += 1
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / (now() - start)
    }
}
#endif
