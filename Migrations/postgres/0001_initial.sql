-- Tessera store schema for PostgreSQL, version 1.
--
-- This file is the only source of the PostgreSQL schema (the SQLite one is
-- Migrations/NNNN_*.sql). It is embedded in the code: after editing a file
-- here, run Scripts/embed-migrations.sh (a test fails while the copies
-- differ). Never edit a migration that has shipped: add the next numbered
-- file instead.
--
-- Every object lives in the store's own schema (`tessera` unless the URL
-- names another with ?schema=): the migrator creates it and puts it first on
-- the connection's search_path, so the names below are unqualified. One
-- database can hold several stores, and other applications' tables.
--
-- Checksums: every row an answer depends on carries `checksum`, the
-- hash_record_extended of the columns listed in its table's
-- tessera_checksum(row) function below, written by a trigger on every
-- insert and update and compared by every read. Frame blobs are covered by
-- `frames_checksum`, the XXH64 of their bytes that the store computes and
-- compares itself (as with SQLite).

-- The GiST index on a group's layout, slot and bounds needs btree_gist's
-- equality operators on integers (a trusted extension: a database owner may
-- create it). It goes in public, where every store's search_path finds it.
CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public;

-- specs: one row per stored spec name
CREATE TABLE specs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text COLLATE "C" NOT NULL UNIQUE,
    body text NOT NULL,                 -- canonical JSON of the spec without its sections
    content_hash text NOT NULL,
    axis text NOT NULL CHECK (axis IN ('vertical', 'horizontal')),
    section_count integer NOT NULL,
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    checksum bigint NOT NULL
);

CREATE TABLE spec_sections (
    spec_id bigint NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
    section integer NOT NULL,
    identity text NOT NULL,
    content_hash text NOT NULL,
    body text NOT NULL,                 -- canonical JSON of the section: one section changes, one row is written
    checksum bigint NOT NULL,
    PRIMARY KEY (spec_id, section)
);

-- layouts: one row per (spec, cross extent); ids are never reused (readers
-- on every machine cache directories by id and revision)
CREATE TABLE layouts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    spec_id bigint NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
    cross_extent double precision NOT NULL,
    engine_version integer NOT NULL,
    spec_hash text NOT NULL,
    content_length double precision NOT NULL,
    section_count integer NOT NULL,
    cell_count bigint NOT NULL,
    element_count bigint NOT NULL,
    overhang double precision NOT NULL DEFAULT 0,
    status text NOT NULL CHECK (status IN ('ready', 'stale')),
    created_at double precision NOT NULL,
    updated_at double precision NOT NULL,
    compute_seconds double precision NOT NULL DEFAULT 0,
    revision bigint NOT NULL DEFAULT 0, -- bumped by every change in place, for readers' caches
    checksum bigint NOT NULL,
    UNIQUE (spec_id, cross_extent)
);

-- per-section geometry of a layout; cells are stored relative to the section's
-- items origin so that moving a section is one row update
CREATE TABLE layout_sections (
    layout_id bigint NOT NULL REFERENCES layouts(id) ON DELETE CASCADE,
    section integer NOT NULL,
    slot integer NOT NULL,              -- the key of the section's cells: stays when sections are inserted before it
    scroll_start double precision NOT NULL,
    scroll_end double precision NOT NULL,
    item_count integer NOT NULL,
    items_extent double precision NOT NULL,
    cell_span_low double precision,
    cell_span_high double precision,
    header_size double precision,
    header_pinned boolean NOT NULL DEFAULT false,
    footer_size double precision,
    footer_pinned boolean NOT NULL DEFAULT false,
    background boolean NOT NULL DEFAULT false,
    scroll_start_inset double precision NOT NULL,
    scroll_end_inset double precision NOT NULL,
    cross_start_inset double precision NOT NULL,
    placer_state bytea,
    checksum bigint NOT NULL,
    PRIMARY KEY (layout_id, section),
    -- checked at commit: a write that renumbers sections moves slots between rows
    UNIQUE (layout_id, slot) DEFERRABLE INITIALLY DEFERRED
);

CREATE INDEX layout_sections_by_end ON layout_sections (layout_id, scroll_end);

-- cells in groups of consecutive items, one row per group: its place, its
-- exact union rect relative to the items origin, and its exact frames as
-- little-endian doubles (cross, scroll, crossLength, scrollLength per cell).
-- The frames are stored out of line and uncompressed (they hardly compress),
-- so that reading a layout's directory never touches them.
CREATE TABLE cell_groups (
    id bigint GENERATED ALWAYS AS IDENTITY,
    layout_id bigint NOT NULL REFERENCES layouts(id) ON DELETE CASCADE,
    slot integer NOT NULL,              -- layout_sections.slot
    first_item integer NOT NULL,
    min_cross double precision NOT NULL,
    max_cross double precision NOT NULL,
    min_scroll double precision NOT NULL,
    max_scroll double precision NOT NULL,
    frames_checksum bigint NOT NULL,
    checksum bigint NOT NULL,
    frames bytea NOT NULL,
    PRIMARY KEY (layout_id, slot, first_item)
);
ALTER TABLE cell_groups ALTER COLUMN frames SET STORAGE EXTERNAL;
CREATE UNIQUE INDEX cell_groups_by_id ON cell_groups (id);

-- the index for layouts whose directory is not in a reader's memory: the
-- groups of one layout's slot that meet a rect
CREATE INDEX cell_groups_by_bounds ON cell_groups
    USING gist (layout_id, slot, box(point(min_cross, min_scroll), point(max_cross, max_scroll)));

-- Checksums: the columns each covers (times are not covered: nothing an answer depends on).
CREATE FUNCTION tessera_checksum(t specs) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(t.id, t.name, t.body, t.content_hash, t.axis, t.section_count), 0)
$$;
CREATE FUNCTION tessera_checksum(t spec_sections) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(t.spec_id, t.section, t.identity, t.content_hash, t.body), 0)
$$;
CREATE FUNCTION tessera_checksum(t layouts) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(
        t.id, t.spec_id, t.cross_extent, t.engine_version, t.spec_hash, t.content_length, t.section_count,
        t.cell_count, t.element_count, t.overhang, t.status, t.revision), 0)
$$;
CREATE FUNCTION tessera_checksum(t layout_sections) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(
        t.layout_id, t.section, t.slot, t.scroll_start, t.scroll_end, t.item_count, t.items_extent,
        t.cell_span_low, t.cell_span_high, t.header_size, t.header_pinned, t.footer_size, t.footer_pinned,
        t.background, t.scroll_start_inset, t.scroll_end_inset, t.cross_start_inset, t.placer_state), 0)
$$;
CREATE FUNCTION tessera_checksum(t cell_groups) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(
        t.id, t.layout_id, t.slot, t.first_item, t.min_cross, t.max_cross, t.min_scroll, t.max_scroll,
        t.frames_checksum), 0)
$$;

-- One trigger function for every table: PL/pgSQL plans it per table, so
-- tessera_checksum(NEW) resolves to that table's function.
CREATE FUNCTION tessera_write_checksum() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.checksum := tessera_checksum(NEW);
    RETURN NEW;
END
$$;

-- Fired by the columns a checksum covers, as SQLite's triggers are: an
-- update of the checksum alone keeps what it writes (the damage tests use that).
CREATE TRIGGER specs_checksum BEFORE INSERT OR UPDATE OF id, name, body, content_hash, axis, section_count ON specs
    FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();
CREATE TRIGGER spec_sections_checksum BEFORE INSERT OR UPDATE OF spec_id, section, identity, content_hash, body ON spec_sections
    FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();
CREATE TRIGGER layouts_checksum BEFORE INSERT OR UPDATE OF
    id, spec_id, cross_extent, engine_version, spec_hash, content_length, section_count, cell_count, element_count,
    overhang, status, revision ON layouts
    FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();
CREATE TRIGGER layout_sections_checksum BEFORE INSERT OR UPDATE OF
    layout_id, section, slot, scroll_start, scroll_end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
    header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
    placer_state ON layout_sections
    FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();
CREATE TRIGGER cell_groups_checksum BEFORE INSERT OR UPDATE OF
    id, layout_id, slot, first_item, min_cross, max_cross, min_scroll, max_scroll, frames_checksum ON cell_groups
    FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();
