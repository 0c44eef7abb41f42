-- Tessera store schema, version 2: spec_sections becomes a rowid table.
--
-- A section's canonical JSON is often a few kilobytes (items given one by
-- one). In a WITHOUT ROWID table a row keeps at most about 2 KB on its page
-- and the rest goes to an overflow page of its own, mostly empty: 21 bytes
-- per element of small feeds. A rowid table keeps rows up to 8 KB whole on
-- their page. Lookups by (spec_id, section) go through the unique index.

CREATE TABLE spec_sections_v2 (
    spec_id INTEGER NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
    section INTEGER NOT NULL,
    identity TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    body TEXT NOT NULL                  -- canonical JSON of the section: one section changes, one row is written
);

INSERT INTO spec_sections_v2 (spec_id, section, identity, content_hash, body)
    SELECT spec_id, section, identity, content_hash, body FROM spec_sections ORDER BY spec_id, section;

DROP TABLE spec_sections;

ALTER TABLE spec_sections_v2 RENAME TO spec_sections;

CREATE UNIQUE INDEX spec_sections_by_section ON spec_sections(spec_id, section);
