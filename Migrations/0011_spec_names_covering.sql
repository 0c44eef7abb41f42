-- Tessera store schema, version 11: the spec columns a query resolves by name, in an index.
--
-- The statement that resolves a layout by spec name and extent reads the
-- spec's id, axis and content hash: through the UNIQUE index on the name,
-- then from the spec's row, then the layout's index and row. On a query's
-- first look at a layout each is a descent through B-tree pages the process
-- has not touched. This index holds those columns (the id is the index
-- entry's rowid), so the spec's row is no longer read; the statement names
-- it (INDEXED BY in Sources/TesseraSQLite/Storage/Connection+Reads.swift):
-- without statistics SQLite prefers the UNIQUE index, whose one row it
-- knows for certain.
--
-- No checksum is lost: the statement verifies the layout's row, never read
-- the spec's checksum, and compares the same content hash as before.

CREATE INDEX specs_resolve ON specs(name, axis, content_hash);
