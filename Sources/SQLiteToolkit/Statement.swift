import CSQLite

/// One compiled SQL statement of a `Connection`, used on that connection's thread.
///
/// Parameters are bound by 1-based index (SQLite's convention: the first `?` is 1),
/// columns are read by 0-based index (also SQLite's convention). A typical loop:
///
///     let insert = try connection.cachedStatement("INSERT INTO t (a, b) VALUES (?, ?)")
///     for (a, b) in rows {
///         try insert.bind(a, b)
///         try insert.execute()
///     }
package final class Statement {
    /// The SQL text the statement was compiled from.
    package let sql: String
    /// The `sqlite3_stmt*`; nil once finalized.
    private(set) var handle: OpaquePointer?

    init(db: OpaquePointer, sql: String, persistent: Bool) throws {
        self.sql = sql
        var statement: OpaquePointer?
        var remainder = ""
        // PERSISTENT tells SQLite the statement will be reused many times, so it
        // allocates it outside the small short-lived lookaside pools.
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        let rc = sql.withCString { start -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, start, -1, flags, &statement, &tail)
            if rc == SQLITE_OK, let tail { remainder = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError(code: rc, db: db, sql: sql)
        }
        guard let statement else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no SQL statement to prepare", sql: sql)
        }
        handle = statement
        // A second statement would be silently ignored: refuse it. The remainder may
        // still hold comments or whitespace, which compile to nothing.
        if !remainder.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            var extra: OpaquePointer?
            sqlite3_prepare_v2(db, remainder, -1, &extra, nil)
            if let extra {
                sqlite3_finalize(extra)
                finalize()
                throw SQLiteError(
                    extendedCode: SQLITE_MISUSE,
                    message: "more than one SQL statement; use Connection.execute(_:) for scripts",
                    sql: sql)
            }
        }
    }

    deinit {
        finalize()
    }

    /// Releases SQLite's statement. Idempotent; the connection calls it on close.
    func finalize() {
        if let handle {
            sqlite3_finalize(handle)
            self.handle = nil
        }
    }

    /// The statement handle, trapping with a clear message on use after its
    /// connection was closed rather than passing a dangling pointer to SQLite.
    @usableFromInline
    var liveHandle: OpaquePointer {
        guard let handle else {
            preconditionFailure("Statement used after its connection was closed: \(sql)")
        }
        return handle
    }

    /// Runs the statement to its next row. Returns true when a row is available
    /// (read it with the column accessors), false when the statement is done.
    ///
    /// When done, or on error, the statement is reset so it releases its locks at
    /// once; its bindings are kept, so it can run again with the same values.
    package func step() throws -> Bool {
        let statement = liveHandle
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE {
            sqlite3_reset(statement)
            return false
        }
        // Read the message before reset: reset may leave a different one behind.
        let error = SQLiteError(code: rc, db: sqlite3_db_handle(statement), sql: sql)
        sqlite3_reset(statement)
        throw error
    }

    /// Runs the statement to completion, discarding any rows. For INSERT, UPDATE,
    /// DELETE and DDL; read `Connection.changes` / `lastInsertRowID` afterwards.
    package func execute() throws {
        while try step() {}
    }

    /// Rewinds the statement to before its first row, keeping its bindings. Needed
    /// only to abandon a SELECT before its last row (which releases its snapshot).
    package func reset() {
        sqlite3_reset(liveHandle)
    }

    /// Sets every parameter back to NULL.
    package func clearBindings() {
        sqlite3_clear_bindings(liveHandle)
    }

    /// Number of `?` parameters.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(liveHandle)) }

    /// Number of result columns (0 for statements that return no rows).
    package var columnCount: Int { Int(sqlite3_column_count(liveHandle)) }

    /// The name of result column `index` (0-based), as SQLite reports it.
    package func columnName(at index: Int) -> String {
        sqlite3_column_name(liveHandle, Int32(index)).map { String(cString: $0) } ?? ""
    }
}
