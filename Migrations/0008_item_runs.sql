-- Tessera store schema, version 8: items appended to a section are kept in
-- rows of their own.
--
-- An append rewrote its section's row: its body (all the section's items,
-- a count/cycle turned into a list of all those appended) was read, parsed,
-- hashed and written again, so each append cost more than the one before.
-- Now each append inserts one row here holding only its items (canonical
-- JSON, an array), and sets its section's content_hash; the section's body
-- stays as it was. A section's items are those of its body followed by the
-- items of its runs in order of first_item (as ItemSource.appending would
-- put them). Writing a section's body anew (a save, an update, a resize)
-- deletes its runs. hash_state lets the section's content hash go on from
-- the run's last item without reading the items before it
-- (Sources/TesseraStore/Specs/AppendableHash.swift).
--
-- The row's checksum covers every column but checksum itself (see
-- ChecksummedColumns.itemRuns); the store's INSERT writes it, the triggers
-- fill it in for rows written by another program or updated by hand.
-- Stores of version 7 have no runs: they read the same.

CREATE TABLE spec_item_runs (
    spec_id INTEGER NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
    section INTEGER NOT NULL,
    first_item INTEGER NOT NULL,        -- the section's item count before this run
    item_count INTEGER NOT NULL,
    items TEXT NOT NULL,                -- canonical JSON array of the run's items
    hash_state BLOB NOT NULL,           -- the section's content hash, resumable, after this run
    checksum INTEGER
);

CREATE UNIQUE INDEX spec_item_runs_by_item ON spec_item_runs(spec_id, section, first_item);

CREATE TRIGGER spec_item_runs_checksum_insert AFTER INSERT ON spec_item_runs WHEN NEW.checksum IS NULL BEGIN
    UPDATE spec_item_runs SET checksum = tessera_checksum(spec_id, section, first_item, item_count, items, hash_state)
    WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER spec_item_runs_checksum_update AFTER UPDATE OF
    spec_id, section, first_item, item_count, items, hash_state ON spec_item_runs BEGIN
    UPDATE spec_item_runs SET checksum = tessera_checksum(spec_id, section, first_item, item_count, items, hash_state)
    WHERE rowid = NEW.rowid;
END;
