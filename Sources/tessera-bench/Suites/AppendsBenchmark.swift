import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// Measures appends: 100 appends of 1,000 items, one after another, to a
/// `count`/`cycle` section (the first against the last: flat when an
/// append writes only what is new), and a whole `tessera append` process
/// (start-up, open, verification and close included) of 1,000 items to a
/// feed of `feedItems` items, beside the same append in this process.
struct AppendsBenchmark {
    static let appends = 100
    static let batch = 1000
    static let cycleItems = 100_000
    var feedItems: Int
    var runs: Int
    var directory: String
    /// The `tessera` binary the whole-process figure runs.
    var tessera: String

    struct Report: Codable {
        var cycleItems: Int
        var appendedItems: Int
        var appends: Int
        /// Medians of the first five appends and of the last five.
        var firstAppendsSeconds: Double
        var lastAppendsSeconds: Double
        var hundredthAppendSeconds: Double
        var feedItems: Int
        var feedSections: Int
        var inProcessSeconds: Double
        var processSeconds: Double
        /// `tessera --version`: the start-up of a process that opens nothing.
        var startupSeconds: Double
    }

    func run() async throws -> Report {
        var report = Report(
            cycleItems: Self.cycleItems, appendedItems: Self.batch, appends: Self.appends, firstAppendsSeconds: 0, lastAppendsSeconds: 0,
            hundredthAppendSeconds: 0, feedItems: feedItems, feedSections: 0, inProcessSeconds: 0, processSeconds: 0, startupSeconds: 0
        )
        try await measureRepeatedAppends(into: &report)
        try await measureProcess(into: &report)
        return report
    }

    /// 100 appends to one `count`/`cycle` section of a staggered feed.
    private func measureRepeatedAppends(into report: inout Report) async throws {
        let path = "\(directory)/appends.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let spec = try Spec(jsonText: """
            {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 3, "itemSpacing": 2, "lineSpacing": 2},
              "header": {"size": 44, "pinned": true},
              "items": {"count": \(Self.cycleItems), "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}]}}]}
            """)
        let store = try LayoutStore(path: path)
        defer { store.close() }
        try await store.save(spec, as: "photos", crossExtents: [BenchSpecs.width])
        store.finishBackgroundWork()
        var seconds: [Double] = []
        for round in 0..<Self.appends {
            let items = (0..<Self.batch).map { Item(aspectRatio: [0.75, 1.25, 0.5, 1.5][($0 + round) % 4]) }
            let start = now()
            try await store.append(name: "photos", section: 0, items: items)
            seconds.append(now() - start)
        }
        func median(_ values: ArraySlice<Double>) -> Double {
            var samples = Samples()
            values.forEach { samples.add($0) }
            return samples.median
        }
        report.firstAppendsSeconds = median(seconds.prefix(5))
        report.lastAppendsSeconds = median(seconds.suffix(5))
        report.hundredthAppendSeconds = seconds.last ?? 0
    }

    /// `tessera append` of 1,000 items to the last section of a large
    /// feed, as a process and in this one.
    private func measureProcess(into report: inout Report) async throws {
        guard FileManager.default.isExecutableFile(atPath: tessera) else {
            throw CommandError("no tessera binary at \(tessera): build the tessera product beside tessera-bench")
        }
        let path = "\(directory)/appends-feed.sqlite"
        let itemsPath = "\(directory)/appends-items.ndjson"
        StoreBenchmark.remove(path)
        defer {
            StoreBenchmark.remove(path)
            unlink(itemsPath)
        }
        let spec = try StoreBenchmark.spec(count: feedItems)
        let last = spec.sections.count - 1
        report.feedSections = spec.sections.count
        try String(repeating: "{\"fraction\": 2, \"aspectRatio\": 1.5}\n{}\n", count: Self.batch / 2)
            .write(toFile: itemsPath, atomically: true, encoding: .utf8)
        let items = Array(repeating: [Item(fraction: 2, aspectRatio: 1.5), Item()], count: Self.batch / 2).flatMap { $0 }
        do {
            let store = try LayoutStore(path: path)
            defer { store.close() }
            try await store.save(spec, as: "bench", crossExtents: [BenchSpecs.width])
            store.finishBackgroundWork()
            var inProcess = Samples()
            for _ in 0..<runs {
                let start = now()
                try await store.append(name: "bench", section: last, items: items)
                inProcess.add(now() - start)
            }
            report.inProcessSeconds = inProcess.median
        }
        var process = Samples()
        var startup = Samples()
        for _ in 0..<runs {
            startup.add(try Self.time(tessera, ["--version"]))
            process.add(try Self.time(tessera, ["append", "--db", path, "--name", "bench", "--section", String(last), itemsPath, "--quiet"]))
        }
        report.processSeconds = process.median
        report.startupSeconds = startup.median
    }

    /// The wall time of a process, from its start to its exit; it must succeed.
    private static func time(_ executable: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let start = now()
        try process.run()
        process.waitUntilExit()
        let seconds = now() - start
        guard process.terminationStatus == 0 else {
            throw CommandError("\(executable) \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus))")
        }
        return seconds
    }
}
