-- Tessera store schema, version 13: the store seals the rows it updates.
--
-- From this version on the store computes every checksum as it writes a row
-- (TesseraStore's row tables name the columns each one covers, in the order
-- tessera_checksum hashes them), so a row it updates arrives sealed. The
-- update triggers now run only when a row's checksum does not match its
-- columns, as after an UPDATE in SQL by another program: they seal such a
-- row as before, and leave a sealed one alone instead of writing it twice.
-- The insert triggers already ran only for a row without its checksum.

DROP TRIGGER specs_checksum_update;
CREATE TRIGGER specs_checksum_update AFTER UPDATE OF id, name, body, content_hash, axis, section_count ON specs
WHEN NEW.checksum IS NOT tessera_checksum(NEW.id, NEW.name, NEW.body, NEW.content_hash, NEW.axis, NEW.section_count) BEGIN
    UPDATE specs SET checksum = tessera_checksum(id, name, body, content_hash, axis, section_count) WHERE id = NEW.id;
END;

DROP TRIGGER spec_sections_checksum_update;
CREATE TRIGGER spec_sections_checksum_update AFTER UPDATE OF spec_id, section, identity, content_hash, body ON spec_sections
WHEN NEW.checksum IS NOT tessera_checksum(NEW.spec_id, NEW.section, NEW.identity, NEW.content_hash, NEW.body) BEGIN
    UPDATE spec_sections SET checksum = tessera_checksum(spec_id, section, identity, content_hash, body)
    WHERE spec_id = NEW.spec_id AND section = NEW.section;
END;

DROP TRIGGER layouts_checksum_update;
CREATE TRIGGER layouts_checksum_update AFTER UPDATE OF
    id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
    overhang, status, revision ON layouts
WHEN NEW.checksum IS NOT tessera_checksum(
    NEW.id, NEW.spec_id, NEW.cross_extent, NEW.engine_version, NEW.spec_hash, NEW.content_length, NEW.section_count,
    NEW.cell_count, NEW.element_count, NEW.overhang, NEW.status, NEW.revision) BEGIN
    UPDATE layouts SET checksum = tessera_checksum(
        id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
        overhang, status, revision)
    WHERE id = NEW.id;
END;

DROP TRIGGER cell_group_directory_checksum_update;
CREATE TRIGGER cell_group_directory_checksum_update AFTER UPDATE OF
    layout_id, slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll ON cell_group_directory
WHEN NEW.checksum IS NOT tessera_checksum(
    NEW.layout_id, NEW.slot, NEW.first_item, NEW.group_id, NEW.min_cross, NEW.max_cross, NEW.min_scroll, NEW.max_scroll) BEGIN
    UPDATE cell_group_directory SET
        frames_checksum = (SELECT tessera_hash(frames) FROM cell_groups WHERE id = NEW.group_id),
        checksum = tessera_checksum(layout_id, slot, first_item, group_id, min_cross, max_cross, min_scroll, max_scroll)
    WHERE layout_id = NEW.layout_id AND slot = NEW.slot AND first_item = NEW.first_item;
END;

DROP TRIGGER cell_group_directory_reach_update;
CREATE TRIGGER cell_group_directory_reach_update AFTER UPDATE OF
    layout_id, slot, first_item, reach_start, reach_end, reach_slack ON cell_group_directory
WHEN NEW.reach_checksum IS NOT tessera_checksum(
    NEW.layout_id, NEW.slot, NEW.first_item, NEW.reach_start, NEW.reach_end, NEW.reach_slack) BEGIN
    UPDATE cell_group_directory SET
        reach_checksum = tessera_checksum(layout_id, slot, first_item, reach_start, reach_end, reach_slack)
    WHERE layout_id = NEW.layout_id AND slot = NEW.slot AND first_item = NEW.first_item;
END;

DROP TRIGGER layout_sections_checksum_update;
CREATE TRIGGER layout_sections_checksum_update AFTER UPDATE OF
    layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state, orthogonal_content_length ON layout_sections
WHEN NEW.checksum IS NOT tessera_checksum(
    NEW.layout_id, NEW.section, NEW.slot, NEW.start, NEW.end, NEW.item_count, NEW.items_extent, NEW.cell_span_low,
    NEW.cell_span_high, NEW.header_size, NEW.header_pinned, NEW.footer_size, NEW.footer_pinned, NEW.background,
    NEW.scroll_start_inset, NEW.scroll_end_inset, NEW.cross_start_inset, NEW.placer_state, NEW.orthogonal_content_length) BEGIN
    UPDATE layout_sections SET checksum = tessera_checksum(
        layout_id, section, slot, start, end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
        header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
        placer_state, orthogonal_content_length)
    WHERE layout_id = NEW.layout_id AND section = NEW.section;
END;

DROP TRIGGER spec_item_runs_checksum_update;
CREATE TRIGGER spec_item_runs_checksum_update AFTER UPDATE OF
    spec_id, section, first_item, item_count, items, hash_state ON spec_item_runs
WHEN NEW.checksum IS NOT tessera_checksum(NEW.spec_id, NEW.section, NEW.first_item, NEW.item_count, NEW.items, NEW.hash_state) BEGIN
    UPDATE spec_item_runs SET checksum = tessera_checksum(spec_id, section, first_item, item_count, items, hash_state)
    WHERE rowid = NEW.rowid;
END;

DROP TRIGGER spec_hash_prefixes_checksum_update;
CREATE TRIGGER spec_hash_prefixes_checksum_update AFTER UPDATE OF spec_id, spec_hash, section_count, state ON spec_hash_prefixes
WHEN NEW.checksum IS NOT tessera_checksum(NEW.spec_id, NEW.spec_hash, NEW.section_count, NEW.state) BEGIN
    UPDATE spec_hash_prefixes SET checksum = tessera_checksum(spec_id, spec_hash, section_count, state) WHERE spec_id = NEW.spec_id;
END;
