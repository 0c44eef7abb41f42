import ArgumentParser
import Foundation
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// `tessera-bench appends`: the serving suite's append (1,000 items to the
/// last section of a stored feed at one width), many times in a row, for a
/// sampling profiler to record (`perf record -g`).
struct AppendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appends",
        abstract: "Append to one stored feed many times, for a profiler to record.",
        discussion: "Writes the serving suite's feed of --size items at 390 into --db first when it is missing."
    )

    @Option(help: "The store (a SQLite file; written first when missing).")
    var db: String

    @Option(help: "Items in the stored feed.")
    var size = 150_000

    @Option(help: "Appends of 1,000 items each.")
    var appends = 200

    func validate() throws {
        guard (1...10_000_000).contains(size) else { throw ValidationError("--size must be from 1 to 10000000, got \(size)") }
        guard (1...100_000).contains(appends) else { throw ValidationError("--appends must be from 1 to 100000, got \(appends)") }
    }

    func run() async throws {
        let spec = try StoreBenchmark.spec(count: size)
        let store = try LayoutStore(path: db)
        defer { store.close() }
        let (appends, last) = (appends, spec.sections.count - 1)
        let items = (0..<1000).map { _ in Item() }
        if try await store.layouts().isEmpty { try await store.save(spec, as: "appendable", crossExtents: [390]) }
        await store.finishBackgroundWork()
        let started = Date()
        for _ in 0..<appends { try await store.append(name: "appendable", section: last, items: items) }
        let seconds = Date().timeIntervalSince(started)
        print("\(appends) appends, \(String(format: "%.1f", seconds / Double(appends) * 1e6)) µs each")
    }
}
