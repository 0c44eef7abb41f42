import CSQLite

/// A failure of the SQLite toolkit: SQLite's result code and message, what
/// the toolkit was doing (the SQL being prepared or run, or the operation),
/// and the database file, so a log line alone says what failed. Layers above
/// map it to their own errors and keep it as the cause.
///
/// Connections enable extended result codes, so `extendedCode` is the precise code
/// (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY_SNAPSHOT`, ...) and `code` its primary
/// family (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, ...), which is what callers usually test.
package struct SQLiteError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The primary result code (the low 8 bits of `extendedCode`), e.g. `SQLITE_BUSY`.
    package let code: Int32
    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
    package let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or the generic text for the code.
    package let message: String
    /// The SQL being prepared or run when the error occurred, if any.
    package let sql: String?
    /// What the toolkit was doing.
    package var operation: Operation
    /// The database file, when known (`""` for an in-memory database).
    package var path: String?
    /// The operating system's `errno` of the failed file operation under an
    /// I/O, open, full or read-only failure (`ENOSPC`, `EROFS`, `EACCES`…);
    /// 0 when unknown or for any other code (SQLite keeps a stale one).
    package var systemErrno: Int32 = 0

    /// What the toolkit was doing when it failed.
    package enum Operation: Sendable, Equatable {
        /// Preparing, binding or running a statement (``SQLiteError/sql``).
        case statement
        /// Opening the file, or setting up the connection just opened.
        case open
        /// Switching the file to WAL: SQLite kept `journalMode` instead
        /// (a file system without shared memory, for one).
        case switchToWAL(journalMode: String)
        /// A read or write on a ``DatabasePool`` after its `close()`.
        case useAfterClose
    }

    /// Creates an error from an extended (or primary) result code.
    package init(
        extendedCode: Int32, message: String? = nil, sql: String? = nil, operation: Operation = .statement, path: String? = nil
    ) {
        self.extendedCode = extendedCode
        self.code = extendedCode & 0xFF
        self.message = message ?? String(cString: sqlite3_errstr(extendedCode))
        self.sql = sql
        self.operation = operation
        self.path = path
    }

    /// Reads the message of the last failure on `db`. It must be called right after
    /// the failing call: any later call on the connection may overwrite the message.
    package init(code: Int32, db: OpaquePointer?, sql: String?) {
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        // The call's own return code wins over sqlite3_extended_errcode: with the
        // "v2" interfaces it already is the precise code, and the connection's
        // last-error slot can be stale (e.g. after sqlite3_reset).
        let path = db.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) }
        self.init(extendedCode: code, message: message, sql: sql, path: path)
        if let db, [SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_READONLY].contains(self.code) {
            systemErrno = sqlite3_system_errno(db)
        }
    }

    /// The symbolic name of the primary code, e.g. `"SQLITE_BUSY"`.
    package var codeName: String {
        Self.primaryNames[Int(code)] ?? "SQLITE_\(code)"
    }

    /// `SQLITE_BUSY`: another connection holds the lock longer than the busy timeout.
    var isBusy: Bool { code == SQLITE_BUSY }
    /// `SQLITE_CONSTRAINT`: a UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint failed.
    var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// SQLite's code, message and statement (the path is left to the layer
    /// above, which names the file in its own words).
    package var description: String {
        var text = "SQLite error \(codeName)"
        if extendedCode != code { text += " (extended code \(extendedCode))" }
        text += ": \(message)"
        if let sql {
            // Long scripts (migrations) would drown the message: keep the start.
            let shown = sql.count > 300 ? String(sql.prefix(300)) + "…" : sql
            text += " — while running: \(shown)"
        }
        return text
    }

    // Names of the primary result codes (sqlite3.h, "Result Codes"); stable since 3.x.
    private static let primaryNames: [Int: String] = [
        0: "SQLITE_OK", 1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM",
        4: "SQLITE_ABORT", 5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM",
        8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT",
        12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL",
        16: "SQLITE_EMPTY", 17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT",
        20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH",
        24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB", 27: "SQLITE_NOTICE",
        28: "SQLITE_WARNING", 100: "SQLITE_ROW", 101: "SQLITE_DONE",
    ]
}
