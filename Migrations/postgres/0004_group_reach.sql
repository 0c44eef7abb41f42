-- Tessera PostgreSQL schema, version 4: how far each section's cell groups
-- reach (the SQLite schema's version 6 says why).
--
-- Each cell group row also holds, over the groups of its slot up to it (in
-- item order; s and e are a group's min_scroll and max_scroll):
--   reach_start = max(s), reach_end = max(e), reach_slack = max(reach_start - s),
-- with reach_checksum over (layout_id, slot, first_item, reach_start,
-- reach_end, reach_slack), written by the trigger below. A query of a layout
-- whose directory is not cached proves from these verified rows that the
-- GiST index left no group out, or reads the whole directory instead.

ALTER TABLE cell_groups
    ADD COLUMN reach_start double precision,
    ADD COLUMN reach_end double precision,
    ADD COLUMN reach_slack double precision,
    ADD COLUMN reach_checksum bigint;

CREATE FUNCTION tessera_reach_checksum(t cell_groups) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hash_record_extended(ROW(t.layout_id, t.slot, t.first_item, t.reach_start, t.reach_end, t.reach_slack), 0)
$$;

CREATE FUNCTION tessera_write_reach_checksum() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.reach_checksum := tessera_reach_checksum(NEW);
    RETURN NEW;
END
$$;

CREATE TRIGGER cell_groups_reach_checksum BEFORE INSERT OR UPDATE OF
    layout_id, slot, first_item, reach_start, reach_end, reach_slack ON cell_groups
    FOR EACH ROW EXECUTE FUNCTION tessera_write_reach_checksum();

WITH running AS (
    SELECT layout_id, slot, first_item, min_scroll,
        max(min_scroll) OVER slot_order AS reach_start,
        max(max_scroll) OVER slot_order AS reach_end
    FROM cell_groups
    WINDOW slot_order AS (PARTITION BY layout_id, slot ORDER BY first_item ROWS UNBOUNDED PRECEDING)
), reach AS (
    SELECT layout_id, slot, first_item, reach_start, reach_end,
        max(reach_start - min_scroll) OVER (PARTITION BY layout_id, slot ORDER BY first_item ROWS UNBOUNDED PRECEDING) AS reach_slack
    FROM running
)
UPDATE cell_groups AS g
SET reach_start = reach.reach_start, reach_end = reach.reach_end, reach_slack = reach.reach_slack
FROM reach
WHERE g.layout_id = reach.layout_id AND g.slot = reach.slot AND g.first_item = reach.first_item;
