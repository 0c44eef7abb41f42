-- Tessera store schema, version 12: one spec per name, names compared by
-- canonical equivalence.
--
-- From this version on every name is filed in Unicode Normalization Form C
-- (tessera_nfc, registered on every connection): `café` written with a
-- precomposed é and with e + U+0301 is one name. A store written before may
-- hold a name in another form: alone in its class it is renamed to its NFC
-- form (the spec stays reachable under every spelling); two or more specs
-- filed under equivalent names cannot be told apart by a lookup, so they are
-- left as they are and their class is recorded here, by its NFC form. The
-- store refuses every use of such a name with a clear error until the specs
-- are deleted (a delete of the name removes every spec of its class), and
-- `tessera check` reports them. Only non-ASCII names can be in another form.

CREATE TABLE spec_name_conflicts (
    name TEXT PRIMARY KEY NOT NULL
) WITHOUT ROWID;

INSERT INTO spec_name_conflicts (name)
    SELECT nfc FROM (SELECT tessera_nfc(name) AS nfc FROM specs WHERE name GLOB '*[^' || char(1) || '-' || char(127) || ']*'
                     AND tessera_nfc(name) <> name) AS renamed
    GROUP BY nfc
    HAVING count(*) + (SELECT count(*) FROM specs WHERE specs.name = renamed.nfc) > 1;

UPDATE specs SET name = tessera_nfc(name)
    WHERE name GLOB '*[^' || char(1) || '-' || char(127) || ']*'
      AND tessera_nfc(name) <> name
      AND tessera_nfc(name) NOT IN (SELECT name FROM spec_name_conflicts);
