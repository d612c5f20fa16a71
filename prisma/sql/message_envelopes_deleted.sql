-- The current definition of message_envelopes_deleted() (last set by migration 20261129020000_deliveries_in_their_own_table).
-- A change to it is a new migration with this same text, written here too (README, "Database").
CREATE OR REPLACE FUNCTION message_envelopes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_recipients r USING gone g WHERE r.envelope_id = g.id;
  DELETE FROM message_deliveries d USING gone g WHERE d.envelope_id = g.id;
  RETURN NULL;
END
$$;
