-- The current definition of meshes_deleted_messages() (last set by migration 20261128132538_broker_statements_in_functions).
-- A change to it is a new migration with this same text, written here too (README, "Database").
CREATE OR REPLACE FUNCTION meshes_deleted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_envelopes e USING gone g WHERE e.mesh_id = g.id;
  DELETE FROM audit_events a USING gone g WHERE a.mesh_id = g.id;
  RETURN NULL;
END
$$;
