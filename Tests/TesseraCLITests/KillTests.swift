import Foundation
import TesseraStore
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("a precompute killed with SIGKILL")
struct KillTests {
    @Test("leaves the previous spec and layout intact and the file consistent")
    func killMidway() async throws {
        try await killDuring(
            before: #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1000, "cycle": [{}]}}]}"#
        ) { directory, database in
            let large = directory.appendingPathComponent("large.json")
            try #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 3000000, "cycle": [{}]}}]}"#
                .write(to: large, atomically: true, encoding: .utf8)
            return ["precompute", large.path, "--db", database, "--width", "390", "--quiet"]
        }
    }

    @Test("in an incremental update of two widths leaves both previous layouts intact: an update is one transaction")
    func killMidwayThroughUpdate() async throws {
        // Section "b" changes and grows to 3M items; "a" and "c" would be kept and shifted.
        try await killDuring(
            before: #"{"format": 1, "name": "feed", "sections": [{"id": "a", "layout": {"kind": "flow"}, "items": {"count": 500, "cycle": [{"size": [60, 40]}]}}, {"id": "b", "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1000, "cycle": [{}]}}, {"id": "c", "layout": {"kind": "staggered", "columns": 2}, "items": {"count": 700, "cycle": [{"aspectRatio": 0.8}]}}]}"#,
            widths: [390, 820]
        ) { directory, database in
            let large = directory.appendingPathComponent("large.json")
            try #"{"format": 1, "name": "feed", "sections": [{"id": "a", "layout": {"kind": "flow"}, "items": {"count": 500, "cycle": [{"size": [60, 40]}]}}, {"id": "b", "layout": {"kind": "grid", "fraction": 4}, "items": {"count": 3000000, "cycle": [{}]}}, {"id": "c", "layout": {"kind": "staggered", "columns": 2}, "items": {"count": 700, "cycle": [{"aspectRatio": 0.8}]}}]}"#
                .write(to: large, atomically: true, encoding: .utf8)
            return ["precompute", large.path, "--db", database, "--width", "390", "--quiet"]
        }
    }

    @Test("in an append leaves the previous layout intact")
    func killMidwayThroughAppend() async throws {
        try await killDuring(
            before: #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "staggered", "columns": 3}, "items": {"count": 1000, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}]}}]}"#
        ) { directory, database in try Self.appendOfManyItems(directory: directory, database: database) }
    }

    @Test("in an append to a section that already had items appended leaves its earlier runs and the previous layout intact")
    func killMidwayThroughLaterAppend() async throws {
        try await killDuring(
            before: #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "staggered", "columns": 3}, "items": {"count": 1000, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}]}}]}"#,
            appendsFirst: 3
        ) { directory, database in try Self.appendOfManyItems(directory: directory, database: database) }
    }

    @Test("in a merge leaves the store as it was: a merge is one transaction")
    func killMidwayThroughMerge() async throws {
        try await killDuring(
            before: #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1000, "cycle": [{}]}}]}"#
        ) { directory, database in
            let large = directory.appendingPathComponent("large.json")
            try #"{"format": 1, "name": "big", "sections": [{"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 600000, "cycle": [{}]}}]}"#
                .write(to: large, atomically: true, encoding: .utf8)
            let shard = directory.appendingPathComponent("shard.sqlite").path
            let made = try CLIRunner.run(["precompute", large.path, "--db", shard, "--width", "390", "--width", "430", "--quiet"])
            #expect(made.status == 0, "\(made.stderr)")
            return ["merge", "--into", database, shard, "--quiet"]
        }
    }

    /// Writes 300,000 items as NDJSON beside the store, and returns the
    /// `tessera append` of them to section 0 of `feed`: long enough to be
    /// killed in the middle of its write.
    private static func appendOfManyItems(directory: URL, database: String) throws -> [String] {
        let items = directory.appendingPathComponent("more.ndjson")
        let line = Data("{\"aspectRatio\": 0.8}\n".utf8)
        var lines = Data(capacity: line.count * 300_000)
        for _ in 0..<300_000 { lines.append(line) }
        try lines.write(to: items)
        return ["append", "--db", database, "--name", "feed", "--section", "0", items.path]
    }

    /// Stores `before` at `widths` (then appends 100 items to its section 0
    /// `appendsFirst` times), runs the command `killed` returns, kills
    /// it with SIGKILL in the middle of its write, and checks that the file
    /// is consistent and every layout is still the one of `before`.
    private func killDuring(
        before: String,
        widths: [Double] = [390],
        appendsFirst: Int = 0,
        killed: (_ directory: URL, _ database: String) throws -> [String]
    ) async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("feed.sqlite").path
        let small = directory.appendingPathComponent("small.json")
        try before.write(to: small, atomically: true, encoding: .utf8)
        let first = try CLIRunner.run(["precompute", small.path, "--db", database, "--quiet"] + widths.flatMap { ["--width", "\($0)"] })
        #expect(first.status == 0, "\(first.stderr)")
        var spec = try Spec(contentsOfFile: small.path)
        let few = directory.appendingPathComponent("few.ndjson")
        try String(repeating: "{\"aspectRatio\": 1.25}\n", count: 100).write(to: few, atomically: true, encoding: .utf8)
        for _ in 0..<appendsFirst {
            let append = try CLIRunner.run(["append", "--db", database, "--name", "feed", "--section", "0", few.path, "--quiet"])
            #expect(append.status == 0, "\(append.stderr)")
            spec.sections[0].items = spec.sections[0].items.appending(Array(repeating: Item(aspectRatio: 1.25), count: 100))
        }
        let expected = try widths.map { try LayoutEngine().layout(spec, crossExtent: $0).elements }

        let process = try CLIRunner.start(try killed(directory, database))
        #expect(CLIRunner.waitUntilWriting(process, database: database, bytes: 2_000_000), "the command finished before it wrote")
        #expect(process.isRunning, "the command finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let connection = try Connection(path: database, mode: .readOnly, options: .store)
        let integrity = try connection.prepare("PRAGMA integrity_check")
        #expect(try integrity.step())
        #expect(integrity.text(at: 0) == "ok")
        let rtree = try connection.prepare("SELECT rtreecheck('cell_groups_rtree')")
        #expect(try rtree.step())
        #expect(rtree.text(at: 0) == "ok")
        connection.close()

        let store = try LayoutStore(path: database)
        #expect(try await store.spec(named: "feed")?.canonicalText == spec.canonicalText)
        let layouts = try await store.layouts()
        #expect(layouts.map(\.crossExtent) == widths)
        for (width, elements) in zip(widths, expected) {
            let layout = layouts.first { $0.crossExtent == width }
            #expect(layout?.state == .fresh)
            #expect(layout?.cellCount == elements.filter { $0.kind == .cell }.count)
            #expect(try await store.elements(name: "feed", crossExtent: width, in: Rect(x: 0, y: 0, width: width, height: 1e9)) == elements)
        }
    }
}
