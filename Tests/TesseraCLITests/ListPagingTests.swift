import Foundation
import Testing

/// `tessera list --limit N --after NAME`: the listing a page at a time, as
/// `GET /v1/feeds` gives it; a plain `tessera list` gives every spec.
@Suite("tessera list by pages")
struct ListPagingTests {
    /// A store of `count` small specs, 2,500 by default: more than one of
    /// the pages a plain `tessera list` reads and prints at a time.
    static func store(in directory: URL, count: Int = 2_500) throws -> (path: String, names: [String]) {
        let names = (0..<count).map { "s-" + String(100_000 + $0).dropFirst() }
        let lines = names.map { #"{"format": 1, "name": "\#($0)", "sections": [{"layout": {"kind": "grid", "fraction": 1}, "items": {"count": 2, "cycle": [{}]}}]}"# }
        let file = try CLIRunner.file("specs.ndjson", in: directory, lines.joined(separator: "\n"))
        let database = directory.appendingPathComponent("specs.sqlite").path
        let made = try CLIRunner.run(["precompute", "--specs", file, "--db", database, "--width", "320"])
        #expect(made.status == 0, "\(made.stderr)")
        return (database, names)
    }

    static func object(_ output: CLIRunner.Output) throws -> [String: Any] {
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    static func names(_ object: [String: Any]) -> [String] {
        (object["specs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test("pages of --limit after --after concatenate to the whole list; json's next is null on the last")
    func pages() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let (database, names) = try Self.store(in: directory)
            let plain = try CLIRunner.run(["list", "--db", database, "--format", "json"])
            let whole = try Self.object(plain)
            #expect(Self.names(whole) == names && whole["next"] == nil)
            // The plain list is the largest page without its "next".
            let largest = try CLIRunner.run(["list", "--db", database, "--format", "json", "--limit", "10000"])
            #expect(largest.stdout == plain.stdout.dropLast("]}\n".count) + "], \"next\": null}\n")
            var listed: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let page = try Self.object(try CLIRunner.run(["list", "--db", database, "--format", "json", "--limit", "900"] + (after.map { ["--after", $0] } ?? [])))
                let pageNames = Self.names(page)
                #expect(pageNames.count <= 900)
                listed += pageNames
                after = page["next"] as? String
                #expect(page["next"] is NSNull || after == pageNames.last)
                pages += 1
            } while after != nil && pages < 10
            #expect(listed == names && pages == 3)
            // --after alone: the default page of 1,000 after a name that need not be stored.
            let rest = try Self.object(try CLIRunner.run(["list", "--db", database, "--format", "json", "--after", "s-00499x"]))
            #expect(Self.names(rest) == Array(names[500..<1_500]) && rest["next"] as? String == names[1_499])
        }
    }

    @Test("ndjson: a plain list has every layout's line; a page's next goes to standard error; --limit out of range is refused")
    func ndjsonAndLimits() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let (database, names) = try Self.store(in: directory)
            let plain = try CLIRunner.run(["list", "--db", database, "--format", "ndjson"])
            #expect(plain.status == 0 && plain.stderr.isEmpty)
            let lines = plain.stdout.split(separator: "\n")
            #expect(lines.count == names.count && plain.stdout.hasSuffix("}\n"))
            #expect(lines.first?.contains(#""name": "s-00000""#) == true && lines.last?.contains(#""name": "s-02499""#) == true)
            let page = try CLIRunner.run(["list", "--db", database, "--format", "ndjson", "--limit", "2", "--after", "s-00010"])
            #expect(page.status == 0 && page.stdout.split(separator: "\n").count == 2)
            #expect(page.stderr == "more specs follow: list them with --after \"s-00012\"\n")
            let last = try CLIRunner.run(["list", "--db", database, "--format", "ndjson", "--limit", "2", "--after", "s-02497"])
            #expect(last.status == 0 && last.stderr.isEmpty && last.stdout.split(separator: "\n").count == 2)
            for limit in ["0", "10001", "-3"] {
                let failure = try CLIRunner.failure(["list", "--db", database, "--limit", limit])
                #expect(failure.contains("--limit"), "\(failure)")
            }
        }
    }
}
