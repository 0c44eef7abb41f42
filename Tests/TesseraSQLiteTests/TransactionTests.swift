import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("SQLite transactions")
struct TransactionTests {
    struct Refusal: Error {}

    @Test("a transaction commits when its body returns and rolls back when it throws")
    func commitAndRollback() throws {
        let db = try memoryConnection()
        try db.execute("CREATE TABLE t (v INTEGER)")
        let count = try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            return try db.int("SELECT count(*) FROM t")
        }
        #expect(count == 1)
        #expect(throws: Refusal.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (2)")
                #expect(db.isInTransaction)
                throw Refusal()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.int("SELECT count(*) FROM t") == 1)
    }

    @Test("a failing statement inside a transaction rolls back everything before it")
    func rollbackOnSQLiteError() throws {
        let db = try memoryConnection()
        try db.execute("CREATE TABLE t (v INTEGER NOT NULL)")
        #expect(throws: SQLiteError.self) {
            try db.transaction(.deferred) {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (NULL)")
            }
        }
        #expect(try db.int("SELECT count(*) FROM t") == 0)
        #expect(!db.isInTransaction)
    }

    @Test("savepoints nest and roll back only their own work")
    func savepoints() async throws {
        let db = try memoryConnection()
        try db.execute("CREATE TABLE t (v INTEGER)")
        try await db.transaction { () async throws in
            try db.execute("INSERT INTO t VALUES (1)")
            try await db.savepoint {
                try db.execute("INSERT INTO t VALUES (2)")
                await #expect(throws: Refusal.self) {
                    try await db.savepoint {
                        try db.execute("INSERT INTO t VALUES (3)")
                        throw Refusal()
                    }
                }
            }
        }
        let all = try db.prepare("SELECT group_concat(v, ',') FROM (SELECT v FROM t ORDER BY v)")
        #expect(try all.step())
        #expect(all.text(at: 0) == "1,2")
        // Outside a transaction a savepoint is a transaction of its own.
        await #expect(throws: Refusal.self) {
            try await db.savepoint {
                try db.execute("DELETE FROM t")
                throw Refusal()
            }
        }
        #expect(try db.int("SELECT count(*) FROM t") == 2)
        #expect(!db.isInTransaction)
    }

    @Test("transactions do not nest")
    func noNesting() throws {
        let db = try memoryConnection()
        let error = try #require(throws: SQLiteError.self) {
            try db.transaction { try db.transaction {} }
        }
        #expect(error.message.contains("within a transaction"))
        #expect(!db.isInTransaction)
    }
}
