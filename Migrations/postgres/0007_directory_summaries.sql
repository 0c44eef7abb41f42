-- Tessera PostgreSQL schema, version 7: a layout's directory in one blob on
-- its row (the SQLite schema's version 9 says why and how it is verified).
--
-- The layout row's checksum does not cover the new column: the blob
-- carries its own, and the id and revision of the layout it summarizes.
-- Layouts stored before this version have none (NULL) until a writer
-- rewrites them, and are read through their rows, as before.

ALTER TABLE layouts ADD COLUMN directory_summary bytea;
