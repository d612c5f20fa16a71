-- The current definition of message_store_guard() (last set by migration 20261125121124_message_tables_without_foreign_keys).
-- A change to it is a new migration with this same text, written here too (README, "Database").
CREATE OR REPLACE FUNCTION message_store_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301, 0);
  RETURN NULL;
END
$$;
