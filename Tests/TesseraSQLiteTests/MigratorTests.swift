import Foundation
import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("schema migrations and refusals")
struct MigratorTests {
    let latest = EmbeddedMigrations.all.count

    @Test("a new file gets every migration, Tessera's application id and WAL")
    func newFile() throws {
        let directory = try TemporaryDirectory("new")
        let path = directory.file("store.sqlite")
        let pool = try DatabasePool(path: path)
        try pool.read { db throws in
            #expect(try db.int("PRAGMA user_version") == latest)
            #expect(try db.int("PRAGMA application_id") == Int(Migrator.applicationID))
            #expect(try db.int("PRAGMA foreign_keys") == 1)
            #expect(try db.int("""
                SELECT count(*) FROM sqlite_schema WHERE name IN
                ('specs', 'spec_sections', 'layouts', 'layout_sections', 'cell_groups', 'cell_groups_rtree')
                """) == 6)
        }
        let mode = try pool.writeWithoutTransaction { db in
            let statement = try db.prepare("PRAGMA journal_mode")
            return try statement.step() ? statement.text(at: 0) : ""
        }
        #expect(mode == "wal")
    }

    @Test("an existing empty file is migrated; reopening applies nothing again")
    func reopen() throws {
        let directory = try TemporaryDirectory("reopen")
        let path = directory.file("store.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let migrator = Migrator()
        do {
            let db = try migrator.openDatabase(at: path)
            #expect(try migrator.inspect(db) == .tessera(version: latest))
            try db.execute("""
                INSERT INTO specs (name, body, content_hash, axis, section_count, created_at, updated_at)
                VALUES ('feed', '{}', 'h', 'vertical', 0, 0, 0)
                """)
        }
        let db = try migrator.openDatabase(at: path)
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try db.int("SELECT count(*) FROM specs") == 1)
    }

    @Test("pending migrations are applied in order from the file's version")
    func pending() throws {
        let directory = try TemporaryDirectory("pending")
        let path = directory.file("store.sqlite")
        _ = try Migrator().openDatabase(at: path)
        let next = Migration(version: latest + 1, name: "extra", sql: "CREATE TABLE extra (x INTEGER);")
        let migrator = Migrator(migrations: EmbeddedMigrations.all + [next])
        let db = try Connection(path: path, options: .store)
        #expect(try migrator.migrate(db) == [next])
        #expect(try db.int("PRAGMA user_version") == latest + 1)
        #expect(try db.int("SELECT count(*) FROM extra") == 0)
    }

    @Test("a failing migration is rolled back and leaves the previous version")
    func failingMigration() throws {
        let directory = try TemporaryDirectory("failing")
        let path = directory.file("store.sqlite")
        let broken = Migration(
            version: latest + 1, name: "broken",
            sql: "CREATE TABLE extra (x INTEGER); INSERT INTO nowhere VALUES (1);")
        let error = try #require(throws: StoreError.self) {
            _ = try DatabasePool(path: path, migrator: Migrator(migrations: EmbeddedMigrations.all + [broken]))
        }
        let underlying = try #require(error.cause as? SQLiteError)
        #expect(error.description.contains("to schema version \(latest + 1) (broken)"))
        #expect(underlying.message == "no such table: nowhere")
        #expect(error.description.contains("still at version \(latest)"))
        let db = try Connection(path: path, options: .store)
        #expect(try db.int("PRAGMA user_version") == latest)
        #expect(try db.int("SELECT count(*) FROM sqlite_schema WHERE name = 'extra'") == 0)
    }

    @Test("a file from a newer Tessera is refused and left byte for byte")
    func newerSchema() throws {
        let directory = try TemporaryDirectory("newer")
        let path = directory.file("store.sqlite")
        do {
            _ = try DatabasePool(path: path)
            let db = try Connection(path: path, options: .store)
            try db.execute("PRAGMA user_version = 99")
        }
        let before = try fileBytes(path)
        let error = try #require(throws: StoreError.self) { _ = try DatabasePool(path: path) }
        #expect(error == .schemaTooNew(path: path, found: 99, supported: latest))
        #expect(error.description.contains("Upgrade Tessera"))
        #expect(try fileBytes(path) == before)
    }

    @Test("another application's SQLite file is refused and left byte for byte")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory("foreign")
        let path = directory.file("other.db")
        do {
            let db = try Connection(path: path, options: Connection.Options(walMode: false))
            try db.execute("""
                PRAGMA application_id = 305419896;
                CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
                INSERT INTO notes (text) VALUES ('keep me');
                """)
        }
        let before = try fileBytes(path)
        let error = try #require(throws: StoreError.self) { _ = try DatabasePool(path: path) }
        #expect(error == .notATesseraDatabase(path: path, applicationID: 0x1234_5678))
        #expect(error.description.contains("0x12345678"))
        #expect(try fileBytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["other.db"])

        // No tables but a user_version: someone else's file too.
        let bare = directory.file("bare.db")
        do {
            let db = try Connection(path: bare, options: Connection.Options(walMode: false))
            try db.execute("PRAGMA user_version = 5")
        }
        #expect(throws: StoreError.notATesseraDatabase(path: bare, applicationID: 0)) {
            _ = try DatabasePool(path: bare)
        }
    }

    @Test("a file that is not SQLite is refused and left byte for byte")
    func notSQLite() throws {
        let directory = try TemporaryDirectory("notsqlite")
        let path = directory.file("random.bin")
        var generator = SystemRandomNumberGenerator()
        let random = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try random.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreError.self) { _ = try DatabasePool(path: path) }
        #expect(error == .notSQLite(path: path))
        #expect(try fileBytes(path) == random)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["random.bin"])

        // A plain Connection refuses it too, with SQLite's own code, as an
        // error of the open naming the file.
        let refusal = try #require(throws: SQLiteError.self) { _ = try Connection(path: path) }
        #expect(refusal.codeName == "SQLITE_NOTADB" && refusal.operation == .open && refusal.path == path)
        #expect(StoreError(sqlite: refusal, path: path) == .notSQLite(path: path))
        #expect(try fileBytes(path) == random)
    }

    @Test("SQLite has the R*Tree module, and the schema's index answers rect queries")
    func rtree() throws {
        let db = try Migrator().openDatabase(at: ":memory:")
        try db.execute("""
            INSERT INTO specs (id, name, body, content_hash, axis, section_count, created_at, updated_at)
                VALUES (1, 'feed', '{}', 'h', 'vertical', 1, 0, 0);
            INSERT INTO layouts (id, spec_id, cross_extent, engine_version, spec_hash, content_length,
                section_count, cell_count, element_count, status, created_at, updated_at)
                VALUES (1, 1, 390, 1, 'h', 1000, 1, 2, 2, 'ready', 0, 0);
            INSERT INTO cell_groups (id, frames) VALUES (10, x''), (11, x'');
            INSERT INTO cell_group_directory (layout_id, slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll)
                VALUES (1, 0, 0, 10, 0, 390, 0, 500), (1, 0, 250, 11, 0, 390, 500, 1000);
            INSERT INTO cell_groups_rtree VALUES (10, 1, 1, 0, 0, 0, 390, 0, 500, 0), (11, 1, 1, 0, 0, 0, 390, 500, 1000, 250);
            """)
        let query = try db.cachedStatement("""
            SELECT id FROM cell_groups_rtree WHERE min_layout <= ?1 AND max_layout >= ?1
              AND max_cross >= ?2 AND min_cross <= ?3 AND max_scroll >= ?4 AND min_scroll <= ?5 ORDER BY id
            """)
        try query.bind(1, 0.0, 390.0, 600.0, 1444.0)
        var ids: [Int] = []
        while try query.step() { ids.append(query.int(at: 0)) }
        #expect(ids == [11])
        // The cascade removes directory entries, but neither the groups nor
        // their rtree rows: the store deletes those explicitly.
        try db.execute("DELETE FROM layouts WHERE id = 1")
        #expect(try db.int("SELECT count(*) FROM cell_group_directory") == 0)
        #expect(try db.int("SELECT count(*) FROM cell_groups") == 2)
        #expect(try db.int("SELECT count(*) FROM cell_groups_rtree") == 2)
    }
}
