import CSQLite

extension Statement {
    /// Binds `value` to parameter `index` (1-based: the first `?` is 1). Binding nil
    /// (an `Optional` holding nothing) binds NULL.
    ///
    /// - Throws: `SQLiteError` (`SQLITE_RANGE` for an index outside 1...parameterCount,
    ///   `SQLITE_MISUSE` while the statement is stepping: reset it first).
    // Inlinable: generic, and called on every query from another module,
    // where an unspecialized call would go through witness tables.
    @inlinable
    package func bind<Value: SQLiteBindable>(_ value: Value, at index: Int) throws {
        try value.bind(to: self, at: index)
    }

    /// Binds `values` to parameters 1, 2, 3, ... in order: `try insert.bind(id, name, 2.5)`.
    /// Parameters past the last value keep their previous bindings.
    @inlinable
    package func bind<each Value: SQLiteBindable>(_ values: repeat each Value) throws {
        var index = 1
        for value in repeat each values {
            try value.bind(to: self, at: index)
            index += 1
        }
    }

    /// Binds NULL to parameter `index` (1-based).
    package func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(liveHandle, Int32(index)))
    }

    /// Binds the bytes of `buffer` as a blob WITHOUT copying them, runs `body` (which
    /// steps the statement), then resets the statement and binds NULL in their place,
    /// so SQLite never keeps a pointer to memory that may be gone.
    ///
    /// Use for large blobs written in a loop (e.g. `frames.withUnsafeBytes { ... }`);
    /// `bind(_:at:)` with `[UInt8]` or `UnsafeRawBufferPointer` makes one copy instead.
    @inlinable
    package func withBlobBoundWithoutCopy<Result>(
        _ buffer: UnsafeRawBufferPointer, at index: Int, _ body: () throws -> Result
    ) throws -> Result {
        let statement = liveHandle
        if let base = buffer.baseAddress, buffer.count > 0 {
            try check(sqlite3_bind_blob64(statement, Int32(index), base, sqlite3_uint64(buffer.count), nil))
        } else {
            try check(sqlite3_bind_zeroblob(statement, Int32(index), 0))
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_bind_null(statement, Int32(index))
        }
        return try body()
    }

    // MARK: - Primitives used by the SQLiteBindable conformances

    func bindInt64(_ value: Int64, at index: Int) throws {
        try check(sqlite3_bind_int64(liveHandle, Int32(index), value))
    }

    /// Note: SQLite stores NaN as NULL, and -0.0 read back from a REAL column is +0.0
    /// (SQLite may store whole REAL values as integers on disk). Everything else
    /// round-trips bit for bit.
    func bindDouble(_ value: Double, at index: Int) throws {
        try check(sqlite3_bind_double(liveHandle, Int32(index), value))
    }

    func bindText(_ value: String, at index: Int) throws {
        var value = value
        // withUTF8 hands out the string's own UTF-8 storage when it is native (no
        // copy on the Swift side); SQLite copies it once (SQLITE_TRANSIENT).
        try value.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                // A NULL pointer would bind NULL, not an empty string.
                try check(sqlite3_bind_text64(liveHandle, Int32(index), "", 0, Self.transient, UInt8(SQLITE_UTF8)))
                return
            }
            try base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { text in
                try check(sqlite3_bind_text64(
                    liveHandle, Int32(index), text, sqlite3_uint64(utf8.count), Self.transient, UInt8(SQLITE_UTF8)))
            }
        }
    }

    func bindBlob(_ buffer: UnsafeRawBufferPointer, at index: Int) throws {
        // A NULL pointer would bind NULL, not an empty blob: bind a zero-length blob.
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            try check(sqlite3_bind_zeroblob(liveHandle, Int32(index), 0))
            return
        }
        try check(sqlite3_bind_blob64(liveHandle, Int32(index), base, sqlite3_uint64(buffer.count), Self.transient))
    }

    /// SQLITE_TRANSIENT (a C macro Swift cannot import): SQLite copies the value
    /// before the bind call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    @usableFromInline
    func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else {
            throw SQLiteError(code: rc, db: sqlite3_db_handle(liveHandle), sql: sql)
        }
    }
}
