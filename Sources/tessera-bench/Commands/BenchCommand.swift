import ArgumentParser
import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// `tessera-bench [suites]`: the reproducible benchmark behind the README's tables.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suites",
        abstract: "Measure compute speed, memory, store and query latency, each beside a baseline from the same run.",
        discussion: "Every measurement runs in a child process of its own, so that its peak memory is its own. Medians of --runs runs."
    )

    enum Suite: String, ExpressibleByArgument, CaseIterable {
        case engine, store, serving, feeds, workers, fleet, postgres, carousels, features, resize, tiles, floor, all
    }

    @Option(help: "What to measure: engine, store, serving (64 layouts of --size elements, 8 feeds × 8 widths), feeds (many small feeds in batches), workers (a batch of --feeds small feeds, 20000 by default, and one spec of --size items at 4 widths, on each number of workers in --jobs; not part of all), fleet (the tessera product over a file of --feeds small feeds, 100000 by default: one run, four --shard runs and their merge beside cp, and with --postgres four shards at once into one store; not part of all), carousels (queries with offsets on 50 carousels; not part of all), features (warm queries with breakpoints and right to left beside plain ones; not part of all), resize (measured sizes of a --size feed at 3 widths; not part of all), tiles (the tile routes' figures on a staggered feed of --size items at phone widths; not part of all), floor (the store against its floor: warm queries of 8 feeds × 8 widths of --size items beside the in-memory layout, the first query among 20,000 small feeds, appends as a whole process and 100 in a row; runs the tessera product built beside tessera-bench, or --tessera; not part of all), or all.")
    var suite: Suite = .all

    @Option(parsing: .unconditional, help: "Items: 1m (default), 10m, 100k, or a number.")
    var size: String = "1m"

    @Option(parsing: .unconditional, help: "Feeds of 150–300 items in the feeds suite: 100k (default), 10k, or a number; in the floor suite's first-query figure, 20000 by default.")
    var feeds: String?

    @Option(parsing: .unconditional, help: "Timed runs per measurement; the median is reported.")
    var runs: Int = 5

    @Option(help: "Only these kinds in the engine suite (comma-separated).")
    var kinds: String?

    @Flag(help: "Skip the per-element R*Tree baseline (slow: about 10 s per million elements).")
    var noBaseline = false

    @Option(help: "The PostgreSQL server of the postgres suite (postgres://user@host:port/dbname); not part of all. Scripts/bench-postgres.sh runs it beside the per-element baseline.")
    var postgres: String?

    @Option(help: "Only these figures of the floor suite (comma-separated): warm (one layout beside the in-memory layout), rotation (64 layouts beside one), first (the first query among small feeds), appends (needs the tessera product), afterappend (the first pass of viewports after an append, beside the same pass warm). All by default.")
    var figures: String?

    @Option(help: "Numbers of workers for the workers suite (comma-separated), each from 1 to 1024: 1 and the machine's cores by default.")
    var jobs: String?

    @Option(help: "Where the benchmark writes its temporary stores.")
    var directory: String = "/tmp"

    @Flag(help: "Print JSON instead of tables.")
    var json = false

    @Option(help: "The tessera executable the floor suite runs as a whole process (default: the one beside tessera-bench), e.g. one built with --static-swift-stdlib, as it ships.")
    var tessera: String?

    @Option(help: .hidden)
    var child: String?

    func run() async throws {
        let count = try Self.count(size)
        let givenFeeds = try feeds.map { try Self.count($0, flag: "--feeds") }
        let feedCount = givenFeeds ?? 100_000
        let smallFeeds = givenFeeds ?? FloorBenchmark.defaultSmallFeeds
        guard runs >= 1 else { throw CommandError("--runs must be at least 1") }
        let floorFigures = try FloorBenchmark.Figure.parse(figures)
        if let child {
            try await runAsChild(child, count: count, floorFigures: floorFigures, smallFeeds: smallFeeds)
            return
        }
        var output = BenchOutput()
        if suite == .engine || suite == .all {
            let selected = kinds?.split(separator: ",").map(String.init) ?? BenchSpecs.kinds
            for kind in selected where !BenchSpecs.kinds.contains(kind) {
                throw CommandError("unknown kind \"\(kind)\" in --kinds (known: \(BenchSpecs.kinds.joined(separator: ", ")))")
            }
            for kind in selected {
                note("engine: \(kind), \(count) items, \(runs) runs")
                output.engine.append(try spawn(["--child", "kind:\(kind)"], count: count, as: EngineBenchmark.Report.self))
            }
        }
        if suite == .store || suite == .all {
            note("store: \(count) elements, \(runs) runs\(noBaseline ? "" : ", with the per-element R*Tree baseline")")
            output.store = try spawn(["--child", "store"], count: count, as: StoreBenchmark.Report.self)
            note("store: \(count) items streamed from an NDJSON file")
            output.ndjson = try spawn(["--child", "ndjson"], count: count, as: NDJSONBenchmark.Report.self)
            note("store: incremental updates of a \(count)-item feed")
            output.updates = try spawn(["--child", "updates"], count: count, as: UpdateBenchmark.Report.self)
        }
        if suite == .postgres {
            guard let postgres else { throw CommandError("the postgres suite needs --postgres postgres://user@host:port/dbname") }
            #if PostgreSQL
            note("postgres: \(count) elements, \(runs) runs, on \(postgres.withPasswordRedacted)")
            let report = try spawn(["--child", "postgres", "--postgres", postgres], count: count, as: PostgresBenchmark.Report.self)
            print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            return
            #else
            throw CommandError("this build has no PostgreSQL backend: build with `swift build -c release --traits PostgreSQL`")
            #endif
        }
        if suite == .carousels {
            note("carousels: \(CarouselBenchmark.carousels) carousels, 20000 viewports with and without offsets, \(runs) runs")
            let report = try spawn(["--child", "carousels"], count: count, as: CarouselBenchmark.Report.self)
            print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            return
        }
        if suite == .tiles {
            note("tiles: a staggered feed of \(count) items at phone widths: tiles per viewport, bytes per element, tile and viewport reads, \(runs) runs")
            let report = try spawn(["--child", "tiles"], count: count, as: TileBenchmark.Report.self)
            print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            return
        }
        if suite == .floor {
            let names = FloorBenchmark.Figure.allCases.filter(floorFigures.contains).map(\.rawValue).joined(separator: ",")
            note("floor: \(names) (warm: 8 feeds × 8 widths of \(count) items beside the in-memory layout; first: \(smallFeeds) small feeds), \(runs) runs")
            let report = try spawn(
                ["--child", "floor", "--figures", names, "--feeds", String(smallFeeds)] + (tessera.map { ["--tessera", $0] } ?? []),
                count: count, as: FloorBenchmark.Report.self
            )
            print(json ? String(decoding: try JSONEncoder().encode(report), as: UTF8.self) : BenchTable.floor(report, runs: runs))
            return
        }
        if suite == .workers {
            let counts = try workerCounts()
            let feeds = givenFeeds ?? 20_000
            note("workers: \(feeds) feeds of 150–300 items at widths 390 and 430, on \(counts.map(String.init).joined(separator: ", ")) workers, \(runs) runs")
            let report = try spawn(["--child", "workers", "--feeds", String(feeds), "--jobs", counts.map(String.init).joined(separator: ",")], count: count, as: WorkersBenchmark.Report.self)
            print(json ? String(decoding: try JSONEncoder().encode(report), as: UTF8.self) : BenchTable.workers(report))
            return
        }
        if suite == .fleet {
            let feeds = givenFeeds ?? 100_000
            note("fleet: \(feeds) feeds of 150–300 items at widths 390 and 430, one run beside \(FleetBenchmark.shards) shards and their merge\(postgres == nil ? "" : ", and into PostgreSQL")")
            let report = try spawn(
                ["--child", "fleet", "--feeds", String(feeds)] + (tessera.map { ["--tessera", $0] } ?? []) + (postgres.map { ["--postgres", $0] } ?? []),
                count: count, as: FleetBenchmark.Report.self
            )
            print(json ? String(decoding: try JSONEncoder().encode(report), as: UTF8.self) : BenchTable.fleet(report))
            return
        }
        if suite == .features {
            note("features: warm viewports of a \(count)-item feed, plain, with breakpoints, right to left, \(runs) runs")
            let report = try spawn(["--child", "features"], count: count, as: QueryFeaturesBenchmark.Report.self)
            print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            return
        }
        if suite == .resize {
            note("resize: a \(count)-item feed at \(ResizeBenchmark.widths.count) widths, \(runs) runs")
            let report = try spawn(["--child", "resize"], count: count, as: ResizeBenchmark.Report.self)
            print(json ? String(decoding: try JSONEncoder().encode(report), as: UTF8.self) : BenchTable.resize(report, runs: runs))
            return
        }
        if suite == .serving || suite == .all {
            note("serving: \(ServingBenchmark.feeds) feeds × \(ServingBenchmark.widths.count) widths of \(count) elements")
            output.serving = try spawn(["--child", "serving"], count: count, as: ServingBenchmark.Report.self)
        }
        if suite == .feeds || suite == .all {
            note("feeds: \(feedCount) feeds of 150–300 items at widths 390 and 430, in batches")
            output.feeds = try spawn(["--child", "feeds"], count: feedCount, as: FeedsBenchmark.Report.self)
        }
        if json {
            print(String(decoding: try JSONEncoder().encode(output), as: UTF8.self))
        } else {
            print(BenchTable.render(output, count: count, runs: runs))
        }
    }

    private func runAsChild(_ child: String, count: Int, floorFigures: Set<FloorBenchmark.Figure>, smallFeeds: Int) async throws {
        let data: Data
        if child.hasPrefix("kind:") {
            data = try JSONEncoder().encode(EngineBenchmark(kind: String(child.dropFirst(5)), count: count, runs: runs).run())
        } else if child == "store" {
            data = try await JSONEncoder().encode(StoreBenchmark(count: count, runs: runs, directory: directory).run(baseline: !noBaseline))
        } else if child.hasPrefix("queries:") {
            // Profiling aid: only queries, against an existing store of "bench".
            let store = try LayoutStore(path: String(child.dropFirst(8)))
            let layout = try await store.layout(name: "bench", crossExtent: BenchSpecs.width).layout
            var random = BenchRandom(seed: 1)
            var samples = Samples()
            // TESSERA_BENCH_X moves the rect off the cells, to time everything but the blobs.
            let x = Double(ProcessInfo.processInfo.environment["TESSERA_BENCH_X"] ?? "0") ?? 0
            for _ in 0..<count {
                let viewport = Rect(x: x, y: random.unit() * max(0, layout.contentLength - 844), width: 390, height: 844)
                let start = now()
                _ = try await store.elements(name: "bench", crossExtent: layout.crossExtent, in: viewport)
                samples.add(now() - start)
            }
            data = Data(String(format: "p50 %.1f µs, p99 %.1f µs", samples.median * 1e6, samples.percentile(0.99) * 1e6).utf8)
        } else if child == "postgres" {
            #if PostgreSQL
            guard let postgres else { throw CommandError("the postgres suite needs --postgres") }
            data = try await JSONEncoder().encode(PostgresBenchmark(count: count, runs: runs, url: postgres, directory: directory).run())
            #else
            throw CommandError("this build has no PostgreSQL backend")
            #endif
        } else if child == "serving" {
            data = try await JSONEncoder().encode(ServingBenchmark(count: count, runs: runs, directory: directory).run())
        } else if child.hasPrefix("serving-load:") {
            try await ServingBenchmark.serveLoad(path: String(child.dropFirst(13)))
            return
        } else if child == "updates" {
            data = try await JSONEncoder().encode(UpdateBenchmark(count: count, runs: runs, directory: directory).run())
        } else if child == "resize" {
            data = try await JSONEncoder().encode(ResizeBenchmark(count: count, runs: runs, directory: directory).run())
        } else if child == "feeds" {
            data = try await JSONEncoder().encode(FeedsBenchmark(count: count, directory: directory).run())
        } else if child == "workers" {
            var workers = WorkersBenchmark(feeds: smallFeeds, jobs: try workerCounts(), runs: runs, directory: directory)
            workers.items = count
            data = try await JSONEncoder().encode(workers.run())
        } else if child == "fleet" {
            let executable = tessera.map { URL(fileURLWithPath: $0) } ?? Self.executable.deletingLastPathComponent().appendingPathComponent("tessera")
            data = try await JSONEncoder().encode(FleetBenchmark(feeds: smallFeeds, directory: directory, tessera: executable, postgres: postgres).run())
        } else if child == "features" {
            data = try await JSONEncoder().encode(QueryFeaturesBenchmark(count: count, queries: 20_000, runs: runs, directory: directory).run())
        } else if child == "carousels" {
            data = try await JSONEncoder().encode(CarouselBenchmark(queries: 20_000, runs: runs, directory: directory).run())
        } else if child == "floor" {
            let executable = tessera.map { URL(fileURLWithPath: $0) } ?? Self.executable.deletingLastPathComponent().appendingPathComponent("tessera")
            var floor = FloorBenchmark(count: count, runs: runs, directory: directory, tessera: executable)
            floor.figures = floorFigures
            floor.smallFeeds = smallFeeds
            data = try await JSONEncoder().encode(floor.run())
        } else if child == "tiles" {
            data = try await JSONEncoder().encode(TileBenchmark(count: count, queries: 2_000, runs: runs, directory: directory).run())
        } else if child == "ndjson" {
            data = try await JSONEncoder().encode(NDJSONBenchmark(count: count, directory: directory).run())
        } else {
            throw CommandError("unknown benchmark \(child)")
        }
        print(String(decoding: data, as: UTF8.self))
    }

    /// This program's own executable, which the measurements run as children.
    static var executable: URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    static func count(_ text: String, flag: String = "--size") throws -> Int {
        switch text.lowercased() {
        case "1m": return 1_000_000
        case "10m": return 10_000_000
        case "100k": return 100_000
        case "10k": return 10_000
        default:
            guard let count = Int(text), count > 0 else { throw CommandError("\(flag) must be 1m, 10m, 100k, 10k or a positive number, got \"\(text)\"") }
            return count
        }
    }

    /// `--jobs` as numbers of workers.
    private func workerCounts() throws -> [Int] {
        guard let jobs else { return Array(Set([1, LayoutStore.machineCores])).sorted() }
        return try jobs.split(separator: ",").map { text in
            guard let count = Int(text), (1...LayoutStore.maximumJobs).contains(count) else {
                throw CommandError("--jobs takes numbers of workers from 1 to \(LayoutStore.maximumJobs), comma-separated, got \"\(text)\"")
            }
            return count
        }
    }

    private func note(_ text: String) {
        if !json { printError("bench: " + text + "…") }
    }

    private func spawn<Report: Decodable>(_ arguments: [String], count: Int, as type: Report.Type) throws -> Report {
        let process = Process()
        process.executableURL = Self.executable
        var childArguments = [Self.configuration.commandName ?? "suites", "--size", String(count), "--runs", String(runs), "--directory", directory] + arguments
        if noBaseline { childArguments.append("--no-baseline") }
        process.arguments = childArguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError("the benchmark \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus))")
        }
        return try JSONDecoder().decode(Report.self, from: data)
    }
}

/// Everything one `tessera-bench` run of the suites measured.
struct BenchOutput: Codable {
    var engine: [EngineBenchmark.Report] = []
    var store: StoreBenchmark.Report?
    var ndjson: NDJSONBenchmark.Report?
    var updates: UpdateBenchmark.Report?
    var serving: ServingBenchmark.Report?
    var feeds: FeedsBenchmark.Report?
}
