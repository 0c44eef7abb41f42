import Foundation
import Testing
import TesseraBackends
import TesseraLayout
import TesseraStore
import TesseraTestSupport

/// The same commands on a SQLite file and on a PostgreSQL URL print the same
/// answers: `--db` selects the backend, nothing else changes. Needs
/// `tessera` built with the trait PostgreSQL (`swift test --traits PostgreSQL`).
@Suite("tessera on PostgreSQL: --db postgres://… answers as --db FILE does")
struct PostgresCLITests {
    static let spec = #"""
    {"format": 1, "name": "feed", "sections": [
      {"id": "top", "layout": {"kind": "flow", "itemSpacing": 4}, "header": {"size": 30, "pinned": true}, "items": [{"size": [100, 40]}, {"size": [120, 40]}]},
      {"id": "grid", "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 600, "cycle": [{}]}},
      {"id": "bricks", "layout": {"kind": "staggered", "columns": 2}, "items": {"count": 300, "cycle": [{"size": [10, 14]}, {"size": [10, 9]}]}}]}
    """#

    /// Runs `arguments` with `--db` set to each store; returns both outputs.
    private func both(_ arguments: [String], file: String, url: String) throws -> (sqlite: CLIRunner.Output, postgres: CLIRunner.Output) {
        (try CLIRunner.run(arguments + ["--db", file]), try CLIRunner.run(arguments + ["--db", url]))
    }

    @Test("precompute, query, item, append, invalidate, check and prune print the same on both backends")
    func sameAnswers() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        // Migrated here, awaited: a child that migrated it would wait for the database's migration lock, which another
        // test's store may hold while blocking waits (this suite's among them) occupy every thread of the cooperative pool.
        try await LayoutStore.open(db: url).close()
        try await CLIRunner.inTemporaryDirectory { directory in
            let specPath = try CLIRunner.file("feed.json", in: directory, Self.spec)
            let file = directory.appendingPathComponent("feed.sqlite").path

            let precompute = try both(["precompute", specPath, "--width", "390", "--width", "820"], file: file, url: url)
            #expect(precompute.sqlite.status == 0, "\(precompute.sqlite.stderr)")
            #expect(precompute.postgres.status == 0, "\(precompute.postgres.stderr)")
            // The summary lines agree up to their timings and the store's name.
            let summary = { (output: CLIRunner.Output) in
                output.stdout.split(separator: "\n").filter { !$0.hasPrefix("stored in ") }
                    .map { $0.replacing(/[0-9.]+s\b/, with: "_s") }
            }
            #expect(summary(precompute.postgres) == summary(precompute.sqlite))

            for arguments in [
                ["query", "--name", "feed", "--width", "390", "--viewport", "0,20,390,844", "--format", "json"],
                ["query", "--name", "feed", "--width", "820", "--rect", "0,5000,820,900", "--format", "ndjson"],
                ["item", "--name", "feed", "--width", "390", "--section", "2", "--item", "17", "--format", "json"],
            ] {
                let (sqlite, postgres) = try both(arguments, file: file, url: url)
                #expect(sqlite.status == 0 && postgres.status == 0, "\(postgres.stderr)")
                #expect(postgres.stdout == sqlite.stdout, "\(arguments)")
                #expect(!postgres.stdout.isEmpty)
            }

            let items = try CLIRunner.file("more.ndjson", in: directory, "{\"size\": [50, 60]}\n{\"size\": [70, 20]}\n")
            let append = try both(["append", "--name", "feed", "--section", "0", items], file: file, url: url)
            #expect(append.postgres.status == 0, "\(append.postgres.stderr)")
            #expect(summary(append.postgres) == summary(append.sqlite))
            let after = try both(["query", "--name", "feed", "--width", "390", "--viewport", "0,0,390,844", "--format", "json"], file: file, url: url)
            #expect(after.postgres.stdout == after.sqlite.stdout)

            let invalidate = try both(["invalidate", "--name", "feed", "--width", "820"], file: file, url: url)
            #expect(invalidate.postgres.stdout == "1 layout of \"feed\" marked stale\n")
            #expect(invalidate.postgres.stdout == invalidate.sqlite.stdout)
            let check = try both(["check"], file: file, url: url)
            #expect(check.postgres.status == 0, "\(check.postgres.stdout)\(check.postgres.stderr)")
            #expect(check.postgres.stdout == check.sqlite.stdout)
            let prune = try both(["prune"], file: file, url: url)
            #expect(prune.postgres.stdout.hasPrefix("deleted 1 stale layout; "), "\(prune.postgres.stdout)")
            let list = try CLIRunner.run(["list", "--db", url])
            #expect(list.status == 0 && list.stdout.contains("feed"), "\(list.stderr)")
        }
    }

    @Test("a read command never creates a PostgreSQL store; a bad URL is named")
    func refusals() async throws {
        let missing = try PostgresTestServer.freshStoreURL()
        let query = try CLIRunner.run(["query", "--db", missing, "--name", "feed", "--width", "390", "--rect", "0,0,10,10"])
        #expect(query.status != 0)
        #expect(query.stderr.contains("no store at"), "\(query.stderr)")
        // Still none: the failed read created nothing.
        #expect(try CLIRunner.run(["list", "--db", missing]).stderr.contains("no store at"))

        let badPort = try CLIRunner.run(["list", "--db", "postgres://user@127.0.0.1:99999/db"])
        #expect(badPort.status != 0)
        #expect(badPort.stderr.contains("a port is a number from 1 to 65535"), "\(badPort.stderr)")
        let secret = try CLIRunner.run(["list", "--db", "postgres://user:hunter2@127.0.0.1:1/db"])
        #expect(secret.status != 0)
        #expect(!secret.stderr.contains("hunter2"), "the password appears in \(secret.stderr)")
        #expect(secret.stderr.contains("cannot connect"), "\(secret.stderr)")
    }
}
