import Foundation
import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("tessera export")
struct ExportCommandTests {
    static let spec = #"{"format": 1, "name": "feed", "sections": [{"header": {"size": 40}, "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 2000, "cycle": [{}]}}]}"#

    @Test("writes one checked file in DELETE journal mode that answers read-only as the store does, with no -wal or -shm; refuses an existing --out unless --replace")
    func export() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = try CLIRunner.precomputed(Self.spec, in: directory)
            let shipped = directory.appendingPathComponent("shipped")
            try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
            let artifact = shipped.appendingPathComponent("feed.tessera").path
            let exported = try CLIRunner.run(["export", "--db", database, "--out", artifact])
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stdout == "exported 1 spec, 1 layout to '\(artifact)': checked, no problems\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: shipped.path) == ["feed.tessera"])
            // The header's read and write versions are 1: rollback journal, not WAL.
            let header = try [UInt8](Data(contentsOf: URL(fileURLWithPath: artifact)).prefix(20))
            #expect(header[18] == 1 && header[19] == 1)
            let copy = try Connection(path: artifact, mode: .readOnly, options: .store)
            for (sql, expected) in [("PRAGMA user_version", EmbeddedMigrations.all.count),
                                    ("SELECT count(*) FROM cell_group_directory WHERE checksum IS NULL", 0)] {
                let statement = try copy.prepare(sql)
                #expect(try statement.step())
                #expect(statement.int(at: 0) == expected, "\(sql)")
            }
            copy.close()

            let query = ["query", "--name", "feed", "--width", "390", "--rect", "0,0,390,5000"]
            let fromStore = try CLIRunner.run(query + ["--db", database])
            let fromArtifact = try CLIRunner.run(query + ["--db", artifact])
            #expect(fromArtifact.status == 0)
            #expect(fromArtifact.stdout == fromStore.stdout)
            #expect(try CLIRunner.run(["check", "--db", artifact]).status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: shipped.path) == ["feed.tessera"])

            let original = try Data(contentsOf: URL(fileURLWithPath: artifact))
            let refused = try CLIRunner.failure(["export", "--db", database, "--out", artifact])
            #expect(refused.contains("'\(artifact)' exists"), "\(refused)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: artifact)) == original)
            let replaced = try CLIRunner.run(["export", "--db", database, "--out", artifact, "--replace"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: shipped.path) == ["feed.tessera"])
        }
    }
}
