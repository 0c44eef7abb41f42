import CSQLite

extension Connection {
    /// Runs every statement of `script` in order (DDL, PRAGMAs, one-off DML), each to
    /// completion, discarding rows. On failure the error names the failing statement.
    ///
    /// For statements run more than once, use `cachedStatement(_:)`: parsing costs
    /// more than running a simple statement.
    package func execute(_ script: String) throws {
        let db = liveHandle
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let rc = sqlite3_prepare_v2(db, current, -1, &statement, &tail)
                guard rc == SQLITE_OK else {
                    throw SQLiteError(code: rc, db: db, sql: String(cString: current))
                }
                // NULL statement: only whitespace or comments were left.
                if let statement {
                    defer { sqlite3_finalize(statement) }
                    var stepCode: Int32
                    repeat { stepCode = sqlite3_step(statement) } while stepCode == SQLITE_ROW
                    guard stepCode == SQLITE_DONE else {
                        throw SQLiteError(code: stepCode, db: db, sql: String(cString: sqlite3_sql(statement)))
                    }
                }
                cursor = tail
            }
        }
    }

    /// Compiles one SQL statement. The caller owns it; it is finalized when released.
    /// Use for SQL built at run time; for fixed SQL prefer `cachedStatement(_:)`.
    ///
    /// - Throws: `SQLiteError` if the SQL is invalid or holds more than one statement.
    package func prepare(_ sql: String) throws -> Statement {
        try Statement(db: liveHandle, sql: sql, persistent: false)
    }

    /// The compiled statement for `sql`, compiled on first use and kept for the life
    /// of the connection (the cache is keyed by the exact SQL text, so use it for
    /// fixed SQL with `?` parameters, not for SQL with values spliced in).
    ///
    /// The statement is handed out reset and with its bindings cleared. There is one
    /// statement per SQL text: do not use the same SQL in a nested loop while an outer
    /// iteration over it is still stepping (`prepare(_:)` a second one instead).
    package func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try Statement(db: liveHandle, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// The rowid of the last successful INSERT on this connection (0 if none).
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(liveHandle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    package var changes: Int { Int(sqlite3_changes64(liveHandle)) }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    package var isInTransaction: Bool { sqlite3_get_autocommit(liveHandle) == 0 }

    /// The first column of the first row of `sql` as an integer, or nil when there is
    /// no row. For PRAGMAs and counts; uses the statement cache.
    package func scalarInt64(_ sql: String) throws -> Int64? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// Resets every statement of this connection that is in the middle of stepping.
    /// An unfinished SELECT holds its read snapshot (and in WAL mode pins the WAL)
    /// until reset; `DatabasePool` calls this when a `read` or `write` body returns.
    func resetActiveStatements() {
        var statement = sqlite3_next_stmt(liveHandle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(liveHandle, current)
        }
    }

    /// The `sqlite3*`, trapping with a clear message on use after `close()` rather
    /// than passing a dangling handle to SQLite.
    var liveHandle: OpaquePointer {
        precondition(!isClosed, "Connection to '\(path)' used after close()")
        return handle
    }
}
