-- Tessera store schema, version 7: orthogonal sections (carousels).
--
-- A section row of an orthogonal section holds its content length across
-- the feed (the extent of its items along the kind's own scroll axis,
-- both cross-axis insets included), which answers carry as "orthogonal";
-- NULL for a section that scrolls with the feed, as every section stored
-- before this version does (old stores read the same).
--
-- The row's checksum now covers the new column, after placer_state. Rows
-- that matched their checksum before get the new one here, in the
-- migration's transaction; a damaged row stays damaged. The update
-- trigger hashes the new column list.

ALTER TABLE layout_sections ADD COLUMN orthogonal_content_length REAL;

UPDATE layout_sections SET checksum = tessera_checksum(
    layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state, orthogonal_content_length)
WHERE checksum IS tessera_checksum(
    layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state);

DROP TRIGGER layout_sections_checksum_update;
CREATE TRIGGER layout_sections_checksum_update AFTER UPDATE OF
    layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state, orthogonal_content_length ON layout_sections BEGIN
    UPDATE layout_sections SET checksum = tessera_checksum(
        layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
        header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
        placer_state, orthogonal_content_length)
    WHERE layout_id = NEW.layout_id AND section = NEW.section;
END;
