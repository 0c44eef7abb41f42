import Foundation
import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("opening for writing without a read-only probe when the file's header vouches for it")
struct MigratorHeaderTests {
    let migrator = Migrator()

    @Test("a closed store of this build vouches for itself; with a -wal file beside it, it does not")
    func closedStore() throws {
        let directory = try TemporaryDirectory("vouches")
        let path = directory.file("store.sqlite")
        #expect(!migrator.headerVouches(for: path), "a missing file")
        try DatabasePool(path: path).close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["store.sqlite"])
        #expect(migrator.headerVouches(for: path))
        // An older build's store vouches too: the writer migrates it, as after the probe.
        #expect(Migrator(migrations: EmbeddedMigrations.all + [Migration(version: EmbeddedMigrations.all.count + 1, name: "next", sql: "")])
            .headerVouches(for: path))

        // A -wal file may hold commits the header does not show yet (another process has the store open).
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))
        #expect(!migrator.headerVouches(for: path))
        try FileManager.default.removeItem(atPath: path + "-wal")

        // Opened without the probe, the store is whole and its schema current.
        let db = try migrator.openDatabase(at: path)
        #expect(try migrator.inspect(db) == .tessera(version: migrator.latestVersion))
        #expect(try migrator.migrate(db).isEmpty)
        db.close()
    }

    @Test("a newer schema, another application's file, a rollback-journal file, an empty file or text: no")
    func refusedHeaders() throws {
        let directory = try TemporaryDirectory("novouch")
        let newer = directory.file("newer.sqlite")
        try DatabasePool(path: newer).close()
        do {
            let db = try Connection(path: newer, options: .store)
            try db.execute("PRAGMA user_version = 99")
        }
        #expect(!migrator.headerVouches(for: newer))

        let foreign = directory.file("foreign.sqlite")
        do {
            let db = try Connection(path: foreign, options: Connection.Options())
            try db.execute("PRAGMA application_id = 305419896; CREATE TABLE notes (id INTEGER PRIMARY KEY)")
        }
        #expect(!migrator.headerVouches(for: foreign))

        let journal = directory.file("journal.sqlite")
        do {
            let db = try Connection(path: journal, options: Connection.Options(walMode: false))
            try db.execute("PRAGMA application_id = \(Migrator.applicationID); PRAGMA user_version = 1; CREATE TABLE t (x)")
        }
        #expect(!migrator.headerVouches(for: journal))

        let empty = directory.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(!migrator.headerVouches(for: empty))
        let text = directory.file("text.sqlite")
        #expect(FileManager.default.createFile(atPath: text, contents: Data(String(repeating: "not a database ", count: 20).utf8)))
        #expect(!migrator.headerVouches(for: text))
    }
}
