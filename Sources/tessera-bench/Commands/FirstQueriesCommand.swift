import ArgumentParser
import Foundation
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

/// `tessera-bench first-queries`: the first viewport query of each of many
/// small feeds never read before (the feeds suite's feeds), in `firstQueries`,
/// where a profiler can record them alone. `--scattered` queries them as the
/// floor suite's first-query figure does: every feed at both widths, in a
/// seeded random order, each at a random height.
// Synchronous at the top: Valgrind 3.19 cannot run the async command path to its end.
struct FirstQueriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-queries",
        abstract: "Query each of many small stored feeds once, for a profiler to record.",
        discussion: "Writes the feeds suite's feeds feed-0... at --extent (at both of its widths with --scattered) into --db first when it holds none, then opens the store as tessera-server does."
    )

    @Option(help: "The store (a SQLite file; written first when missing).")
    var db: String

    @Option(help: "Feeds stored and queried once each.")
    var feeds = 2_000

    @Option(help: "The feeds' width.")
    var extent = 390.0

    @Option(help: "Query only this stored spec instead, --feeds times, each in the store opened anew.")
    var name: String?

    @Flag(help: "Query --feeds layouts of the feeds at both of the feeds suite's widths, in random order, each at a random height, as the floor suite does (the store holds both widths).")
    var scattered = false

    func validate() throws {
        guard (1...1_000_000).contains(feeds) else { throw ValidationError("--feeds must be from 1 to 1000000, got \(feeds)") }
        guard !scattered || name == nil else { throw ValidationError("--scattered queries the feeds suite's feeds: leave out --name") }
        guard FeedsBenchmark.widths.contains(extent) else {
            throw ValidationError("--extent must be one of the feeds suite's widths \(FeedsBenchmark.widths), got \(extent)")
        }
    }

    func run() throws {
        if !FileManager.default.fileExists(atPath: db) { try write() }
        var total = 0
        var seconds = 0.0
        for names in name.map({ name in (0..<feeds).map { _ in [name] } }) ?? [(0..<feeds).map { "feed-\($0)" }] {
            let (db, extent, scattered) = (db, extent, scattered)
            let store = try waitForAsync { try await LayoutStore.open(db: db, requireExisting: true) }
            defer { store.close() }
            let queries = try waitForAsync {
                scattered ? try await Self.scattered(store, count: names.count) : names.map { ($0, extent, Rect(x: 0, y: 0, width: extent, height: 844)) }
            }
            let started = Date()
            total += try waitForAsync { try await Self.firstQueries(store, queries: queries) }
            seconds += Date().timeIntervalSince(started)
        }
        print("\(total) elements in \(feeds) first queries, \(String(format: "%.1f", seconds / Double(feeds) * 1e6)) µs each")
    }

    /// `count` layouts of the stored feeds, as the floor suite picks them (the same seed).
    private static func scattered(_ store: LayoutStore, count: Int) async throws -> [(String, Double, Rect)] {
        var random = BenchRandom(seed: 31)
        return FeedsBenchmark.scatteredViewports(feeds: count, count: count, lengths: try await FeedsBenchmark.contentLengths(of: store), random: &random)
    }

    /// Stores the feeds.
    private func write() throws {
        let writer = try LayoutStore(path: db)
        defer { writer.close() }
        let (feeds, extent) = (feeds, extent)
        let extents = scattered ? FeedsBenchmark.widths : [extent]
        let report = try waitForAsync { try await writer.saveBatch((0..<feeds).lazy.map(FeedsBenchmark.feed), crossExtents: extents) }
        guard report.saved == feeds else { throw CommandError("saved \(report.saved) of \(feeds) feeds into \(db)") }
        try waitForAsync { await writer.finishBackgroundWork() }
    }

    /// The queries: each layout's viewport once.
    @inline(never)
    static func firstQueries(_ store: LayoutStore, queries: [(name: String, extent: Double, viewport: Rect)]) async throws -> Int {
        var total = 0
        for query in queries {
            total += try await store.visibleElements(name: query.name, crossExtent: query.extent, viewport: query.viewport, computeIfMissing: false).count
        }
        return total
    }
}
