-- Tessera store schema, version 5: the store writes the checksums of the
-- rows it inserts.
--
-- Version 3's insert triggers wrote every new row of specs, spec_sections
-- and layouts a second time, to set its checksum: five of the 38 statements
-- that saving a small feed at two widths ran. The store's own INSERT
-- statements now carry the checksum (tessera_checksum of the same values,
-- in the column order of Sources/TesseraSQLite/SQLite/Connection+Checksums.swift);
-- these triggers fill it in only for a row inserted without one, by
-- another program or by hand. The update triggers stay as they were.

DROP TRIGGER specs_checksum_insert;
CREATE TRIGGER specs_checksum_insert AFTER INSERT ON specs WHEN NEW.checksum IS NULL BEGIN
    UPDATE specs SET checksum = tessera_checksum(id, name, body, content_hash, axis, section_count) WHERE id = NEW.id;
END;

DROP TRIGGER spec_sections_checksum_insert;
CREATE TRIGGER spec_sections_checksum_insert AFTER INSERT ON spec_sections WHEN NEW.checksum IS NULL BEGIN
    UPDATE spec_sections SET checksum = tessera_checksum(spec_id, section, identity, content_hash, body)
    WHERE spec_id = NEW.spec_id AND section = NEW.section;
END;

DROP TRIGGER layouts_checksum_insert;
CREATE TRIGGER layouts_checksum_insert AFTER INSERT ON layouts WHEN NEW.checksum IS NULL BEGIN
    UPDATE layouts SET checksum = tessera_checksum(
        id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
        overhang, status, revision)
    WHERE id = NEW.id;
END;
