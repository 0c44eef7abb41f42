-- Tessera PostgreSQL schema, version 6: items appended to a section are kept
-- in rows of their own (the SQLite schema's version 8 says why).
--
-- Each append inserts one row holding only its items (canonical JSON, an
-- array) and sets its section's content_hash; the section's body stays. A
-- section's items are those of its body followed by its runs' items in
-- order of first_item. Writing a section's body anew deletes its runs.
-- hash_state lets the section's hash go on without the items before it.
-- The checksum covers every column but itself, written by the trigger.

CREATE TABLE spec_item_runs (
    spec_id bigint NOT NULL REFERENCES specs(id) ON DELETE CASCADE,
    section integer NOT NULL,
    first_item bigint NOT NULL,         -- the section's item count before this run
    item_count bigint NOT NULL,
    items text NOT NULL,                -- canonical JSON array of the run's items
    hash_state bytea NOT NULL,          -- the section's content hash, resumable, after this run
    checksum bigint NOT NULL,
    PRIMARY KEY (spec_id, section, first_item)
);

CREATE FUNCTION tessera_checksum(t spec_item_runs) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(t.spec_id, t.section, t.first_item, t.item_count, t.items, t.hash_state), 0)
$$;

CREATE TRIGGER spec_item_runs_checksum BEFORE INSERT OR UPDATE OF
    spec_id, section, first_item, item_count, items, hash_state ON spec_item_runs
    FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();

CREATE TRIGGER spec_item_runs_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON spec_item_runs
    FOR EACH STATEMENT EXECUTE FUNCTION tessera_notify_change();
