-- Tessera store schema, version 10: what a spec's content hash goes on from.
--
-- A spec's content hash combines its header and every section's hash, in
-- order (Sources/TesseraStore/Specs/SpecFingerprint.swift), so an append
-- read every section's identity and hash, each row verified, to hash one
-- changed section: on a 3,000-section feed, 3,000 rows. A spec's row here
-- holds the hasher's state after its header and the hash of every section
-- but the last (24 bytes), with the content hash and the section count it
-- was made for: an append to the last section hashes on from it and reads
-- that section's row alone (the sections before it neither change nor
-- move, and no layout reads them).
--
-- A row is used only while the spec's row holds that content hash and
-- that section count: any other write of the spec changes its hash and
-- leaves the row behind, unused, until an append to the last section,
-- having read every section's hash again, writes it anew. Specs stored
-- before this version have none until then. Its checksum covers it like
-- every row an answer depends on: a damaged row is reported when read and
-- by the store's check, never skipped.

CREATE TABLE spec_hash_prefixes (
    spec_id INTEGER PRIMARY KEY REFERENCES specs(id) ON DELETE CASCADE,
    spec_hash TEXT NOT NULL,            -- the specs.content_hash it was made for
    section_count INTEGER NOT NULL,     -- the spec's section count then
    state BLOB NOT NULL,                -- the content hasher's state before the last section's hash
    checksum INTEGER
);

CREATE TRIGGER spec_hash_prefixes_checksum_insert AFTER INSERT ON spec_hash_prefixes WHEN NEW.checksum IS NULL BEGIN
    UPDATE spec_hash_prefixes SET checksum = tessera_checksum(spec_id, spec_hash, section_count, state) WHERE spec_id = NEW.spec_id;
END;
CREATE TRIGGER spec_hash_prefixes_checksum_update AFTER UPDATE OF spec_id, spec_hash, section_count, state ON spec_hash_prefixes BEGIN
    UPDATE spec_hash_prefixes SET checksum = tessera_checksum(spec_id, spec_hash, section_count, state) WHERE spec_id = NEW.spec_id;
END;
