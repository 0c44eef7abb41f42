import Foundation
import Testing

/// `--db` names a store file or a URL: a FIFO, a device or a folder is
/// refused by name before SQLite opens it, by every command, at once.
@Suite("--db: a FIFO, a device or a folder is refused by every command before it is opened")
struct DatabasePathTests {
    /// Every command that takes `--db`, with `db` as its store.
    static func commands(db: String, in directory: URL) throws -> [[String]] {
        let items = try CLIRunner.file("items.ndjson", in: directory, "{\"size\": [10, 10]}\n")
        let spec = CLIRunner.repository.appendingPathComponent("Examples/grid.json").path
        let specs = CLIRunner.repository.appendingPathComponent("Examples/shop-feeds.ndjson").path
        return [
            ["list", "--db", db],
            ["query", "--db", db, "--name", "feed", "--width", "390", "--rect", "0,0,10,10"],
            ["item", "--db", db, "--name", "feed", "--width", "390", "--section", "0", "--item", "0"],
            ["invalidate", "--db", db, "--name", "feed"],
            ["prune", "--db", db],
            ["append", "--db", db, "--name", "feed", "--section", "0", items],
            ["render", "--db", db, "--name", "feed", "--width", "390", "--out", directory.appendingPathComponent("out.svg").path],
            ["check", "--db", db],
            ["export", "--db", db, "--out", directory.appendingPathComponent("copy.sqlite").path],
            ["precompute", spec, "--db", db, "--width", "390"],
            ["precompute", "--specs", specs, "--db", db, "--width", "390"],
        ]
    }

    @Test("a FIFO, /dev/null and a folder as --db: one line naming it, for every command, without waiting on it")
    func refusedByKind() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let fifo = directory.appendingPathComponent("store.fifo").path
            try #require(mkfifo(fifo, 0o644) == 0)
            let folder = directory.appendingPathComponent("folder").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            for (db, kind) in [(fifo, "a FIFO"), ("/dev/null", "a device"), (folder, "a directory")] {
                for arguments in try Self.commands(db: db, in: directory) {
                    let line = try CLIRunner.boundedFailure(arguments, seconds: 20)
                    #expect(line == "error: '\(db)' is \(kind), not a store file: --db takes a SQLite file or a postgres:// URL", "\(arguments)")
                }
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(left == ["folder", "items.ndjson", "store.fifo"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    @Test("a --db that does not exist yet is still created by precompute")
    func missingStillCreated() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("new.sqlite").path
            let spec = CLIRunner.repository.appendingPathComponent("Examples/grid.json").path
            let output = try CLIRunner.runBounded(["precompute", spec, "--db", database, "--width", "390", "--quiet"], seconds: 60)
            #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
            #expect(FileManager.default.fileExists(atPath: database))
        }
    }
}
