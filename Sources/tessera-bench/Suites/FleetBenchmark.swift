import Foundation
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraStore
#if PostgreSQL
@_spi(Testing) import TesseraPostgres
#endif

/// A fleet's precompute as whole `tessera` processes over one NDJSON file
/// of `feeds` small feeds (the feeds suite's) at two widths: one run
/// beside four `--shard I/4` runs one after another and their merge, the
/// merge's rate beside `cp` of the shard files, and, given a PostgreSQL
/// server, four shard processes at once into one store beside one process.
/// Each way's store is compared with the one run's.
struct FleetBenchmark {
    var feeds: Int
    var directory: String
    var tessera: URL
    var postgres: String?

    static let shards = 4

    struct Report: Codable {
        var feeds: Int
        var fileBytes: Int
        var oneRunSeconds: Double
        var shardSeconds: [Double]
        var mergeSeconds: Double
        var mergedLayouts: Int
        var mergedFrameBytes: Int
        var copySeconds: Double
        var shardFileBytes: Int
        /// Layouts compared between the merged store and the one run's, all equal.
        var layoutsCompared: Int
        var postgresOneRunSeconds: Double?
        var postgresShardsSeconds: Double?
        var postgresLayoutsCompared: Int?
    }

    func run() async throws -> Report {
        let file = "\(directory)/fleet-feeds.ndjson"
        var text = ""
        for index in 0..<feeds { text += JSONWriter.canonical(FeedsBenchmark.feed(index).jsonValue) + "\n" }
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let widths = ["--width", "390", "--width", "430"]
        let one = "\(directory)/fleet-one.sqlite"
        let shards = (0..<Self.shards).map { "\(directory)/fleet-shard-\($0).sqlite" }
        let merged = "\(directory)/fleet-merged.sqlite"
        let copies = shards.map { $0 + ".copy" }
        let files = [one, merged] + shards + copies
        for path in files { StoreBenchmark.remove(path) }
        defer { for path in files { StoreBenchmark.remove(path) } }

        let oneRun = try FloorBenchmark.timedProcess(tessera, ["precompute", "--specs", file, "--db", one, "--quiet"] + widths)
        var shardSeconds: [Double] = []
        for (index, shard) in shards.enumerated() {
            shardSeconds.append(try FloorBenchmark.timedProcess(
                tessera, ["precompute", "--specs", file, "--db", shard, "--quiet", "--shard", "\(index)/\(Self.shards)"] + widths
            ))
        }
        let (mergeSeconds, summary) = try FloorBenchmark.timedOutput(tessera, ["merge", "--into", merged] + shards)
        let copyStarted = now()
        for (shard, copy) in zip(shards, copies) { try FileManager.default.copyItem(atPath: shard, toPath: copy) }
        let copySeconds = now() - copyStarted
        let shardBytes = try shards.reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
        let layoutsCompared = try await Self.compare(one, merged)

        var report = Report(
            feeds: feeds, fileBytes: text.utf8.count, oneRunSeconds: oneRun, shardSeconds: shardSeconds, mergeSeconds: mergeSeconds,
            mergedLayouts: Self.number(before: " layouts,", in: summary), mergedFrameBytes: Int(Self.megabytes(in: summary) * 1e6),
            copySeconds: copySeconds, shardFileBytes: shardBytes, layoutsCompared: layoutsCompared
        )
        if let postgres { try await runPostgres(postgres, file: file, widths: widths, into: &report) }
        return report
    }

    /// One process into one schema beside four shard processes at once into another.
    private func runPostgres(_ url: String, file: String, widths: [String], into report: inout Report) async throws {
        let names = ["tessera_fleet_one_\(getpid())", "tessera_fleet_shards_\(getpid())"]
        let urls = names.map { url + (url.contains("?") ? "&" : "?") + "schema=\($0)" }
        do {
            try await measurePostgres(oneURL: urls[0], shardsURL: urls[1], file: file, widths: widths, into: &report)
        } catch {
            try? await Self.drop(names, at: urls)
            throw error
        }
        try await Self.drop(names, at: urls)
    }

    private static func drop(_ schemas: [String], at urls: [String]) async throws {
        #if PostgreSQL
        for (schema, url) in zip(schemas, urls) {
            let store = try await LayoutStore.open(db: url)
            try await store.executePostgres("DROP SCHEMA \(schema) CASCADE")
            store.close()
        }
        #else
        throw CommandError("this build has no PostgreSQL backend: build with `swift build -c release --traits PostgreSQL`")
        #endif
    }

    private func measurePostgres(oneURL: String, shardsURL: String, file: String, widths: [String], into report: inout Report) async throws {
        report.postgresOneRunSeconds = try FloorBenchmark.timedProcess(tessera, ["precompute", "--specs", file, "--db", oneURL, "--quiet"] + widths)
        // The schema made before the shards race to make it.
        try await LayoutStore.open(db: shardsURL).close()
        let started = now()
        let processes = try (0..<Self.shards).map { index in
            let process = Process()
            process.executableURL = tessera
            process.arguments = ["precompute", "--specs", file, "--db", shardsURL, "--quiet", "--shard", "\(index)/\(Self.shards)"] + widths
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        report.postgresShardsSeconds = now() - started
        guard processes.allSatisfy({ $0.terminationStatus == 0 }) else { throw CommandError("a shard process into PostgreSQL failed") }
        report.postgresLayoutsCompared = try await Self.compare(oneURL, shardsURL)
    }

    /// Compares the listings of two stores, then every element of every
    /// 50th layout; the layouts compared, or an error naming a difference.
    static func compare(_ first: String, _ second: String) async throws -> Int {
        let a = try await LayoutStore.open(db: first, requireExisting: true)
        let b = try await LayoutStore.open(db: second, requireExisting: true)
        defer {
            a.close()
            b.close()
        }
        guard try await a.specs().map(\.contentHash) == b.specs().map(\.contentHash) else { throw CommandError("the stores' specs differ") }
        let layouts = try await a.layouts()
        let other = try await b.layouts()
        func shape(_ layouts: [StoredLayout]) -> [String] {
            layouts.map { "\($0.specName)@\($0.crossExtent) \($0.state) \($0.elementCount) \($0.contentLength)" }
        }
        guard shape(layouts) == shape(other) else { throw CommandError("the stores' layouts differ") }
        var compared = 0
        for layout in stride(from: 0, to: layouts.count, by: 50).map({ layouts[$0] }) {
            let everything = Rect(x: 0, y: 0, width: layout.crossExtent, height: layout.contentLength + 1)
            let left = try await a.elements(name: layout.specName, crossExtent: layout.crossExtent, in: everything)
            let right = try await b.elements(name: layout.specName, crossExtent: layout.crossExtent, in: everything)
            guard left == right else { throw CommandError("the layout of \(layout.specName) at \(layout.crossExtent) differs") }
            compared += 1
        }
        return compared
    }

    /// The number just before `marker` in `text` (0 when there is none).
    static func number(before marker: String, in text: String) -> Int {
        guard let end = text.range(of: marker)?.lowerBound else { return 0 }
        return Int(text[..<end].split(separator: " ").last ?? "") ?? 0
    }

    /// The megabytes of frames a merge's summary line names.
    static func megabytes(in text: String) -> Double {
        guard let end = text.range(of: " MB of frames")?.lowerBound else { return 0 }
        return Double(text[..<end].split(separator: " ").last ?? "") ?? 0
    }
}

extension BenchTable {
    static func fleet(_ report: FleetBenchmark.Report) -> String {
        func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
        func rate(_ feeds: Int, _ seconds: Double) -> String { String(format: "%.0f feeds/s", Double(feeds) / seconds) }
        let shards = report.shardSeconds.reduce(0, +)
        let megabytes = Double(report.mergedFrameBytes) / 1e6
        let shardMegabytes = Double(report.shardFileBytes) / 1e6
        var rows = [["measure", "fleet", "baseline (same run)", "ratio"]]
        rows.append(["one run of the whole file", seconds(report.oneRunSeconds) + ", " + rate(report.feeds, report.oneRunSeconds), "", ""])
        rows.append([
            "\(report.shardSeconds.count) shards one after another (each: " + report.shardSeconds.map { String(format: "%.1f", $0) }.joined(separator: ", ") + " s)",
            seconds(shards), "one run: " + seconds(report.oneRunSeconds), String(format: "%.2f×", shards / report.oneRunSeconds),
        ])
        rows.append([
            "merge of the shards: \(report.mergedLayouts) layouts, " + String(format: "%.0f MB of frames", megabytes),
            seconds(report.mergeSeconds) + String(format: ", %.0f layouts/s, %.1f MB/s", Double(report.mergedLayouts) / report.mergeSeconds, megabytes / report.mergeSeconds),
            String(format: "cp of the shard files (%.0f MB): %.2f s, %.0f MB/s", shardMegabytes, report.copySeconds, shardMegabytes / report.copySeconds),
            String(format: "%.0f× cp's time", report.mergeSeconds / report.copySeconds),
        ])
        rows.append([
            "shards one after another, then the merge", seconds(shards + report.mergeSeconds), "one run: " + seconds(report.oneRunSeconds),
            String(format: "%.2f×", (shards + report.mergeSeconds) / report.oneRunSeconds),
        ])
        rows.append(["layouts compared with the one run's, element by element", "\(report.layoutsCompared), all equal", "", ""])
        if let one = report.postgresOneRunSeconds, let four = report.postgresShardsSeconds {
            rows.append([
                "PostgreSQL: \(report.shardSeconds.count) shard processes at once into one store", seconds(four) + ", " + rate(report.feeds, four),
                "one process: " + seconds(one) + ", " + rate(report.feeds, one), String(format: "%.2f× the feeds/s", one / four),
            ])
            rows.append(["PostgreSQL: layouts compared with the one process's", "\((report.postgresLayoutsCompared ?? 0)), all equal", "", ""])
        }
        return String(format: "Fleet: %d feeds of 150–300 items at widths 390 and 430 in one NDJSON file (%.0f MB), as whole tessera processes\n", report.feeds, Double(report.fileBytes) / 1e6) + format(rows)
    }
}
