import ArgumentParser
import Foundation
import TesseraLayout

/// `tessera bench`: the reproducible benchmark behind the README's tables.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure compute speed, memory and query latency, each beside a baseline from the same run."
    )

    @Option(help: "Items per benchmark section: 1m (default), 100k, or a number.")
    var size: String = "1m"

    @Option(help: "Timed runs per measurement; the median is reported.")
    var runs: Int = 5

    @Option(help: "Only these kinds (comma-separated).")
    var kinds: String?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: .hidden)
    var child: String?

    func run() throws {
        let count = try Self.count(size)
        if let child {
            // One kind per process, so that its peak memory is its own.
            let report = try EngineBenchmark(kind: child, count: count, runs: runs).run()
            let data = try JSONEncoder().encode(report)
            print(String(decoding: data, as: UTF8.self))
            return
        }
        let selected = kinds?.split(separator: ",").map(String.init) ?? BenchSpecs.kinds
        for kind in selected where !BenchSpecs.kinds.contains(kind) {
            throw CommandError("unknown kind \"\(kind)\" in --kinds (known: \(BenchSpecs.kinds.joined(separator: ", ")))")
        }
        var reports: [EngineBenchmark.Report] = []
        for kind in selected {
            if !json { printError("bench: \(kind), \(count) items, \(runs) runs…") }
            reports.append(try runChild(kind: kind, count: count))
        }
        if json {
            let data = try JSONEncoder().encode(reports)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(BenchTable.engine(reports, count: count))
        }
    }

    static func count(_ text: String) throws -> Int {
        switch text.lowercased() {
        case "1m": return 1_000_000
        case "10m": return 10_000_000
        case "100k": return 100_000
        default:
            guard let count = Int(text), count > 0 else { throw CommandError("--size must be 1m, 10m, 100k or a positive number, got \"\(text)\"") }
            return count
        }
    }

    private func runChild(kind: String, count: Int) throws -> EngineBenchmark.Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["bench", "--child", kind, "--size", String(count), "--runs", String(runs)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CommandError("the \(kind) benchmark failed (exit \(process.terminationStatus))") }
        return try JSONDecoder().decode(EngineBenchmark.Report.self, from: data)
    }
}
