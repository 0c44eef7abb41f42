import CSQLite
import SQLiteToolkit
import TesseraLayout
import TesseraStore
import TesseraStoreFormat

extension Connection.Options {
    /// These options, with the store's set-up run on every connection they
    /// open: the SQL functions of the checksums and of names, and the check that SQLite
    /// has the R*Tree module (so that a missing module is reported at open,
    /// not at the first spatial query).
    package var forStore: Connection.Options {
        var options = self
        options.setUp = { connection in
            try connection.checkRTree()
            try connection.registerChecksumFunctions()
            try connection.registerNameFunction()
        }
        return options
    }

    /// The default options with the store's set-up (see ``forStore``).
    package static var store: Connection.Options { Connection.Options().forStore }
}

extension Connection {
    // Checked once per process: the compile option is the common case and costs no SQL.
    private static let rtreeCompiledIn = sqlite3_compileoption_used("ENABLE_RTREE") != 0

    /// Fails with `unsupported` when SQLite lacks the R*Tree module.
    func checkRTree() throws {
        if Self.rtreeCompiledIn { return }
        // Not compiled in, but it could come from a loaded extension: try it on a
        // temporary table, which never touches the database file.
        do {
            try execute("""
                CREATE VIRTUAL TABLE temp.tessera_rtree_probe USING rtree(id, lo, hi);
                DROP TABLE temp.tessera_rtree_probe;
                """)
        } catch {
            throw StoreError.missingRTree(sqliteVersion: Self.sqliteVersion)
        }
    }
}

/// The SQL functions behind the store's checksums, registered on every
/// connection: the triggers of schema version 3 write a row's checksum with
/// them whenever the row is written, and reads compare it (see
/// `ChecksummedColumns`).
///
/// - `tessera_hash(blob)`: ``Checksum`` of the blob's bytes (frames).
/// - `tessera_checksum(value, ...)`: ``Checksum`` of the values, each tagged
///   with its type (``ChecksumRecord``).
///
/// Another program (the `sqlite3` shell) lacks them: its writes to checksummed
/// tables fail ("no such function") instead of leaving rows that do not verify.
extension Connection {
    func registerChecksumFunctions() throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        var rc = sqlite3_create_function_v2(handle, "tessera_hash", 1, flags, nil, { context, _, arguments in
            guard let value = arguments?[0] else { return sqlite3_result_null(context) }
            let bytes = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            sqlite3_result_int64(context, Checksum.of(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count)))
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, db: handle, sql: "tessera_hash") }
        rc = sqlite3_create_function_v2(handle, "tessera_checksum", -1, flags, nil, { context, count, arguments in
            var record = ChecksumRecord()
            for index in 0..<Int(count) {
                guard let value = arguments?[index] else { record.addNull(); continue }
                switch sqlite3_value_type(value) {
                case SQLITE_INTEGER: record.add(sqlite3_value_int64(value))
                case SQLITE_FLOAT: record.add(sqlite3_value_double(value))
                case SQLITE_TEXT:
                    let text = sqlite3_value_text(value)
                    record.add(text: UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : Int(sqlite3_value_bytes(value))))
                case SQLITE_BLOB:
                    let blob = sqlite3_value_blob(value)
                    record.add(blob: UnsafeRawBufferPointer(start: blob, count: blob == nil ? 0 : Int(sqlite3_value_bytes(value))))
                default: record.addNull()
                }
            }
            sqlite3_result_int64(context, record.checksum)
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, db: handle, sql: "tessera_checksum") }
    }
}

extension Connection {
    /// `tessera_nfc(text)`: the text in Normalization Form C
    /// (`Spec.normalizedName`), for the migration that files names by it and
    /// for finding the specs filed under names equivalent to one.
    func registerNameFunction() throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let rc = sqlite3_create_function_v2(handle, "tessera_nfc", 1, flags, nil, { context, _, arguments in
            guard let value = arguments?[0], sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
                return sqlite3_result_null(context)
            }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            let normalized = Spec.normalizedName(String(decoding: bytes, as: UTF8.self))
            // SQLITE_TRANSIENT (a macro Swift cannot import): SQLite copies the text.
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            var utf8 = Array(normalized.utf8)
            utf8.withUnsafeMutableBytes { buffer in
                sqlite3_result_text(context, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), transient)
            }
        }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, db: handle, sql: "tessera_nfc") }
    }
}
