import Foundation
import Testing
import TesseraLayout
import TesseraSQLite
import TesseraTestSupport

/// The rule for spec names on the command line: `--name`, a spec file's
/// `"name"` and the lines of `--specs` each fail with one line naming it.
@Suite("tessera: the rule for spec names, end to end")
struct SpecNameCLITests {
    static func spec(_ name: String?) -> String {
        PrecomputeSpecsTests.line(name)
    }

    @Test("--name that breaks the rule: one error line naming the rule, no store left behind")
    func nameFlag() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let file = try CLIRunner.file("feed.json", in: directory, Self.spec(nil))
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let long = String(repeating: "x", count: 257)
            let cases: [(String, String)] = [
                ("bad\u{7}bell", #"error: a spec name must not contain control characters or line breaks, got U+0007 at character 3: "bad\u0007bell""#),
                (long, #"error: a spec name must be at most 256 bytes of UTF-8, got 257 bytes: "\#(String(repeating: "x", count: 60))…""#),
                ("", #"error: a spec name must not be empty: """#),
            ]
            for (name, expected) in cases {
                let line = try CLIRunner.failure(["precompute", file, "--db", database, "--width", "390", "--name", name])
                #expect(line == expected, "\(name.debugDescription)")
            }
            #expect(!FileManager.default.fileExists(atPath: database))
            let good = try CLIRunner.run(["precompute", file, "--db", database, "--width", "390", "--name", "feed 1", "--quiet"])
            #expect(good.status == 0, "\(good.stderr)")
            #expect(try await PrecomputeSpecsTests.specs(in: database) == ["feed 1"])
        }
    }

    @Test("random equivalent spellings: stored under one (--name, a file's name, a line of --specs), every command finds it under the other")
    func equivalentSpellings() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("feeds.sqlite").path
            var random = SeededRandom(seed: 0xC11)
            var stored: [[UInt8]] = []
            for round in 0..<6 {
                let (first, second) = EquivalentNames.pair(using: &random)
                let items = 4 + round
                let file = try CLIRunner.file("spec\(round).json", in: directory, PrecomputeSpecsTests.line(round.isMultiple(of: 2) ? nil : first, items: items))
                var arguments = ["precompute", file, "--db", database, "--width", "390", "--quiet"]
                if round.isMultiple(of: 2) { arguments += ["--name", first] }
                let precompute = try CLIRunner.run(arguments)
                #expect(precompute.status == 0, "\(precompute.stderr)")
                stored.append(Array(Spec.normalizedName(first).utf8))
                let layout = try LayoutEngine().layout(Spec(jsonText: PrecomputeSpecsTests.line(nil, items: items)), crossExtent: 390)
                let item = try CLIRunner.run(["item", "--db", database, "--name", second, "--width", "390", "--section", "0", "--item", "\(items - 1)", "--format", "json"])
                #expect(item.status == 0, "\(item.stderr)")
                #expect(item.stdout.contains(try #require(layout.element(section: 0, item: items - 1)).jsonText), "\(item.stdout)")
                let query = try CLIRunner.run(["query", "--db", database, "--name", second, "--width", "390", "--rect", "0,0,390,100000", "--format", "ndjson"])
                #expect(query.status == 0, "\(query.stderr)")
                #expect(query.stdout.split(separator: "\n").count == items + 1)
                let append = try CLIRunner.file("more.ndjson", in: directory, "{}\n")
                #expect(try CLIRunner.run(["append", "--db", database, "--name", second, "--section", "0", append, "--quiet"]).status == 0)
                #expect(try CLIRunner.run(["invalidate", "--db", database, "--name", second]).status == 0)
            }
            // One spec per name, each under its NFC bytes.
            let names = try await PrecomputeSpecsTests.specs(in: database).map { Array($0.utf8) }
            #expect(names.sorted { $0.lexicographicallyPrecedes($1) } == stored.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    @Test("a spec file's \"name\" that breaks the rule is an error at name, also for layout")
    func specFileName() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let empty = try CLIRunner.file("empty.json", in: directory, Self.spec(""))
            let database = directory.appendingPathComponent("feeds.sqlite").path
            #expect(try CLIRunner.failure(["precompute", empty, "--db", database, "--width", "390"])
                == "error: \(empty): name: a spec name must not be empty")
            let newline = try CLIRunner.file("newline.json", in: directory, Self.spec(#"two\nlines"#))
            #expect(try CLIRunner.failure(["layout", newline, "--width", "390"])
                == "error: \(newline): name: a spec name must not contain control characters or line breaks, got U+000A at character 3")
        }
    }

    @Test("a line of --specs whose name breaks the rule fails on its line; the others are stored with --keep-going")
    func specLines() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let long = String(repeating: "é", count: 129)
            let file = try CLIRunner.file("feeds.ndjson", in: directory, [Self.spec("a"), Self.spec(long), Self.spec(#"tab\tname"#), Self.spec("b")].joined(separator: "\n"))
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let output = try CLIRunner.run(["precompute", "--specs", file, "--db", database, "--width", "390", "--keep-going"])
            #expect(output.status == 1)
            #expect(PrecomputeSpecsTests.errorLines(output) == [
                "error: \(file):2: name: a spec name must be at most 256 bytes of UTF-8, got 258 bytes",
                "error: \(file):3: name: a spec name must not contain control characters or line breaks, got U+0009 at character 3",
            ], "\(output.stderr)")
            #expect(try await PrecomputeSpecsTests.specs(in: database) == ["a", "b"])
        }
    }

    /// The commands that take a spec name with `--name`, `--name` last.
    static func nameCommands(in directory: URL) throws -> [[String]] {
        let spec = try CLIRunner.file("feed.json", in: directory, Self.spec(nil))
        let items = try CLIRunner.file("items.ndjson", in: directory, "{}\n")
        let database = directory.appendingPathComponent("feeds.sqlite").path
        return [
            ["precompute", spec, "--db", database, "--width", "390"],
            ["query", "--db", database, "--width", "390", "--rect", "0,0,10,10"],
            ["item", "--db", database, "--width", "390", "--section", "0", "--item", "0"],
            ["invalidate", "--db", database],
            ["append", "--db", database, "--section", "0", items],
            ["render", "--db", database, "--width", "390", "--out", directory.appendingPathComponent("out.svg").path],
        ]
    }

    @Test("--name of bytes that are not UTF-8 is refused by every command, as --name X and --name=X; a typed U+FFFD is a name")
    func invalidUTF8() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let expected = "error: --name is not valid UTF-8: \"a\u{FFFD}b\" (U+FFFD marks the bytes that are not)"
            for arguments in try Self.nameCommands(in: directory) {
                for raw in [#"--name "$(printf 'a\377b')""#, #"--name="$(printf 'a\377b')""#] {
                    let line = try CLIRunner.boundedFailure(arguments, rawArguments: raw, seconds: 30)
                    #expect(line == expected, "\(arguments[0]) \(raw)")
                }
            }
            let database = directory.appendingPathComponent("feeds.sqlite").path
            #expect(!FileManager.default.fileExists(atPath: database))
            let typed = try CLIRunner.run(["precompute", directory.appendingPathComponent("feed.json").path, "--db", database, "--width", "390", "--name", "a\u{FFFD}b", "--quiet"])
            #expect(typed.status == 0, "\(typed.stderr)")
            #expect(try await PrecomputeSpecsTests.specs(in: database) == ["a\u{FFFD}b"])
        }
    }

    @Test("--name that breaks the rule is refused by the commands that read a store too, before the store is opened")
    func nameRuleForReaders() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            for arguments in try Self.nameCommands(in: directory).dropFirst() {
                let line = try CLIRunner.failure(arguments + ["--name", "two\nlines"])
                #expect(line == #"error: a spec name must not contain control characters or line breaks, got U+000A at character 3: "two\nlines""#, "\(arguments[0])")
            }
        }
    }
}
