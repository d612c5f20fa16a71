-- The current definition of members_deleted_messages() (last set by migration 20261125121124_message_tables_without_foreign_keys).
-- A change to it is a new migration with this same text, written here too (README, "Database").
CREATE OR REPLACE FUNCTION members_deleted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_recipients r USING gone g WHERE r.member_id = g.id;
  DELETE FROM message_envelopes e USING gone g WHERE e.sender_member_id = g.id;
  UPDATE audit_events a SET actor_member_id = NULL FROM gone g WHERE a.actor_member_id = g.id;
  RETURN NULL;
END
$$;
