import ArgumentParser
import Foundation
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

/// `tessera-bench first-queries`: the first viewport query of each of many
/// small feeds never read before (the feeds suite's feeds). A profiler
/// counts them as the difference between two runs on the same store
/// (`--feeds 2000` and `--feeds 200`): the queries run on Swift
/// concurrency's threads, below no function of this command's.
// Synchronous at the top: Valgrind 3.19 cannot run the async command path to its end.
struct FirstQueriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-queries",
        abstract: "Query each of many small stored feeds once, for a profiler to record.",
        discussion: "Writes the feeds suite's feeds feed-0... at --extent into --db first when it holds none, then opens the store as tessera-server does."
    )

    @Option(help: "The store (a SQLite file; written first when missing).")
    var db: String

    @Option(help: "Feeds stored and queried once each.")
    var feeds = 2_000

    @Option(help: "The feeds' width.")
    var extent = 390.0

    @Option(help: "Query only this stored spec instead, --feeds times, each in the store opened anew.")
    var name: String?

    func validate() throws {
        guard (1...1_000_000).contains(feeds) else { throw ValidationError("--feeds must be from 1 to 1000000, got \(feeds)") }
        guard FeedsBenchmark.widths.contains(extent) else {
            throw ValidationError("--extent must be one of the feeds suite's widths \(FeedsBenchmark.widths), got \(extent)")
        }
    }

    func run() throws {
        if !FileManager.default.fileExists(atPath: db) { try write() }
        var total = 0
        var seconds = 0.0
        for names in name.map({ name in (0..<feeds).map { _ in [name] } }) ?? [(0..<feeds).map { "feed-\($0)" }] {
            let (db, extent) = (db, extent)
            let store = try waitForAsync { try await LayoutStore.open(db: db, requireExisting: true) }
            defer { store.close() }
            let started = Date()
            total += try waitForAsync { try await Self.firstQueries(store, names: names, extent: extent) }
            seconds += Date().timeIntervalSince(started)
        }
        print("\(total) elements in \(feeds) first queries, \(String(format: "%.1f", seconds / Double(feeds) * 1e6)) µs each")
    }

    /// Stores the feeds.
    private func write() throws {
        let writer = try LayoutStore(path: db)
        defer { writer.close() }
        let (feeds, extent) = (feeds, extent)
        let report = try waitForAsync { try await writer.saveBatch((0..<feeds).lazy.map(FeedsBenchmark.feed), crossExtents: [extent]) }
        guard report.saved == feeds else { throw CommandError("saved \(report.saved) of \(feeds) feeds into \(db)") }
        try waitForAsync { await writer.finishBackgroundWork() }
    }

    /// The queries: the first screen of each name once.
    @inline(never)
    static func firstQueries(_ store: LayoutStore, names: [String], extent: Double) async throws -> Int {
        var total = 0
        let viewport = Rect(x: 0, y: 0, width: extent, height: 844)
        for name in names {
            total += try await store.visibleElements(name: name, crossExtent: extent, viewport: viewport, computeIfMissing: false).count
        }
        return total
    }
}
