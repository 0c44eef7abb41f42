-- Tessera PostgreSQL schema, version 8: one spec per name, names compared
-- by canonical equivalence (the SQLite schema's version 12 says why).
--
-- Names are filed in Unicode Normalization Form C from this version on. A
-- name stored before in another form is renamed to its NFC form when it is
-- alone in its class; a class of two or more specs is left as it is and
-- recorded here by its NFC form, and the store refuses its use until the
-- specs are deleted. normalize() needs a UTF8 database: in another encoding
-- the stored names are left as they are.

CREATE TABLE spec_name_conflicts (
    name text COLLATE "C" PRIMARY KEY
);

DO $$
BEGIN
    IF current_setting('server_encoding') = 'UTF8' THEN
        INSERT INTO spec_name_conflicts (name)
            SELECT renamed.nfc FROM (SELECT normalize(name, NFC) AS nfc FROM specs WHERE name IS NOT NFC NORMALIZED) AS renamed
            GROUP BY renamed.nfc
            HAVING count(*) + (SELECT count(*) FROM specs WHERE specs.name = renamed.nfc) > 1;
        UPDATE specs SET name = normalize(name, NFC)
            WHERE name IS NOT NFC NORMALIZED
              AND normalize(name, NFC) NOT IN (SELECT name FROM spec_name_conflicts);
    END IF;
END
$$;
