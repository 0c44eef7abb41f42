import Foundation
import Testing

/// A store is one file when no writer runs: after each command that writes,
/// the database file copied alone (what `cp`, `rsync` or an upload does)
/// answers exactly as the store it was copied from.
@Suite("one file: after every writing command, the store file copied alone answers as the original")
struct OneFileStoreTests {
    /// What a reader sees of the store at `path`: the list, and a rect and a
    /// viewport query of every stored spec at every width it names.
    static func answers(of path: String, names: [String], widths: [String]) throws -> [String] {
        var result: [String] = []
        let list = try CLIRunner.run(["list", "--db", path, "--format", "json"])
        #expect(list.status == 0, "list: \(list.stderr)")
        result.append(list.stdout.replacingOccurrences(of: path, with: "STORE"))
        for name in names {
            for width in widths {
                for query in [["--rect", "0,0,2000,3000"], ["--viewport", "0,600,\(width),844"]] {
                    let answer = try CLIRunner.run(["query", "--db", path, "--name", name, "--width", width, "--format", "json"] + query)
                    result.append("\(name) \(width) \(query): \(answer.status) \(answer.stdout)")
                }
            }
        }
        return result
    }

    /// The side files SQLite leaves beside `path` while a connection has it open.
    static func sideFiles(of path: String) -> [String] {
        ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    @Test("precompute, precompute --specs, append, invalidate, a query that computes, and prune each leave one file")
    func everyWritingCommand() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("feed.sqlite").path
            let copy = directory.appendingPathComponent("copy.sqlite").path
            let examples = CLIRunner.repository.appendingPathComponent("Examples").path
            // Large enough that the background checkpointer runs (a WAL over 4 MiB).
            let wall = try CLIRunner.file("wall.json", in: directory, #"""
                {"format": 1, "name": "wall", "sections": [{"layout": {"kind": "staggered", "columns": 3},
                 "items": {"count": 400000, "cycle": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}, {"aspectRatio": 0.75}]}}]}
                """#)
            let names = ["wall", "home-feed", "shop-ada", "shop-bo"]
            let steps: [[String]] = [
                ["precompute", wall, "--db", store, "--width", "390", "--width", "820"],
                ["precompute", "\(examples)/home-feed.json", "--db", store, "--width", "390", "--width", "820"],
                ["precompute", "--specs", "\(examples)/shop-feeds.ndjson", "--db", store, "--width", "390", "--width", "820"],
                ["append", "--db", store, "--name", "home-feed", "--section", "2", "\(examples)/more-photos.ndjson"],
                ["invalidate", "--db", store, "--name", "home-feed", "--width", "820"],
                // A read that finds its layout stale computes and stores it.
                ["query", "--db", store, "--name", "home-feed", "--width", "820", "--rect", "0,0,10,10"],
                ["prune", "--db", store],
            ]
            for step in steps {
                let output = try CLIRunner.run(step)
                #expect(output.status == 0, "\(step[0]): \(output.stderr)")
                #expect(Self.sideFiles(of: store).isEmpty, "\(step[0]) left \(Self.sideFiles(of: store)) beside the store")
                try? FileManager.default.removeItem(atPath: copy)
                try FileManager.default.copyItem(atPath: store, toPath: copy)
                let original = try Self.answers(of: store, names: names, widths: ["390", "820"])
                let copied = try Self.answers(of: copy, names: names, widths: ["390", "820"])
                #expect(copied == original, "after \(step[0]), the file copied alone answers otherwise")
                #expect(original.contains { $0.contains("\"cell\"") }, "after \(step[0]), no query found a cell")
                // Reading leaves nothing beside either file.
                #expect(Self.sideFiles(of: store).isEmpty && Self.sideFiles(of: copy).isEmpty)
            }
        }
    }
}
