import Foundation
import Testing

@Suite("--db: commands that need a store refuse a missing file; precompute leaves none behind on failure")
struct StoreFileTests {
    /// What the folder holds, to see that a command created nothing.
    private func contents(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("every command that reads or changes a store fails on a mistyped --db and creates no file")
    func missingStore() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let items = try CLIRunner.file("items.ndjson", in: directory, "{\"size\": [10, 10]}\n")
            let missing = directory.appendingPathComponent("typo.sqlite").path
            let commands: [[String]] = [
                ["query", "--db", missing, "--name", "feed", "--width", "390", "--rect", "0,0,10,10"],
                ["item", "--db", missing, "--name", "feed", "--width", "390", "--section", "0", "--item", "0"],
                ["list", "--db", missing],
                ["invalidate", "--db", missing, "--name", "feed"],
                ["prune", "--db", missing],
                ["append", "--db", missing, "--name", "feed", "--section", "0", items],
                ["render", "--db", missing, "--name", "feed", "--width", "390", "--out", directory.appendingPathComponent("out.svg").path],
            ]
            for arguments in commands {
                let line = try CLIRunner.failure(arguments)
                #expect(line.contains("no store at '\(missing)'"), "\(arguments): \(line)")
                #expect(try contents(of: directory) == ["items.ndjson"], "\(arguments[0]) created a file")
            }
            let folder = try CLIRunner.failure(["list", "--db", directory.path])
            #expect(folder.contains("'\(directory.path)' is a directory, not a store file"), "\(folder)")
        }
    }

    @Test("commands that write refuse an existing file that is not a store, and leave it as it was", arguments: [Data(), Data([0x2A])])
    func writersRefuseNonStores(content: Data) async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let items = try CLIRunner.file("items.ndjson", in: directory, "{}\n")
            let store = directory.appendingPathComponent("empty.sqlite").path
            _ = FileManager.default.createFile(atPath: store, contents: content)
            for arguments in [
                ["append", "--db", store, "--name", "feed", "--section", "0", items], ["invalidate", "--db", store, "--name", "feed"],
                ["prune", "--db", store], ["precompute", "Examples/grid.json", "--db", store, "--width", "390"],
            ] {
                let line = try CLIRunner.failure(arguments, in: CLIRunner.repository)
                #expect(line.contains("is not a Tessera store"), "\(arguments[0]): \(line)")
                #expect(FileManager.default.contents(atPath: store) == content, "\(arguments[0]) changed the file")
                #expect(try contents(of: directory) == ["empty.sqlite", "items.ndjson"], "\(arguments[0]) left a file")
            }
        }
    }

    @Test("precompute of a spec that fails while laying out, or of a bad width, leaves no new store behind")
    func precomputeLeavesNothing() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            // Valid JSON and parameters: the span wider than the matrix is found while laying out.
            let spec = try CLIRunner.file("wide.json", in: directory,
                #"{"format": 1, "name": "wide", "sections": [{"layout": {"kind": "mozaik", "columnCount": 2, "rowHeight": 10}, "items": [{}, {"columns": 3}]}]}"#)
            let duplicateIDs = try CLIRunner.file("ids.json", in: directory,
                #"{"format": 1, "name": "ids", "sections": [{"id": "a", "layout": {"kind": "grid"}}, {"id": "a", "layout": {"kind": "grid"}}]}"#)
            let database = directory.appendingPathComponent("new.sqlite").path
            let cases: [([String], String)] = [
                (["precompute", spec, "--db", database, "--width", "390"], "sections[0].items[1].columns"),
                (["precompute", spec, "--db", database, "--width", "390", "--width", "0"], "0"),
                (["precompute", duplicateIDs, "--db", database, "--width", "390"], "sections[1].id: duplicate id \"a\""),
            ]
            for (arguments, message) in cases {
                let line = try CLIRunner.failure(arguments)
                #expect(line.contains(message), "\(arguments): \(line)")
                #expect(try contents(of: directory) == ["ids.json", "wide.json"], "\(arguments) left a file")
            }
            let good = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path
            let quiet = try CLIRunner.run(["precompute", good, "--db", database, "--width", "390", "--quiet"])
            #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
            #expect(FileManager.default.fileExists(atPath: database))
        }
    }
}
