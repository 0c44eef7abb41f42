import Foundation
import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("embedded migrations")
struct EmbeddedMigrationsTests {
    /// The repository root, found from this file's path (Tests/TesseraStoreTests/...).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("EmbeddedMigrations.swift matches Migrations/*.sql exactly")
    func noDrift() throws {
        let directory = Self.repositoryRoot.appendingPathComponent("Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        let onDisk: [Migration] = try files.map { file in
            let stem = file.dropLast(".sql".count)
            let parts = stem.split(separator: "_", maxSplits: 1)
            let version = try #require(parts.count == 2 ? Int(parts[0]) : nil, "bad migration file name \(file)")
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            return Migration(version: version, name: String(parts[1]), sql: sql)
        }
        #expect(!onDisk.isEmpty, "no migrations found in \(directory.path)")
        let fix = "Migrations/ and Sources/TesseraSQLite/Schema/EmbeddedMigrations.swift differ: "
            + "run Scripts/embed-migrations.sh and commit the result"
        #expect(onDisk.map(\.version) == EmbeddedMigrations.all.map(\.version), "\(fix)")
        for (file, embedded) in zip(onDisk, EmbeddedMigrations.all) where file != embedded {
            // Name the first differing line rather than dumping both scripts.
            let fileLines = file.sql.split(separator: "\n", omittingEmptySubsequences: false)
            let embeddedLines = embedded.sql.split(separator: "\n", omittingEmptySubsequences: false)
            let line = zip(fileLines, embeddedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(fileLines.count, embeddedLines.count)
            Issue.record("""
                \(fix). Migration \(file.version) (\(file.name) vs \(embedded.name)) differs from line \(line + 1):
                  file:     \(line < fileLines.count ? String(fileLines[line]) : "<end>")
                  embedded: \(line < embeddedLines.count ? String(embeddedLines[line]) : "<end>")
                """)
        }
    }

    @Test("migration versions are 1, 2, 3, ... and each one runs on its own")
    func versionsAndSQL() throws {
        #expect(EmbeddedMigrations.all.map(\.version) == Array(1...EmbeddedMigrations.all.count))
        let migrator = Migrator()
        let db = try Connection(path: ":memory:", options: .store)
        #expect(try migrator.migrate(db) == EmbeddedMigrations.all)
        #expect(try db.int("PRAGMA foreign_key_check") == -1)  // no violations: no rows
        let integrity = try db.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.text(at: 0) == "ok")
    }
}
