import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

extension FloorBenchmark {
    /// Appends of 1,000 items: as a whole `tessera append` process to a
    /// feed of `appendFeedItems` items, beside the same append in this
    /// process, a process that only starts (`tessera --version`) and the
    /// feed's full compute; and 100 in a row to a `count`/`cycle` section of
    /// a `count`-item feed, the first beside the last.
    struct Appends: Codable {
        var feedItems: Int
        /// How the `tessera` run links the Swift runtime (see `linkage(of:)`).
        var linkage: String
        var processSeconds: Double
        var inProcessSeconds: Double
        var startOnlySeconds: Double
        var fullComputeSeconds: Double
        var repeatedFeedItems: Int
        /// Seconds of each of the 100 appends, in order.
        var repeated: [Double]
        /// The median of the first five and of the last five.
        var firstFiveSeconds: Double
        var lastFiveSeconds: Double
    }

    static let appendedItems = 1_000
    static let repeatedAppends = 100

    func appendFigures() async throws -> Appends {
        guard FileManager.default.isExecutableFile(atPath: tessera.path) else {
            throw CommandError("the floor suite runs `tessera append`: build the tessera product beside tessera-bench, or name one with --tessera "
                + "(as the README installs it: `swift build -c release --static-swift-stdlib --product tessera`; \(tessera.path) is missing)")
        }
        let items = directory + "/tessera-bench-floor-items.ndjson"
        try String(repeating: "{}\n", count: Self.appendedItems).write(toFile: items, atomically: true, encoding: .utf8)
        defer { unlink(items) }
        let appended = [Item](repeating: Item(), count: Self.appendedItems)

        let path = directory + "/tessera-bench-floor-append.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let spec = try StoreBenchmark.spec(count: appendFeedItems)
        let last = spec.sections.count - 1
        let store = try LayoutStore(path: path)
        var started = now()
        try await store.save(spec, crossExtents: [BenchSpecs.width])
        let fullCompute = now() - started
        await store.finishBackgroundWork()

        // In turn: a process appending, this process appending, a process starting.
        var process = Samples()
        var inProcess = Samples()
        var startOnly = Samples()
        for _ in 0..<max(runs, 5) {
            process.add(try Self.timedProcess(tessera, ["append", "--db", path, "--name", "bench", "--section", String(last), "--quiet", items]))
            started = now()
            try await store.append(name: "bench", section: last, items: appended)
            inProcess.add(now() - started)
            await store.finishBackgroundWork()
            startOnly.add(try Self.timedProcess(tessera, ["--version"]))
        }
        store.close()

        // 100 appends in a row to one section given as a count and a cycle.
        let repeatedPath = directory + "/tessera-bench-floor-repeated.sqlite"
        StoreBenchmark.remove(repeatedPath)
        defer { StoreBenchmark.remove(repeatedPath) }
        let repeatedSpec = try StoreBenchmark.spec(count: count)
        let repeatedStore = try LayoutStore(path: repeatedPath)
        defer { repeatedStore.close() }
        try await repeatedStore.save(repeatedSpec, crossExtents: [BenchSpecs.width])
        await repeatedStore.finishBackgroundWork()
        var repeated: [Double] = []
        for _ in 0..<Self.repeatedAppends {
            started = now()
            try await repeatedStore.append(name: "bench", section: repeatedSpec.sections.count - 1, items: appended)
            repeated.append(now() - started)
        }
        func median(_ values: ArraySlice<Double>) -> Double {
            var samples = Samples()
            values.forEach { samples.add($0) }
            return samples.median
        }
        return Appends(
            feedItems: appendFeedItems, linkage: Self.linkage(of: tessera), processSeconds: process.median, inProcessSeconds: inProcess.median,
            startOnlySeconds: startOnly.median, fullComputeSeconds: fullCompute,
            repeatedFeedItems: count, repeated: repeated,
            firstFiveSeconds: median(repeated.prefix(5)), lastFiveSeconds: median(repeated.suffix(5))
        )
    }

    /// "statically linked" when the executable at `url` names no shared
    /// Swift runtime to load (`swift build --static-swift-stdlib`), else
    /// "dynamically linked": most of a short process's start-up.
    static func linkage(of url: URL) -> String {
        guard let bytes = try? Data(contentsOf: url, options: .alwaysMapped) else { return "linkage unknown" }
        let needle = Array("libswiftCore.so".utf8)
        let named = bytes.withUnsafeBytes { $0.firstRange(of: needle) != nil }
        return named ? "dynamically linked" : "statically linked"
    }

    /// Wall-clock seconds of `executable` run to its end with `arguments`,
    /// its standard output thrown away; an error when it fails.
    static func timedProcess(_ executable: URL, _ arguments: [String]) throws -> Double {
        try timed(executable, arguments, output: nil).seconds
    }

    /// Wall-clock seconds of `executable` run to its end with `arguments`,
    /// and its standard output; an error when it fails.
    static func timedOutput(_ executable: URL, _ arguments: [String]) throws -> (seconds: Double, output: String) {
        let (seconds, output) = try timed(executable, arguments, output: Pipe())
        return (seconds, String(decoding: output, as: UTF8.self))
    }

    private static func timed(_ executable: URL, _ arguments: [String], output pipe: Pipe?) throws -> (seconds: Double, output: Data) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = pipe ?? FileHandle.nullDevice
        let started = now()
        try process.run()
        let output = pipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        let seconds = now() - started
        guard process.terminationStatus == 0 else {
            throw CommandError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
        return (seconds, output)
    }
}
