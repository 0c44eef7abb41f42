import Foundation
import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit

/// Read commands (list, query, item, render, check) never write: they create,
/// convert, migrate and leave behind nothing, and refuse files that are not
/// Tessera stores untouched.
@Suite("read commands never write")
struct ReadOnlyCommandTests {
    static let spec = #"{"format": 1, "name": "feed", "sections": [{"header": {"size": 40}, "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 700, "cycle": [{}]}}]}"#

    static func readCommands(_ database: String, out: String) -> [[String]] {
        [
            ["list", "--db", database],
            ["query", "--db", database, "--name", "feed", "--width", "390", "--rect", "0,0,390,900"],
            ["item", "--db", database, "--name", "feed", "--width", "390", "--section", "0", "--item", "5"],
            ["render", "--db", database, "--name", "feed", "--width", "390", "--out", out],
            ["check", "--db", database],
        ]
    }

    static func contents(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("an empty file, a 1-byte file, a SQLite file without tables and another application's WAL database are refused untouched")
    func foreignFiles() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let empty = directory.appendingPathComponent("empty.db").path
            let oneByte = directory.appendingPathComponent("one.db").path
            let noTables = directory.appendingPathComponent("notables.db").path
            let foreign = directory.appendingPathComponent("foreign.db").path
            _ = FileManager.default.createFile(atPath: empty, contents: Data())
            _ = FileManager.default.createFile(atPath: oneByte, contents: Data([0x53]))
            // A header-only SQLite file: one page, no schema.
            let blank = try Connection(path: noTables, options: Connection.Options(walMode: false))
            try blank.execute("PRAGMA user_version = 0; VACUUM")
            blank.close()
            let other = try Connection(path: foreign)
            try other.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine'); PRAGMA wal_checkpoint(TRUNCATE)")
            other.close()
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: foreign + suffix) }
            let before = try Self.contents(of: directory)
            #expect(before == ["empty.db", "foreign.db", "notables.db", "one.db"])
            for file in [empty, oneByte, noTables, foreign] {
                let original = try Self.bytes(file)
                for arguments in Self.readCommands(file, out: directory.appendingPathComponent("out.svg").path) {
                    let line = try CLIRunner.failure(arguments)
                    #expect(line.contains("is not a Tessera store"), "\(arguments): \(line)")
                    #expect(try Self.bytes(file) == original, "\(arguments) changed the file")
                    #expect(try Self.contents(of: directory) == before, "\(arguments) left a file")
                }
            }
        }
    }

    @Test("reading a store that has no -wal or -shm beside it leaves the file byte for byte and creates none")
    func storeUntouched() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = try CLIRunner.precomputed(Self.spec, in: directory)
            let before = try Self.contents(of: directory)
            #expect(before == ["feed.json", "feed.sqlite"])
            let original = try Self.bytes(database)
            let out = directory.appendingPathComponent("out.svg").path
            for arguments in Self.readCommands(database, out: out) {
                let result = try CLIRunner.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(try Self.bytes(database) == original, "\(arguments) changed the store")
                try? FileManager.default.removeItem(atPath: out)
                #expect(try Self.contents(of: directory) == before, "\(arguments) left a file")
            }
        }
    }

    /// Runs the binary as the unprivileged user `nobody`, for whom a
    /// root-owned folder and file (0755, 0644) cannot be written: a real
    /// read-only situation (root ignores permission bits, so a chmod alone
    /// proves nothing when tests run as root).
    static func runAsNobody(_ arguments: [String]) throws -> CLIRunner.Output {
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "this test needs setpriv (util-linux) to run as nobody")
        try #require(getuid() == 0, "this test runs as root, to drop to nobody")
        return try CLIRunner.run(["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.executable.path] + arguments, executable: setpriv)
    }

    @Test("a store that cannot be written (run as nobody) answers what it holds fresh; computing a missing layout is an error")
    func unwritableStore() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = try CLIRunner.precomputed(Self.spec, in: directory)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            let before = try Self.contents(of: directory)
            let original = try Self.bytes(database)
            let expected = try CLIRunner.run(Self.readCommands(database, out: "")[1])
            #expect(expected.status == 0)
            for arguments in [Self.readCommands(database, out: "")[0], Self.readCommands(database, out: "")[4]] {
                let result = try Self.runAsNobody(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
            }
            let query = try Self.runAsNobody(Self.readCommands(database, out: "")[1])
            #expect(query.status == 0, "\(query.stderr)")
            #expect(query.stdout == expected.stdout)
            let missing = try Self.runAsNobody(["query", "--db", database, "--name", "feed", "--width", "500", "--rect", "0,0,10,10"])
            #expect(missing.status != 0)
            #expect(missing.stderr.contains("is missing or stale, and '\(database)' cannot be written"), "\(missing.stderr)")
            #expect(try Self.bytes(database) == original)
            #expect(try Self.contents(of: directory) == before)
        }
    }

    @Test("check --repair marks a layout with damaged frames stale and says which; the next query computes it again")
    func repair() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = try CLIRunner.precomputed(Self.spec, in: directory)
            let query = Self.readCommands(database, out: "")[1]
            let expected = try CLIRunner.run(query)
            let connection = try Connection(path: database, options: .store)
            try connection.execute("UPDATE cell_groups SET frames = zeroblob(length(frames)) WHERE id = (SELECT min(id) FROM cell_groups)")
            connection.close()
            let damagedQuery = try CLIRunner.run(query)
            #expect(damagedQuery.status == 1)
            #expect(damagedQuery.stdout.isEmpty)
            #expect(damagedQuery.stderr.contains("is damaged: spec \"feed\" at 390: the cell group of items 0… of section 0 does not match its checksum"),
                    "\(damagedQuery.stderr)")
            let check = try CLIRunner.run(["check", "--db", database])
            #expect(check.status == 1)
            #expect(check.stdout.contains("problem: spec \"feed\" at 390: a cell group's frame blob does not match its checksum\n"), "\(check.stdout)")
            #expect(check.stdout.contains("the cell group of items 0… holds bytes that are not frames\n"), "\(check.stdout)")
            #expect(check.stdout.hasSuffix("(1 mismatch): 2 problems\n"), "\(check.stdout)")
            let repaired = try CLIRunner.run(["check", "--db", database, "--repair"])
            #expect(repaired.status == 1)
            #expect(repaired.stdout.contains("repaired: spec \"feed\" at 390: marked stale: computed again from its spec when next used\n"), "\(repaired.stdout)")
            let again = try CLIRunner.run(query)
            #expect(again.status == 0)
            #expect(again.stdout == expected.stdout)
            #expect(again.stderr.contains("was missing or stale; computed and stored it"))
            let clean = try CLIRunner.run(["check", "--db", database])
            #expect(clean.status == 0, "\(clean.stdout)")
        }
    }
}
