-- Tessera store schema, version 6: how far each section's cell groups reach.
--
-- A query of a layout whose directory is not in memory finds its groups
-- through the R*Tree, whose pages no checksum covers: a damaged page could
-- leave a group out, and the answer would miss its cells without an error.
-- Each directory row now also holds, over the groups of its slot up to it
-- (in item order; s and e are a group's min_scroll and max_scroll):
--   reach_start = max(s), reach_end = max(e),
--   reach_slack = max(reach_start - s),
-- all three never decreasing along a slot, with reach_checksum, the XXH64 of
-- (layout_id, slot, first_item, reach_start, reach_end, reach_slack). From
-- the verified rows around the groups the R*Tree found, a query proves that
-- none before or after them meets its band (Sources/TesseraStore/Layouts/
-- GroupReach.swift), or reads the whole directory instead.
--
-- Existing rows get their reach here, in the migration's transaction; the
-- store's INSERT statements write it with the row, and the trigger below
-- keeps reach_checksum right when another program updates the columns.

ALTER TABLE cell_group_directory ADD COLUMN reach_start REAL;
ALTER TABLE cell_group_directory ADD COLUMN reach_end REAL;
ALTER TABLE cell_group_directory ADD COLUMN reach_slack REAL;
ALTER TABLE cell_group_directory ADD COLUMN reach_checksum INTEGER;

WITH running AS (
    SELECT layout_id, slot, first_item, min_scroll,
        max(min_scroll) OVER slot_order AS reach_start,
        max(max_scroll) OVER slot_order AS reach_end
    FROM cell_group_directory
    WINDOW slot_order AS (PARTITION BY layout_id, slot ORDER BY first_item ROWS UNBOUNDED PRECEDING)
), reach AS (
    SELECT layout_id, slot, first_item, reach_start, reach_end,
        max(reach_start - min_scroll) OVER (PARTITION BY layout_id, slot ORDER BY first_item ROWS UNBOUNDED PRECEDING) AS reach_slack
    FROM running
)
UPDATE cell_group_directory AS d
SET reach_start = reach.reach_start, reach_end = reach.reach_end, reach_slack = reach.reach_slack,
    reach_checksum = tessera_checksum(d.layout_id, d.slot, d.first_item, reach.reach_start, reach.reach_end, reach.reach_slack)
FROM reach
WHERE d.layout_id = reach.layout_id AND d.slot = reach.slot AND d.first_item = reach.first_item;

CREATE TRIGGER cell_group_directory_reach_update AFTER UPDATE OF
    layout_id, slot, first_item, reach_start, reach_end, reach_slack ON cell_group_directory BEGIN
    UPDATE cell_group_directory SET
        reach_checksum = tessera_checksum(layout_id, slot, first_item, reach_start, reach_end, reach_slack)
    WHERE layout_id = NEW.layout_id AND slot = NEW.slot AND first_item = NEW.first_item;
END;
