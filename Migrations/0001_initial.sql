-- Tessera store schema, version 1.
--
-- This file is the only source of the schema. The CLI must work when copied
-- anywhere, so it is embedded in the code: after editing a file in Migrations/,
-- run Scripts/embed-migrations.sh (a test fails while the copies differ).
-- Never edit a migration that has shipped: add the next numbered file instead.

-- specs: one row per stored spec name
CREATE TABLE specs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    body TEXT NOT NULL,                 -- canonical JSON of the spec without its sections
    content_hash TEXT NOT NULL,
    axis TEXT NOT NULL CHECK (axis IN ('vertical', 'horizontal')),
    section_count INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE spec_sections (
    spec_id INTEGER NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
    section INTEGER NOT NULL,
    identity TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    body TEXT NOT NULL,                 -- canonical JSON of the section: one section changes, one row is written
    PRIMARY KEY (spec_id, section)
) WITHOUT ROWID;

-- layouts: one row per (spec, cross extent)
CREATE TABLE layouts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: readers cache by id and revision
    spec_id INTEGER NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
    cross_extent REAL NOT NULL,
    engine_version INTEGER NOT NULL,
    spec_hash TEXT NOT NULL,
    content_length REAL NOT NULL,
    section_count INTEGER NOT NULL,
    cell_count INTEGER NOT NULL,
    element_count INTEGER NOT NULL,
    overhang REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('ready', 'stale')),
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    compute_seconds REAL NOT NULL DEFAULT 0,
    revision INTEGER NOT NULL DEFAULT 0, -- bumped by every change in place, for readers' caches
    UNIQUE (spec_id, cross_extent)
);

-- per-section geometry of a layout; cells are stored relative to the section's
-- items origin so that moving a section is one row update
CREATE TABLE layout_sections (
    layout_id INTEGER NOT NULL REFERENCES layouts(id) ON DELETE CASCADE,
    section INTEGER NOT NULL,
    slot INTEGER NOT NULL,              -- the key of the section's cells: stays when sections are inserted before it
    start REAL NOT NULL,
    end REAL NOT NULL,                  -- END is a keyword SQLite accepts as a name here
    item_count INTEGER NOT NULL,
    items_extent REAL NOT NULL,
    cell_span_low REAL,
    cell_span_high REAL,
    header_size REAL,
    header_pinned INTEGER NOT NULL DEFAULT 0,
    footer_size REAL,
    footer_pinned INTEGER NOT NULL DEFAULT 0,
    background INTEGER NOT NULL DEFAULT 0,
    scroll_start_inset REAL NOT NULL,
    scroll_end_inset REAL NOT NULL,
    cross_start_inset REAL NOT NULL,
    placer_state BLOB,
    PRIMARY KEY (layout_id, section)
) WITHOUT ROWID;

CREATE INDEX layout_sections_by_end ON layout_sections(layout_id, end);
CREATE UNIQUE INDEX layout_sections_by_slot ON layout_sections(layout_id, slot);

-- cells in groups of consecutive items: exact frames as a blob of little-endian
-- doubles (cross, scroll, crossLength, scrollLength per cell), relative to the
-- items origin. 250 frames fill one 8 KiB page, so a group is read in place.
CREATE TABLE cell_groups (
    id INTEGER PRIMARY KEY,
    frames BLOB NOT NULL
);

-- the groups of each layout section (by slot), with their exact union rect relative to
-- the items origin: small enough for a reader to hold in memory, so that a
-- query finds its groups without index SQL; also finds an item's group
CREATE TABLE cell_group_directory (
    layout_id INTEGER NOT NULL REFERENCES layouts(id) ON DELETE CASCADE,
    slot INTEGER NOT NULL,              -- layout_sections.slot
    first_item INTEGER NOT NULL,
    group_id INTEGER NOT NULL,          -- cell_groups.id and cell_groups_rtree.id
    min_cross REAL NOT NULL,
    max_cross REAL NOT NULL,
    min_scroll REAL NOT NULL,
    max_scroll REAL NOT NULL,
    PRIMARY KEY (layout_id, slot, first_item)
) WITHOUT ROWID;

-- the on-disk index for layouts too large to hold a directory in memory: one
-- R*Tree row per group, its union rect (32-bit floats rounded outward: an
-- index only, never frames; layout ids and slots are exact up to 2^24)
--
-- ON DELETE CASCADE reaches neither this virtual table nor cell_groups: whoever
-- deletes directory rows must delete their groups and rtree rows explicitly.
CREATE VIRTUAL TABLE cell_groups_rtree USING rtree(
    id,
    min_layout, max_layout,
    min_slot, max_slot,
    min_cross, max_cross,
    min_scroll, max_scroll,
    +first_item
);
