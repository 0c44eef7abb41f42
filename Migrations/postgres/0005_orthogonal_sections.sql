-- Tessera PostgreSQL schema, version 5: orthogonal sections (carousels)
-- (the SQLite schema's version 7 says why).
--
-- A section row of an orthogonal section holds its content length across
-- the feed; NULL for a section that scrolls with the feed, as every
-- section stored before this version does. The row's checksum now covers
-- the new column: rows that matched their checksum before get the new one
-- (the old function's hash, written out, tells which); a damaged row
-- stays damaged.

ALTER TABLE layout_sections ADD COLUMN orthogonal_content_length double precision;

CREATE OR REPLACE FUNCTION tessera_checksum(t layout_sections) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(
        t.layout_id, t.section, t.slot, t.scroll_start, t.scroll_end, t.item_count, t.items_extent,
        t.cell_span_low, t.cell_span_high, t.header_size, t.header_pinned, t.footer_size, t.footer_pinned,
        t.background, t.scroll_start_inset, t.scroll_end_inset, t.cross_start_inset, t.placer_state,
        t.orthogonal_content_length), 0)
$$;

-- Rows intact under the old list (its hash written out here) get the new
-- checksum; an update of the checksum alone fires no trigger.
UPDATE layout_sections AS t SET checksum = tessera_checksum(t)
WHERE t.checksum = hash_record_extended(ROW(
    t.layout_id, t.section, t.slot, t.scroll_start, t.scroll_end, t.item_count, t.items_extent,
    t.cell_span_low, t.cell_span_high, t.header_size, t.header_pinned, t.footer_size, t.footer_pinned,
    t.background, t.scroll_start_inset, t.scroll_end_inset, t.cross_start_inset, t.placer_state), 0);

DROP TRIGGER layout_sections_checksum ON layout_sections;
CREATE TRIGGER layout_sections_checksum BEFORE INSERT OR UPDATE OF
    layout_id, section, slot, scroll_start, scroll_end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state, orthogonal_content_length ON layout_sections
    FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();
