import Foundation
import TesseraStore
import TesseraPrecompute
import Testing
import TesseraLayout
import TesseraSQLite

/// `tessera precompute --specs FILE`: one spec per line, many per transaction.
@Suite("tessera precompute --specs, end to end")
struct PrecomputeSpecsTests {
    /// A line of the file: a grid feed named `name`, with `columns` columns
    /// (0 is a bad spec; 400 points of spacing fail only while laying out).
    static func line(_ name: String?, fraction: Int = 3, spacing: Int = 2, items: Int = 20) -> String {
        let named = name.map { #""name": "\#($0)", "# } ?? ""
        return #"{"format": 1, \#(named)"sections": [{"layout": {"kind": "grid", "fraction": \#(fraction), "itemSpacing": \#(spacing)}, "items": {"count": \#(items), "cycle": [{}]}}]}"#
    }

    static func specs(in database: String) async throws -> [String] {
        try await LayoutStore(path: database).specs().map(\.name)
    }

    /// The stderr lines of a run, without the empty one after the last newline.
    static func errorLines(_ output: CLIRunner.Output) -> [String] {
        output.stderr.split(separator: "\n").map(String.init)
    }

    @Test("stores every line under its name, blank lines skipped; a rerun keeps every spec as it was")
    func storesAndReruns() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let file = try CLIRunner.file("feeds.ndjson", in: directory, [Self.line("a"), "", "  ", Self.line("b", items: 40), Self.line("c")].joined(separator: "\n"))
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let arguments = ["precompute", "--specs", file, "--db", database, "--width", "390", "--width", "430"]
            let first = try CLIRunner.run(arguments)
            #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
            #expect(first.stdout.hasPrefix("\(file): saved 3, unchanged 0, failed 0 specs; 6 layouts computed in "), "\(first.stdout)")
            #expect(first.stdout.hasSuffix(" specs/s); stored in \(database)\n"), "\(first.stdout)")
            #expect(try await Self.specs(in: database) == ["a", "b", "c"])
            let store = try LayoutStore(path: database)
            let layouts = try await store.layouts()
            let memory = try LayoutEngine().layout(Spec(jsonText: Self.line("b", items: 40)), crossExtent: 430)
            #expect(try await store.elements(name: "b", crossExtent: 430, in: Rect(x: 0, y: 0, width: 430, height: 1e6)) == memory.elements)

            let again = try CLIRunner.run(arguments)
            #expect(again.status == 0 && again.stderr.isEmpty)
            #expect(again.stdout.hasPrefix("\(file): saved 0, unchanged 3, failed 0 specs; 0 layouts computed in "), "\(again.stdout)")
            #expect(try await LayoutStore(path: database).layouts() == layouts)
            #expect(try CLIRunner.run(arguments + ["--quiet"]).stdout.isEmpty)
        }
    }

    @Test("a bad line stops the run with one error line naming it; the specs of the lines before it are kept")
    func stopsAtBadLine() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let file = try CLIRunner.file("feeds.ndjson", in: directory, [Self.line("a"), "", Self.line("b"), Self.line("bad", fraction: 0), Self.line("c")].joined(separator: "\n") + "\n")
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let output = try CLIRunner.run(["precompute", "--specs", file, "--db", database, "--width", "390"])
            #expect(output.status == 1)
            #expect(Self.errorLines(output) == ["error: \(file):4: sections[0].layout.fraction: must be at least 1, got 0"], "\(output.stderr)")
            #expect(output.stdout.hasPrefix("\(file): saved 2, unchanged 0, failed 1 specs; 2 layouts computed in "), "\(output.stdout)")
            #expect(try await Self.specs(in: database) == ["a", "b"])

            // A spec that fails only while it is laid out stops the run the same way.
            let late = try CLIRunner.file("late.ndjson", in: directory, [Self.line("d"), Self.line("wide", fraction: 2, spacing: 400), Self.line("e")].joined(separator: "\n"))
            let stopped = try CLIRunner.run(["precompute", "--specs", late, "--db", database, "--width", "390", "--quiet"])
            #expect(stopped.status == 1 && stopped.stdout.isEmpty)
            let line = try #require(Self.errorLines(stopped).first)
            #expect(Self.errorLines(stopped).count == 1)
            #expect(line.hasPrefix("error: \(late):2: sections[0].layout.fraction: "), "\(line)")
            #expect(try await Self.specs(in: database) == ["a", "b", "d"])
        }
    }

    @Test("--keep-going leaves out every bad line, one error line each, in order, and stores the rest")
    func keepsGoing() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("feeds.ndjson").path
            var bytes = Data([Self.line("a"), #"{"format": 1, "name": "broken", "sections": ["#, Self.line(nil), Self.line("b")].joined(separator: "\n").utf8)
            bytes.append(contentsOf: Array("\n{\"format\": 1, \"name\": \"".utf8) + [0xFF, 0xFE] + Array("\", \"sections\": []}\n".utf8))
            bytes.append(contentsOf: Array((Self.line("wide", fraction: 2, spacing: 400) + "\n" + #"{"format": 1, "name": "flat", "axis": "horizontal", "sections": []}"# + "\n" + Self.line("c")).utf8))
            try bytes.write(to: URL(fileURLWithPath: path))
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let output = try CLIRunner.run(["precompute", "--specs", path, "--db", database, "--width", "390", "--keep-going"])
            #expect(output.status == 1)
            let lines = Self.errorLines(output)
            #expect(lines.count == 5, "\(output.stderr)")
            #expect(lines.map { $0.split(separator: ":").prefix(3).joined(separator: ":") } == [2, 3, 5, 6, 7].map { "error: \(path):\($0)" })
            #expect(lines[0].hasPrefix("error: \(path):2: not valid JSON: column "), "\(lines[0])")
            #expect(lines[1] == "error: \(path):3: the spec has no \"name\": with --specs each spec is stored under its own name")
            #expect(lines[2] == "error: \(path):5: the line is not valid UTF-8")
            #expect(lines[3].hasPrefix("error: \(path):6: sections[0].layout.fraction: "), "\(lines[3])")
            #expect(lines[4] == "error: \(path):7: spec \"flat\" scrolls horizontally, and --width was given: a file of specs takes one axis")
            #expect(output.stdout.hasPrefix("\(path): saved 3, unchanged 0, failed 5 specs; 3 layouts computed in "), "\(output.stdout)")
            #expect(try await Self.specs(in: database) == ["a", "b", "c"])
        }
    }

    @Test("--jobs 1 and --jobs 4 store the same specs and frames, and report the same failures")
    func jobsWriteTheSameStore() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            var lines = (0..<40).map { Self.line("feed-\($0)", fraction: 2 + $0 % 4, spacing: $0 % 3, items: 10 + 7 * $0) }
            lines[9] = Self.line("bad", fraction: 0)
            lines[30] = Self.line("wide", fraction: 2, spacing: 400)
            // A name again, later: the later spec wins.
            lines[35] = Self.line("feed-3", fraction: 5, items: 50)
            let file = try CLIRunner.file("feeds.ndjson", in: directory, lines.joined(separator: "\n"))
            var stores: [(specs: [String], elements: [[LayoutElement]])] = []
            var errors: [[String]] = []
            for jobs in ["1", "4"] {
                let database = directory.appendingPathComponent("feeds-\(jobs).sqlite").path
                let output = try CLIRunner.run(["precompute", "--specs", file, "--db", database, "--width", "390", "--width", "430", "--keep-going", "--jobs", jobs])
                #expect(output.status == 1)
                #expect(output.stdout.hasPrefix("\(file): saved 38, unchanged 0, failed 2 specs; 76 layouts computed in "), "\(output.stdout)")
                errors.append(Self.errorLines(output))
                let store = try LayoutStore(path: database)
                var elements: [[LayoutElement]] = []
                for layout in try await store.layouts() {
                    elements.append(try await store.elements(name: layout.specName, crossExtent: layout.crossExtent, in: Rect(x: 0, y: 0, width: 500, height: 1e7)))
                }
                stores.append((try await store.specs().map { "\($0.name) \($0.contentHash)" }, elements))
            }
            #expect(errors[0].count == 2 && errors[0] == errors[1], "\(errors)")
            #expect(stores[0].specs.count == 37 && stores[0].specs == stores[1].specs)
            #expect(stores[0].elements.count == 74 && stores[0].elements == stores[1].elements)
        }
    }

    @Test("--shard I/N: N runs store every spec once between them, whatever the order of the lines; a line without a name is shard 0's")
    func shards() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            var lines = (0..<30).map { Self.line("feed-\($0)", fraction: 2 + $0 % 3, items: 5 + 3 * $0) }
            lines[4] = #"{"format": 1, "name": "broken", "sections": ["#
            lines[11] = Self.line(nil)
            lines[17] = Self.line("bad", fraction: 0)
            let file = try CLIRunner.file("feeds.ndjson", in: directory, lines.joined(separator: "\n"))
            let reversed = try CLIRunner.file("reversed.ndjson", in: directory, lines.reversed().joined(separator: "\n"))
            let whole = directory.appendingPathComponent("whole.sqlite").path
            let all = try CLIRunner.run(["precompute", "--specs", file, "--db", whole, "--width", "390", "--keep-going", "--quiet"])
            #expect(all.status == 1 && Self.errorLines(all).count == 3)
            let expected = try await Self.specs(in: whole)
            #expect(expected.count == 27)
            var stored: [String] = []
            var errors: [String] = []
            for index in 0..<3 {
                let database = directory.appendingPathComponent("shard-\(index).sqlite").path
                let output = try CLIRunner.run(["precompute", "--specs", file, "--db", database, "--width", "390", "--keep-going", "--quiet", "--shard", "\(index)/3"])
                errors += Self.errorLines(output)
                let names = FileManager.default.fileExists(atPath: database) ? try await Self.specs(in: database) : []
                #expect(names.allSatisfy { SpecShard.number(of: $0, count: 3) == index }, "\(names)")
                stored += names
                // The same shard of the same lines in another order: the same specs.
                let other = directory.appendingPathComponent("reversed-\(index).sqlite").path
                _ = try CLIRunner.run(["precompute", "--specs", reversed, "--db", other, "--width", "390", "--keep-going", "--quiet", "--shard", "\(index)/3"])
                #expect((FileManager.default.fileExists(atPath: other) ? try await Self.specs(in: other) : []) == names)
                if index == 0 {
                    // The lines without a readable name are reported once, by shard 0.
                    #expect(Self.errorLines(output).contains { $0.hasPrefix("error: \(file):5: not valid JSON") }, "\(output.stderr)")
                    #expect(Self.errorLines(output).contains("error: \(file):12: the spec has no \"name\": with --specs each spec is stored under its own name"))
                }
            }
            #expect(stored.sorted() == expected.sorted())
            // Every bad line reported exactly once across the shards.
            #expect(errors.count == 3 && errors.filter { $0.hasPrefix("error: \(file):18: ") }.count == 1, "\(errors)")
        }
    }

    @Test("usage errors and unreadable files are one line, and leave no store behind")
    func usageErrors() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let file = try CLIRunner.file("feeds.ndjson", in: directory, Self.line("a"))
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let both = try CLIRunner.failure(["precompute", file, "--specs", file, "--db", database, "--width", "390"])
            #expect(both == "error: give either a SPEC file or --specs FILE, not both (see 'tessera precompute --help')")
            let neither = try CLIRunner.failure(["precompute", "--db", database, "--width", "390"])
            #expect(neither == "error: give a SPEC file, or --specs FILE with one spec per line (see 'tessera precompute --help')")
            try CLIRunner.failure(["precompute", file, "--db", database, "--width", "390", "--keep-going"])
            try CLIRunner.failure(["precompute", "--specs", file, "--db", database, "--width", "390", "--name", "x"])
            let jobs = try CLIRunner.failure(["precompute", "--specs", file, "--db", database, "--width", "390", "--jobs", "0"])
            #expect(jobs == "error: --jobs must be 1 to 1024 workers, got 0 (see 'tessera precompute --help')")
            let shard = try CLIRunner.failure(["precompute", "--specs", file, "--db", database, "--width", "390", "--shard", "2/2"])
            #expect(shard == "error: the value '2/2' is invalid for '--shard <I/N>': shard 2 of 2 does not exist: shards are numbered 0 to 1 (see 'tessera precompute --help')")
            let sharded = try CLIRunner.failure(["precompute", file, "--db", database, "--width", "390", "--shard", "0/2"])
            #expect(sharded == "error: --shard goes with --specs FILE (see 'tessera precompute --help')")
            let one = try CLIRunner.failure(["precompute", file, "--db", database, "--width", "390", "--jobs", "2000"])
            #expect(one == "error: --jobs must be 1 to 1024 workers, got 2000 (see 'tessera precompute --help')")
            let axes = try CLIRunner.failure(["precompute", "--specs", file, "--db", database, "--width", "390", "--height", "300"])
            #expect(axes.hasPrefix("error: give one or more --width (vertical specs) or --height (horizontal specs), not both"))
            let missing = try CLIRunner.failure(["precompute", "--specs", "nope.ndjson", "--db", database, "--width", "390"], in: directory)
            #expect(missing == "error: cannot read 'nope.ndjson': No such file or directory")
            // The only line fails: the store this run would have made is removed.
            let bad = try CLIRunner.file("bad.ndjson", in: directory, Self.line("bad", fraction: 0))
            let output = try CLIRunner.run(["precompute", "--specs", bad, "--db", database, "--width", "390", "--quiet"])
            #expect(output.status == 1 && Self.errorLines(output).count == 1)
            #expect(!FileManager.default.fileExists(atPath: database))
        }
    }
}
