import CSQLite
import TesseraStore

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

/// The columns each table's checksum covers, in the order the triggers of
/// Migrations/0003_checksums.sql hash them (a test proves every fresh row
/// verifies). Times (created_at, updated_at, compute_seconds) are not
/// covered: nothing an answer depends on.
enum ChecksummedColumns {
    static let specs = "id, name, body, content_hash, axis, section_count"
    static let specSections = "spec_id, section, identity, content_hash, body"
    static let layouts = """
        id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
        overhang, status, revision
        """
    static let layoutSections = """
        layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
        header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
        placer_state
        """
    static let directory = "layout_id, slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll"
    /// A directory row's reach, under `reach_checksum` (Migrations/0006_group_reach.sql).
    static let reach = "layout_id, slot, first_item, reach_start, reach_end, reach_slack"

    /// `1` when the row's stored checksum (column `checksum`) matches its
    /// columns (`prefix` is the table's alias with its dot, or empty).
    static func intact(_ columns: String, prefix: String = "", checksum: String = "checksum") -> String {
        let qualified = prefix.isEmpty ? columns : columns.split(separator: ",")
            .map { prefix + $0.filter { !$0.isWhitespace } }.joined(separator: ", ")
        return "\(prefix)\(checksum) IS tessera_checksum(\(qualified))"
    }
}
