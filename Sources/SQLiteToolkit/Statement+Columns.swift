import CSQLite

/// Column reads of the current row, by 0-based index. They follow SQLite's
/// conversions: a NULL reads as 0, 0.0, "" or [] (test `isNull(at:)` first for
/// nullable columns). Call them only after `step()` returned true.
extension Statement {
    /// Whether column `index` of the current row is NULL.
    @inlinable
    package func isNull(at index: Int) -> Bool {
        sqlite3_column_type(liveHandle, Int32(index)) == SQLITE_NULL
    }

    /// The type of column `index` of the current row: `SQLITE_INTEGER`,
    /// `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB` or `SQLITE_NULL`.
    @inlinable
    package func type(at index: Int) -> Int32 {
        sqlite3_column_type(liveHandle, Int32(index))
    }

    /// Column `index` as a 64-bit integer.
    @inlinable
    package func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(liveHandle, Int32(index))
    }

    /// Column `index` as an `Int`.
    @inlinable
    package func int(at index: Int) -> Int {
        Int(sqlite3_column_int64(liveHandle, Int32(index)))
    }

    /// Column `index` as a `Bool` (non-zero is true).
    @inlinable
    package func bool(at index: Int) -> Bool {
        sqlite3_column_int64(liveHandle, Int32(index)) != 0
    }

    /// Column `index` as a `Double`, exactly as stored (bit for bit).
    @inlinable
    package func double(at index: Int) -> Double {
        sqlite3_column_double(liveHandle, Int32(index))
    }

    /// Column `index` as text (invalid UTF-8 is repaired with U+FFFD).
    package func text(at index: Int) -> String {
        let statement = liveHandle
        // Text first, then its length: the order SQLite documents as safe.
        guard let characters = sqlite3_column_text(statement, Int32(index)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of column `index` in place, as stored
    /// (unrepaired); valid only inside `body`.
    @inlinable
    package func withText<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let statement = liveHandle
        let characters = sqlite3_column_text(statement, Int32(index))
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return try body(UnsafeRawBufferPointer(start: characters, count: characters == nil ? 0 : count))
    }

    /// Column `index` as a copy of its bytes.
    package func blob(at index: Int) -> [UInt8] {
        withBlob(at: index) { Array($0) }
    }

    /// Calls `body` with the bytes of column `index` in place, without copying them,
    /// for decoding straight from SQLite's page cache or memory map (e.g. frames via
    /// `loadUnaligned(fromByteOffset:as:)`). The buffer is valid only inside `body`.
    @inlinable
    package func withBlob<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let statement = liveHandle
        // Blob first, then its length (SQLite's documented order). A zero-length blob
        // comes back as a NULL pointer.
        let bytes = sqlite3_column_blob(statement, Int32(index))
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }
}
