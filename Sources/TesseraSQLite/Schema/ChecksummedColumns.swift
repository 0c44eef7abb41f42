/// The columns each table's checksum covers, in the order the triggers of
/// Migrations/0003_checksums.sql hash them (a test proves every fresh row
/// verifies). Times (created_at, updated_at, compute_seconds) are not
/// covered: nothing an answer depends on.
enum ChecksummedColumns {
    static let specs = "id, name, body, content_hash, axis, section_count"
    static let specSections = "spec_id, section, identity, content_hash, body"
    /// Migrations/0008_item_runs.sql.
    static let itemRuns = "spec_id, section, first_item, item_count, items, hash_state"
    /// Migrations/0010_spec_hash_prefixes.sql.
    static let specHashPrefixes = "spec_id, spec_hash, section_count, state"
    static let layouts = """
        id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
        overhang, status, revision
        """
    static let layoutSections = """
        layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
        header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
        placer_state, orthogonal_content_length
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
