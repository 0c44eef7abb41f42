-- Tessera PostgreSQL schema, version 2: every change to a store's rows
-- notifies the store's channel, so that readers that cache resolved
-- layouts (`?freshness=notified`) learn of commits without asking.
--
-- The channel is `tessera_` followed by the oid of the store's schema: one
-- per store, short whatever the schema's name. A statement-level trigger
-- on each table sends it, whoever writes (Tessera, a script, a repair by
-- hand); PostgreSQL sends one notification per channel and payload per
-- transaction, at its commit, and none for a transaction rolled back.

CREATE FUNCTION tessera_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tessera_' || (SELECT oid FROM pg_namespace WHERE nspname = TG_TABLE_SCHEMA), '');
    RETURN NULL;
END
$$;

CREATE TRIGGER specs_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON specs
    FOR EACH STATEMENT EXECUTE FUNCTION tessera_notify_change();
CREATE TRIGGER spec_sections_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON spec_sections
    FOR EACH STATEMENT EXECUTE FUNCTION tessera_notify_change();
CREATE TRIGGER layouts_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON layouts
    FOR EACH STATEMENT EXECUTE FUNCTION tessera_notify_change();
CREATE TRIGGER layout_sections_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON layout_sections
    FOR EACH STATEMENT EXECUTE FUNCTION tessera_notify_change();
CREATE TRIGGER cell_groups_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cell_groups
    FOR EACH STATEMENT EXECUTE FUNCTION tessera_notify_change();
