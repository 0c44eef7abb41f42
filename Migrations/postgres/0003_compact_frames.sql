-- Tessera PostgreSQL schema, version 3: cell groups may hold compact frame
-- blobs.
--
-- No table changes. `frames` was four little-endian doubles per cell; it is
-- now written in a compact form (an 8-byte mark that is a NaN's bit pattern,
-- the frame count, then each of the four values as a column: one double per
-- cell, or the column's few distinct values once and one byte per cell),
-- about 11 bytes per cell of a waterfall instead of 32. See
-- Sources/TesseraStore/Layouts/FrameBlob.swift.
--
-- Groups written before stay as they are and are read in both forms. The
-- version exists for older builds: they know up to version 2, so they refuse
-- this store instead of reading a compact blob as doubles.

COMMENT ON COLUMN cell_groups.frames IS
    'frames of items first_item…: compact (8-byte NaN mark, count, four columns) or, before schema version 3, four little-endian doubles per cell';
