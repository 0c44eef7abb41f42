import Foundation
import TesseraStore
import Testing
import TesseraLayout
import TesseraSQLite

/// `tessera merge --into STORE SHARD…`: shards of a file of specs, merged,
/// answer as one run; conflicts and usage errors are one line.
@Suite("tessera merge, end to end")
struct MergeCommandTests {
    static func contents(_ database: String) async throws -> [String] {
        try await FleetArticleTests.contents(database)
    }

    @Test("four shards precomputed with --shard and merged answer as one run of the whole file")
    func shardsAndMerge() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let lines = (0..<60).map { PrecomputeSpecsTests.line("feed-\($0)", fraction: 2 + $0 % 4, spacing: $0 % 3, items: 4 + 5 * $0) }
            let file = try CLIRunner.file("feeds.ndjson", in: directory, lines.joined(separator: "\n"))
            let one = directory.appendingPathComponent("one.sqlite").path
            #expect(try CLIRunner.run(["precompute", "--specs", file, "--db", one, "--width", "390", "--width", "430", "--quiet"]).status == 0)
            var shards: [String] = []
            for index in 0..<4 {
                let shard = directory.appendingPathComponent("shard-\(index).sqlite").path
                let run = try CLIRunner.run(["precompute", "--specs", file, "--db", shard, "--width", "390", "--width", "430", "--quiet", "--shard", "\(index)/4"])
                #expect(run.status == 0, "\(run.stderr)")
                shards.append(shard)
            }
            let merged = directory.appendingPathComponent("merged.sqlite").path
            let output = try CLIRunner.run(["merge", "--into", merged] + shards)
            #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
            #expect(output.stdout.hasPrefix("merged 4 stores into \(merged): 60 specs added, 0 replaced, 0 already stored; 120 layouts, "), "\(output.stdout)")
            #expect(output.stdout.hasSuffix(" MB/s)\n"), "\(output.stdout)")
            #expect(try await Self.contents(merged) == Self.contents(one))
            let check = try CLIRunner.run(["check", "--db", merged])
            #expect(check.status == 0 && check.stdout.hasSuffix("no problems\n"), "\(check.stdout)")
            // Progress lines without a terminal: specs done of all, to 100%.
            let counted = directory.appendingPathComponent("counted.sqlite").path
            let counting = try CLIRunner.run(["merge", "--into", counted, "--progress-every", "0"] + shards)
            #expect(counting.status == 0 && counting.stdout.hasPrefix("merged 4 stores into \(counted): 60 specs added"), "\(counting.stdout)")
            let progress = counting.stderr.split(separator: "\n").map(String.init)
            #expect(progress.count == 60 && progress.allSatisfy { $0.hasPrefix("merge: ") }, "\(counting.stderr)")
            #expect(progress.last?.hasPrefix("merge: 60 specs, ") == true && progress.last?.contains(" 100% ETA 0.0s") == true, "\(progress.last ?? "")")
            // Merged again: every spec is already there, nothing changes.
            let again = try CLIRunner.run(["merge", "--into", merged, shards[2], "--quiet"])
            #expect(again.status == 0 && again.stdout.isEmpty)
            #expect(try await Self.contents(merged) == Self.contents(one))
        }
    }

    @Test("a name with other content in two shards fails with one line and changes nothing; --replace takes the later")
    func conflict() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let first = try CLIRunner.file("first.ndjson", in: directory, PrecomputeSpecsTests.line("home", items: 10))
            let second = try CLIRunner.file("second.ndjson", in: directory, PrecomputeSpecsTests.line("home", items: 20))
            let a = directory.appendingPathComponent("a.sqlite").path
            let b = directory.appendingPathComponent("b.sqlite").path
            #expect(try CLIRunner.run(["precompute", "--specs", first, "--db", a, "--width", "390", "--quiet"]).status == 0)
            #expect(try CLIRunner.run(["precompute", "--specs", second, "--db", b, "--width", "390", "--quiet"]).status == 0)
            let target = directory.appendingPathComponent("target.sqlite").path
            let failed = try CLIRunner.failure(["merge", "--into", target, a, b])
            #expect(failed == "error: the spec \"home\" of '\(b)' differs from the one already merged or stored under that name; "
                + "nothing was merged (replace it to keep the later)")
            // The store this merge would have created is not left behind.
            #expect(!FileManager.default.fileExists(atPath: target))
            let replaced = try CLIRunner.run(["merge", "--into", target, a, b, "--replace"])
            #expect(replaced.status == 0)
            #expect(replaced.stdout.hasPrefix("merged 2 stores into \(target): 1 spec added, 1 replaced, 0 already stored; 2 layouts, "), "\(replaced.stdout)")
            #expect(try await Self.contents(target) == Self.contents(b))
        }
    }

    @Test("usage errors and missing shards are one line")
    func usageErrors() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let target = directory.appendingPathComponent("target.sqlite").path
            let none = try CLIRunner.failure(["merge", "--into", target])
            #expect(none == "error: give the stores to merge from: tessera merge --into STORE SHARD… (see 'tessera merge --help')")
            let missing = try CLIRunner.failure(["merge", "--into", target, "nope.sqlite"], in: directory)
            #expect(missing == "error: no store at 'nope.sqlite': check the path (precompute creates a store)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }
}
