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
        /// The same warm queries through the async API (what a server
        /// calls: statements awaited, no thread waits), snapshot and notified.
        var asyncViewportP50Microseconds: Double
        var asyncViewportP99Microseconds: Double
        var notifiedAsyncViewportP50Microseconds: Double
        /// Queries per second from `clients` tasks at once through the async API.
        var asyncConcurrentQueriesPerSecond: Double
    }

    static let clients = 16

    func run() async throws -> Report {
        let spec = try StoreBenchmark.spec(count: count)
        let width = BenchSpecs.width
        var precompute = Samples()
        let schema = "tessera_bench_\(getpid())"
        let storeURL = url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
        for _ in 0..<runs {
            let store = try LayoutStore(url: storeURL, maximumReaders: Self.clients)
            try store.executePostgres("DROP SCHEMA \(schema) CASCADE")
            let fresh = try LayoutStore(url: storeURL, maximumReaders: Self.clients)
            let start = now()
            try await fresh.save(spec, as: "bench", crossExtents: [width])
            precompute.add(now() - start)
        }
        let store = try LayoutStore(url: storeURL, maximumReaders: Self.clients)
        defer { try? store.executePostgres("DROP SCHEMA \(schema) CASCADE") }
        try await store.prune()
        let layout = try await store.layout(name: "bench", crossExtent: width).layout
        let bytes = store.fileBytes
        let viewports = StoreBenchmark.viewports(contentLength: layout.contentLength)
        let single = try Self.viewportTimes(store, width: width, viewports: viewports)
        let uncached = try Self.viewportTimes(
            try LayoutStore(url: storeURL, maximumReaders: 1, frameCacheBudget: 0), width: width, viewports: viewports
        )
        let concurrent = try Self.concurrentQueries(store, width: width, viewports: viewports, seconds: loadSeconds)
        let notifiedStore = try LayoutStore(url: storeURL + "&freshness=notified", maximumReaders: Self.clients)
        let notified = try Self.viewportTimes(notifiedStore, width: width, viewports: viewports)
        let notifiedConcurrent = try Self.concurrentQueries(notifiedStore, width: width, viewports: viewports, seconds: loadSeconds)
        let delays = try await Self.notificationDelays(writer: store, reader: notifiedStore)
        let asyncSingle = try await Self.asyncViewportTimes(store, width: width, viewports: viewports)
        let asyncNotified = try await Self.asyncViewportTimes(notifiedStore, width: width, viewports: viewports)
        let asyncConcurrent = try await Self.asyncConcurrentQueries(store, width: width, viewports: viewports, seconds: loadSeconds)

        // The SQLite backend, same spec, same viewports.
        let path = "\(directory)/postgres-bench-\(getpid()).sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let sqlite = try LayoutStore(path: path)
        let sqliteStart = now()
        try await sqlite.save(spec, as: "bench", crossExtents: [width])
        let sqliteSeconds = now() - sqliteStart
        sqlite.finishBackgroundWork()
        let sqliteQueries = try Self.viewportTimes(sqlite, width: width, viewports: viewports)

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
            sqliteViewportP99Microseconds: sqliteQueries.percentile(0.99) * 1e6,
            asyncViewportP50Microseconds: asyncSingle.median * 1e6,
            asyncViewportP99Microseconds: asyncSingle.percentile(0.99) * 1e6,
            notifiedAsyncViewportP50Microseconds: asyncNotified.median * 1e6,
            asyncConcurrentQueriesPerSecond: asyncConcurrent
        )
    }

    /// Warm viewport queries (pinned headers applied, frames decoded): the
    /// first pass warms the caches, the next two are timed.
    static func viewportTimes(_ store: LayoutStore, width: Double, viewports: [Rect]) throws -> Samples {
        var samples = Samples()
        var found = 0
        for pass in 0..<3 {
            for viewport in viewports {
                let start = now()
                found &+= try store.visibleElements(name: "bench", crossExtent: width, viewport: viewport).count
                if pass > 0 { samples.add(now() - start) }
            }
        }
        if found == -1 { print(found) }
        return samples
    }

    /// `viewportTimes` through the async API.
    static func asyncViewportTimes(_ store: LayoutStore, width: Double, viewports: [Rect]) async throws -> Samples {
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

    /// Queries per second from `clients` tasks querying at once through the
    /// async API, each in a loop over the viewports, for `seconds`.
    static func asyncConcurrentQueries(_ store: LayoutStore, width: Double, viewports: [Rect], seconds: Double) async throws -> Double {
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

    /// Queries per second from `clients` threads querying at once, each in a
    /// loop over the viewports, for `seconds`.
    static func concurrentQueries(_ store: LayoutStore, width: Double, viewports: [Rect], seconds: Double) throws -> Double {
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: clients)
        counts.initialize(repeating: 0)
        defer { counts.deallocate() }
        nonisolated(unsafe) let shared = counts
        nonisolated(unsafe) var failure: (any Error)?
        let deadline = now() + seconds
        let start = now()
        let group = DispatchGroup()
        // Threads of their own: Dispatch would run no more at once than there are cores.
        for client in 0..<clients {
            group.enter()
            let thread = Thread {
                var index = client * 97
                var done = 0
                do {
                    while now() < deadline {
                        _ = try store.visibleElements(name: "bench", crossExtent: width, viewport: viewports[index % viewports.count])
                        index += 1
                        done += 1
                    }
                } catch {
                    failure = error
                }
                shared[client] = done
                group.leave()
            }
            thread.start()
        }
        group.wait()
        if let failure { throw failure }
        return Double(counts.reduce(0, +)) / (now() - start)
    }
}
#endif
