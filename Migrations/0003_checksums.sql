-- Tessera store schema, version 3: a checksum on every row an answer depends on.
--
-- SQLite's integrity check finds broken pages, not changed bytes inside a
-- row: a byte flipped in a frame blob, a group's bounds or a section row
-- gave other frames without any error. Each row below now carries the
-- XXH64 of its columns (tessera_checksum, a function every Tessera connection
-- registers; tessera_hash is the same hash over a blob's bytes), written by
-- the triggers below whenever the row is written, and compared whenever the
-- store reads the row. The rows written by the thousand (section rows and
-- directory rows) are inserted with their checksums by the store's own
-- INSERT statements instead (an AFTER INSERT trigger would write each row
-- twice); their triggers cover updates. The columns each covers are listed once more in
-- Sources/TesseraSQLite/SQLite/Connection+Checksums.swift (ChecksummedColumns).
--
-- Cell groups are covered by their directory row: frames_checksum is the
-- hash of the group's frame blob, and the row's checksum covers where the
-- group is (layout, slot, first item, group id) and its bounds.
--
-- Existing rows get their checksums here, in the migration's transaction.

ALTER TABLE specs ADD COLUMN checksum INTEGER;
ALTER TABLE spec_sections ADD COLUMN checksum INTEGER;
ALTER TABLE layouts ADD COLUMN checksum INTEGER;
ALTER TABLE layout_sections ADD COLUMN checksum INTEGER;
ALTER TABLE cell_group_directory ADD COLUMN frames_checksum INTEGER;
ALTER TABLE cell_group_directory ADD COLUMN checksum INTEGER;

UPDATE specs SET checksum = tessera_checksum(id, name, body, content_hash, axis, section_count);
UPDATE spec_sections SET checksum = tessera_checksum(spec_id, section, identity, content_hash, body);
UPDATE layouts SET checksum = tessera_checksum(
    id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
    overhang, status, revision);
UPDATE layout_sections SET checksum = tessera_checksum(
    layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state);
UPDATE cell_group_directory SET
    frames_checksum = (SELECT tessera_hash(frames) FROM cell_groups WHERE id = group_id),
    checksum = tessera_checksum(layout_id, slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll);

-- specs
CREATE TRIGGER specs_checksum_insert AFTER INSERT ON specs BEGIN
    UPDATE specs SET checksum = tessera_checksum(id, name, body, content_hash, axis, section_count) WHERE id = NEW.id;
END;
CREATE TRIGGER specs_checksum_update AFTER UPDATE OF id, name, body, content_hash, axis, section_count ON specs BEGIN
    UPDATE specs SET checksum = tessera_checksum(id, name, body, content_hash, axis, section_count) WHERE id = NEW.id;
END;

-- spec_sections
CREATE TRIGGER spec_sections_checksum_insert AFTER INSERT ON spec_sections BEGIN
    UPDATE spec_sections SET checksum = tessera_checksum(spec_id, section, identity, content_hash, body)
    WHERE spec_id = NEW.spec_id AND section = NEW.section;
END;
CREATE TRIGGER spec_sections_checksum_update AFTER UPDATE OF spec_id, section, identity, content_hash, body ON spec_sections BEGIN
    UPDATE spec_sections SET checksum = tessera_checksum(spec_id, section, identity, content_hash, body)
    WHERE spec_id = NEW.spec_id AND section = NEW.section;
END;

-- layouts
CREATE TRIGGER layouts_checksum_insert AFTER INSERT ON layouts BEGIN
    UPDATE layouts SET checksum = tessera_checksum(
        id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
        overhang, status, revision)
    WHERE id = NEW.id;
END;
CREATE TRIGGER layouts_checksum_update AFTER UPDATE OF
    id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
    overhang, status, revision ON layouts BEGIN
    UPDATE layouts SET checksum = tessera_checksum(
        id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
        overhang, status, revision)
    WHERE id = NEW.id;
END;

-- layout_sections (inserted with their checksum)
CREATE TRIGGER layout_sections_checksum_update AFTER UPDATE OF
    layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state ON layout_sections BEGIN
    UPDATE layout_sections SET checksum = tessera_checksum(
        layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
        header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
        placer_state)
    WHERE layout_id = NEW.layout_id AND section = NEW.section;
END;

-- cell_group_directory (inserted with both checksums): a group's frames are
-- rewritten before its directory row is updated, so the update trigger hashes them.
CREATE TRIGGER cell_group_directory_checksum_update AFTER UPDATE OF
    layout_id, slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll ON cell_group_directory BEGIN
    UPDATE cell_group_directory SET
        frames_checksum = (SELECT tessera_hash(frames) FROM cell_groups WHERE id = NEW.group_id),
        checksum = tessera_checksum(layout_id, slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll)
    WHERE layout_id = NEW.layout_id AND slot = NEW.slot AND first_item = NEW.first_item;
END;
