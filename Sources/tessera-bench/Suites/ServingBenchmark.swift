import Foundation
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// Serving many layouts at once: 8 feeds × 8 widths in rotation beside one
/// layout alone, the first query of layouts a process has never read, and
/// writes while another process queries the same file at full load.
struct ServingBenchmark {
    struct Report: Codable {
        var feeds: Int
        var widths: Int
        var elementsPerLayout: Int
        var precomputeSeconds: Double
        var oneLayoutP50Microseconds: Double
        var oneLayoutP99Microseconds: Double
        var rotationP50Microseconds: Double
        var rotationP99Microseconds: Double
        var firstQueryP50Microseconds: Double
        var firstQueryP99Microseconds: Double
        var cacheBytes: Int
        var cacheBudget: Int
        var peakResidentBytes: Int?
        var appendIdleSeconds: Double
        var appendUnderLoadSeconds: Double
        var newWidthIdleSeconds: Double
        var newWidthUnderLoadSeconds: Double
        var loadQueries: Int
    }

    static let feeds = 8
    static let widths: [Double] = [320, 360, 375, 390, 414, 428, 768, 1024]

    let count: Int
    let runs: Int
    let directory: String

    var path: String { directory + "/tessera-bench-serving.sqlite" }

    func run() async throws -> Report {
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let spec = try StoreBenchmark.spec(count: count)
        let store = try LayoutStore(path: path)
        let started = now()
        for feed in 0..<Self.feeds { try await store.save(spec, as: "feed\(feed)", crossExtents: Self.widths) }
        let precompute = now() - started
        await store.finishBackgroundWork()
        let layouts = try await store.layouts()

        var random = BenchRandom(seed: 11)
        func viewport(_ layout: StoredLayout) -> Rect {
            Rect(x: 0, y: random.unit() * max(0, layout.contentLength - 844), width: layout.crossExtent, height: 844)
        }
        func query(_ layout: StoredLayout, into samples: inout Samples) async throws {
            let rect = viewport(layout)
            let start = now()
            _ = try await store.visibleElements(name: layout.specName, crossExtent: layout.crossExtent, viewport: rect)
            samples.add(now() - start)
        }

        // Warm queries, as in the store suite: every viewport is queried once
        // untimed (its pages mapped), then timed `StoreBenchmark.warmPasses`
        // times. The same number of viewports for one layout as for all 64.
        func warmTimes(_ queries: [(layout: StoredLayout, rect: Rect)]) async throws -> Samples {
            var samples = Samples()
            for (layout, rect) in queries { _ = try await store.visibleElements(name: layout.specName, crossExtent: layout.crossExtent, viewport: rect) }
            for _ in 0..<StoreBenchmark.warmPasses {
                for (layout, rect) in queries {
                    let start = now()
                    _ = try await store.visibleElements(name: layout.specName, crossExtent: layout.crossExtent, viewport: rect)
                    samples.add(now() - start)
                }
            }
            return samples
        }
        let perLayout = 50
        let one = layouts[0]
        let oneLayout = try await warmTimes((0..<(perLayout * layouts.count)).map { _ in (one, viewport(one)) })
        // All 64 in rotation, once their directories are cached.
        var warmUp = Samples()
        for layout in layouts { try await query(layout, into: &warmUp) }
        let deadline = now() + 60
        while store.cacheStatistics.layouts < layouts.count, now() < deadline { usleep(1_000) }
        let rotationQueries = (0..<perLayout).flatMap { _ in layouts.map { ($0, viewport($0)) } }
        let rotation = try await warmTimes(rotationQueries)
        let cache = store.cacheStatistics

        // A process that has never read these layouts: a store opened anew.
        let fresh = try LayoutStore(path: path)
        _ = try await fresh.specs()
        var firstQuery = Samples()
        for layout in layouts {
            let rect = viewport(layout)
            let start = now()
            _ = try await fresh.visibleElements(name: layout.specName, crossExtent: layout.crossExtent, viewport: rect)
            firstQuery.add(now() - start)
        }

        // Writes on an idle store, then while another process queries: an
        // append to a feed stored at one width, and a new width of another.
        try await store.save(spec, as: "appendable", crossExtents: [390])
        await store.finishBackgroundWork()
        let appended = (0..<1000).map { _ in Item() }
        let last = spec.sections.count - 1
        func appendTimes() async throws -> Samples {
            var samples = Samples()
            for _ in 0..<runs {
                let start = now()
                try await store.append(name: "appendable", section: last, items: appended)
                samples.add(now() - start)
            }
            return samples
        }
        func newWidth(_ width: Double, feed: Int) async throws -> Double {
            let start = now()
            try await store.layout(name: "feed\(feed)", crossExtent: width)
            let seconds = now() - start
            await store.finishBackgroundWork()
            return seconds
        }
        let appendIdle = try await appendTimes()
        let newWidthIdle = try await newWidth(500, feed: 1)
        let load = try LoadProcess(path: path)
        let appendUnderLoad = try await appendTimes()
        let newWidthUnderLoad = try await newWidth(500, feed: 2)
        let served = load.stop()

        return Report(
            feeds: Self.feeds, widths: Self.widths.count, elementsPerLayout: layouts[0].elementCount,
            precomputeSeconds: precompute,
            oneLayoutP50Microseconds: oneLayout.median * 1e6, oneLayoutP99Microseconds: oneLayout.percentile(0.99) * 1e6,
            rotationP50Microseconds: rotation.median * 1e6, rotationP99Microseconds: rotation.percentile(0.99) * 1e6,
            firstQueryP50Microseconds: firstQuery.median * 1e6, firstQueryP99Microseconds: firstQuery.percentile(0.99) * 1e6,
            cacheBytes: cache.bytes, cacheBudget: cache.budget, peakResidentBytes: ProcessMemory.peakResidentBytes,
            appendIdleSeconds: appendIdle.median, appendUnderLoadSeconds: appendUnderLoad.median,
            newWidthIdleSeconds: newWidthIdle, newWidthUnderLoadSeconds: newWidthUnderLoad, loadQueries: served
        )
    }

    /// Another `tessera` process querying random viewports of every layout
    /// of the store in a loop, on one thread, until its input closes; it
    /// says "ready" once its first queries are done and prints how many it
    /// served at the end.
    final class LoadProcess {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(path: String) throws {
            process.executableURL = BenchCommand.executable
            process.arguments = [BenchCommand.configuration.commandName ?? "suites", "--child", "serving-load:" + path]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            // Wait for "ready".
            _ = output.fileHandleForReading.availableData
        }

        func stop() -> Int {
            try? input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
    }

    /// The load process's loop (see ``LoadProcess``).
    static func serveLoad(path: String) async throws {
        let store = try LayoutStore(path: path)
        let layouts = try await store.layouts()
        let stop = CancellationFlag()
        Thread.detachNewThread {
            _ = FileHandle.standardInput.readDataToEndOfFile()
            stop.cancel()
        }
        var random = BenchRandom(seed: 5)
        var served = 0
        var announced = false
        while !stop.isCancelled {
            let layout = layouts[Int(random.next() % UInt64(layouts.count))]
            let rect = Rect(x: 0, y: random.unit() * max(0, layout.contentLength - 844), width: layout.crossExtent, height: 844)
            _ = try await store.visibleElements(name: layout.specName, crossExtent: layout.crossExtent, viewport: rect, computeIfMissing: false)
            served += 1
            if !announced, served >= 1000 {
                FileHandle.standardOutput.write(Data("ready\n".utf8))
                announced = true
            }
        }
        FileHandle.standardOutput.write(Data("\(served)\n".utf8))
    }
}
