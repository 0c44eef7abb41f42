import Testing
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore

@Suite("SQLite statements")
struct StatementTests {
    @Test("integers, doubles, text, blobs and NULLs round-trip; doubles bit for bit")
    func roundTrips() throws {
        let db = try memoryConnection()
        try db.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n)")
        let doubles: [Double] = [
            0.1, 1.0 / 3.0, -2.5, .pi, 1e308, -1e-308, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            .infinity, -.infinity, 48_000_000.123456789, 0,
        ]
        let insert = try db.cachedStatement("INSERT INTO t (i, d, s, b, n) VALUES (?, ?, ?, ?, ?)")
        for (offset, value) in doubles.enumerated() {
            let blob: [UInt8] = (0..<(offset * 37)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try insert.bind(Int64.max - Int64(offset), value, "é🙂\(offset)", blob, nil as Int?)
            try insert.execute()
        }
        let select = try db.cachedStatement("SELECT i, d, s, b, n, typeof(n) FROM t ORDER BY rowid")
        var offset = 0
        while try select.step() {
            #expect(select.int64(at: 0) == Int64.max - Int64(offset))
            #expect(select.double(at: 1).bitPattern == doubles[offset].bitPattern)
            #expect(select.text(at: 2) == "é🙂\(offset)")
            let expectedBlob: [UInt8] = (0..<(offset * 37)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            #expect(select.blob(at: 3) == expectedBlob)
            #expect(select.withBlob(at: 3) { $0.count } == expectedBlob.count)
            #expect(select.isNull(at: 4))
            #expect(!select.isNull(at: 3))
            #expect(select.text(at: 5) == "null")
            #expect(select.int(at: 4) == 0 && select.double(at: 4) == 0 && select.text(at: 4).isEmpty)
            offset += 1
        }
        #expect(offset == doubles.count)
    }

    @Test("empty text and empty blobs are not NULL; Bool, Int and optionals bind")
    func emptyValuesAndOptionals() throws {
        let db = try memoryConnection()
        let statement = try db.prepare("SELECT ?, typeof(?2), ?3, typeof(?3), ?4, ?5, ?6, typeof(?6), ?7")
        #expect(statement.parameterCount == 7)
        try statement.bind("", at: 1)
        try statement.bind([UInt8](), at: 2)
        try statement.bind([UInt8](), at: 3)
        try statement.bind(true, at: 4)
        try statement.bind(-42, at: 5)
        try statement.bind(Double?.none, at: 6)
        try statement.bind(Double?.some(1.5), at: 7)
        #expect(try statement.step())
        #expect(statement.text(at: 0).isEmpty && !statement.isNull(at: 0))
        #expect(statement.text(at: 1) == "blob")
        #expect(statement.blob(at: 2).isEmpty)
        #expect(statement.withBlob(at: 2) { $0.count } == 0)
        #expect(statement.text(at: 3) == "blob")
        #expect(statement.bool(at: 4))
        #expect(statement.int(at: 5) == -42)
        #expect(statement.text(at: 7) == "null")
        #expect(statement.double(at: 8) == 1.5)
        #expect(try !statement.step())
    }

    @Test("frames decode in place from a blob bound without copy")
    func framesBlob() throws {
        let db = try memoryConnection()
        try db.execute("CREATE TABLE g (id INTEGER PRIMARY KEY, frames BLOB NOT NULL)")
        let frames: [Double] = (0..<64 * 4).map { Double($0) * 0.1 + 1e7 }
        let insert = try db.cachedStatement("INSERT INTO g (id, frames) VALUES (?, ?)")
        try insert.bind(7, at: 1)
        try frames.withUnsafeBytes { bytes in
            try insert.withBlobBoundWithoutCopy(bytes, at: 2) { try insert.execute() }
        }
        #expect(db.changes == 1 && db.lastInsertRowID == 7)
        let select = try db.cachedStatement("SELECT frames FROM g WHERE id = ?")
        try select.bind(7, at: 1)
        #expect(try select.step())
        let decoded = select.withBlob(at: 0) { bytes in
            (0..<bytes.count / 8).map { bytes.loadUnaligned(fromByteOffset: $0 * 8, as: Double.self) }
        }
        #expect(decoded.map(\.bitPattern) == frames.map(\.bitPattern))
    }

    @Test("the statement cache hands back the same compiled statement, reset")
    func cacheReuse() throws {
        let db = try memoryConnection()
        try db.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let first = try db.cachedStatement("SELECT v FROM t WHERE v >= ? ORDER BY v")
        try first.bind(2, at: 1)
        #expect(try first.step())
        #expect(first.int(at: 0) == 2)
        // Abandoned mid-iteration: the cache resets it and clears the binding.
        let second = try db.cachedStatement("SELECT v FROM t WHERE v >= ? ORDER BY v")
        #expect(first === second)
        #expect(db.statementCache.count == 1)
        try second.bind(1, at: 1)
        var values: [Int] = []
        while try second.step() { values.append(second.int(at: 0)) }
        #expect(values == [1, 2, 3])
        // Done statements are reset: running again yields the rows again.
        values.removeAll()
        while try second.step() { values.append(second.int(at: 0)) }
        #expect(values == [1, 2, 3])
        #expect(try db.cachedStatement("SELECT 1") !== second)
    }

    @Test("SQLiteError carries the code, SQLite's message and the SQL")
    func errors() throws {
        let db = try memoryConnection()
        try db.execute("CREATE TABLE t (name TEXT NOT NULL UNIQUE)")
        let insert = try db.cachedStatement("INSERT INTO t (name) VALUES (?)")
        try insert.bind("a", at: 1)
        try insert.execute()
        let error = try #require(throws: SQLiteError.self) { try insert.execute() }
        #expect(error.code == 19 && error.isConstraintViolation)
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.message == "UNIQUE constraint failed: t.name")
        #expect(error.sql == "INSERT INTO t (name) VALUES (?)")
        #expect(error.description.contains("SQLITE_CONSTRAINT"))
        #expect(error.description.contains("UNIQUE constraint failed: t.name"))
        #expect(error.description.contains("INSERT INTO t (name) VALUES (?)"))

        let syntax = try #require(throws: SQLiteError.self) { try db.prepare("SELEKT 1") }
        #expect(syntax.code == 1 && syntax.message.contains("syntax error") && syntax.sql == "SELEKT 1")

        let script = try #require(throws: SQLiteError.self) {
            try db.execute("INSERT INTO t VALUES ('b'); INSERT INTO nowhere VALUES (1);")
        }
        #expect(script.message == "no such table: nowhere")
        #expect(script.sql?.hasPrefix(" INSERT INTO nowhere") == true)

        let range = try #require(throws: SQLiteError.self) { try insert.bind("x", at: 2) }
        #expect(range.code == 25)  // SQLITE_RANGE
    }

    @Test("prepare refuses a second statement but accepts trailing comments")
    func singleStatement() throws {
        let db = try memoryConnection()
        _ = try db.prepare("SELECT 1; -- a comment\n")
        let error = try #require(throws: SQLiteError.self) { try db.prepare("SELECT 1; SELECT 2") }
        #expect(error.message.contains("more than one SQL statement"))
        #expect(throws: SQLiteError.self) { try db.prepare("  -- nothing  ") }
    }
}
