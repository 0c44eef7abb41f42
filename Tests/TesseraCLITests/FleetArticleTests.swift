import Foundation
import Testing
import TesseraBackends
import TesseraLayout
import TesseraStore
import TesseraTestSupport

/// TesseraStore's article "Precomputing at fleet scale", run: its `sh`
/// blocks as written, with four shards (JOB_COMPLETION_INDEX 0 to 3) and a
/// PostgreSQL store of the test server's for the article's URL; the stores
/// the three recipes make answer alike.
@Suite("Precomputing at fleet scale: the article's recipes, run", .timeLimit(.minutes(5)))
struct FleetArticleTests {
    static let article = ReadmeTests.document("Sources/TesseraPrecompute/TesseraPrecompute.docc/PrecomputingAtFleetScale.md")
    static let articleURL = "postgres://tessera@db.internal/feeds"

    /// Runs `block` with bash in `folder`, the built `tessera` first on PATH; its status and output.
    static func run(_ block: String, in folder: URL, environment extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", "/bin/bash", "-euo", "pipefail", "-c", block]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = CLIRunner.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment.merge(extra) { $1 }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Every spec with its content hash, and every layout's elements.
    static func contents(_ db: String) async throws -> [String] {
        let store = try await LayoutStore.open(db: db, requireExisting: true)
        defer { store.close() }
        var lines = try await store.specs().map { "\($0.name) \($0.contentHash)" }
        for layout in try await store.layouts() {
            let elements = try await store.elements(name: layout.specName, crossExtent: layout.crossExtent, in: Rect(x: 0, y: 0, width: 500, height: 1e7))
            lines.append("\(layout.specName)@\(layout.crossExtent) \(layout.state) \(elements)")
        }
        return lines
    }

    @Test("one machine, four shards and a merge, a shard run again, and four shards into PostgreSQL store the same feeds")
    func recipes() async throws {
        let blocks = fencedBlocks("sh", in: Self.article).map { $0.joined(separator: "\n") + "\n" }
        try #require(blocks.count == 5, "the article's blocks changed: \(blocks.count) sh blocks")
        try await CLIRunner.inTemporaryDirectory { folder in
            let lines = (0..<48).map { index in
                #"{"format": 1, "name": "user-\#(index)", "sections": [{"layout": {"kind": "staggered", "columns": \#(2 + index % 2)}, "#
                    + #""header": {"size": 44, "pinned": true}, "items": {"count": \#(20 + 9 * index), "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.4}]}}]}"#
            }
            _ = try CLIRunner.file("feeds.ndjson", in: folder, lines.joined(separator: "\n") + "\n")

            let one = try Self.run(blocks[0], in: folder)
            #expect(one.status == 0, "\(blocks[0])\(one.output)")
            try FileManager.default.copyItem(at: folder.appendingPathComponent("feeds.sqlite"), to: folder.appendingPathComponent("one.sqlite"))
            let expected = try await Self.contents(folder.appendingPathComponent("one.sqlite").path)
            #expect(expected.count == 48 * 3)

            for index in 0..<4 {
                let shard = try Self.run(blocks[1], in: folder, environment: ["JOB_COMPLETION_INDEX": "\(index)"])
                #expect(shard.status == 0, "\(blocks[1])\(shard.output)")
            }
            let merged = try Self.run(blocks[2], in: folder)
            #expect(merged.status == 0, "\(blocks[2])\(merged.output)")
            #expect(merged.output.contains("merged 4 stores into feeds.next.sqlite: 48 specs added"), "\(merged.output)")
            #expect(try await Self.contents(folder.appendingPathComponent("feeds.sqlite").path) == expected)

            // Shard 2 again: everything it holds is unchanged.
            let shard2 = folder.appendingPathComponent("shard-2.sqlite").path
            let before = try await Self.contents(shard2)
            let again = try Self.run(blocks[3], in: folder)
            #expect(again.status == 0 && again.output.contains("saved 0, unchanged \(before.count / 3),"), "\(again.output)")
            #expect(try await Self.contents(shard2) == before)

            let url = try PostgresTestServer.freshStoreURL()
            // Migrated here, awaited: a child that migrated it would wait for the database's migration lock, which another
            // test's store may hold while blocking waits (this suite's among them) occupy every thread of the cooperative pool.
            try await LayoutStore.open(db: url).close()
            for index in 0..<4 {
                let block = blocks[4].replacingOccurrences(of: Self.articleURL, with: url)
                let shard = try Self.run(block, in: folder, environment: ["JOB_COMPLETION_INDEX": "\(index)"])
                #expect(shard.status == 0, "\(block)\(shard.output)")
            }
            #expect(try await Self.contents(url) == expected)
        }
    }
}
