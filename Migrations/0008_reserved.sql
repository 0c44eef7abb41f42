-- Tessera store schema, version 8: reserved.
--
-- The number of another change of the same release (issue 27); this empty
-- step only keeps the versions contiguous on the branch that adds version 9,
-- and is replaced by that change's migration when the branches are merged.
SELECT 1;
