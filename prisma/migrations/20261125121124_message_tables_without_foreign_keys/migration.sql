-- DropForeignKey
ALTER TABLE "message_envelopes" DROP CONSTRAINT "message_envelopes_mesh_id_fkey";

-- DropForeignKey
ALTER TABLE "message_envelopes" DROP CONSTRAINT "message_envelopes_sender_member_id_fkey";

-- DropForeignKey
ALTER TABLE "message_recipients" DROP CONSTRAINT "message_recipients_envelope_id_fkey";

-- DropForeignKey
ALTER TABLE "message_recipients" DROP CONSTRAINT "message_recipients_member_id_fkey";


-- DropForeignKey
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_actor_member_id_fkey";

-- The broker's hot tables without foreign keys (docs/performance.md): each would check and lock a
-- parent row per inserted row, and rows locked by two nodes' batches at once become multixacts.

-- The guard of the broker's store (message-store.ts, MESSAGE_STORE_LOCK = 7301): a batch is stored
-- holding this lock shared and keeps only the messages whose sender exists and the queue rows whose
-- recipient exists, read after taking it. Deleting members or meshes takes it exclusively first: it
-- waits for the batches being stored (its triggers then see their rows), and batches that come after
-- wait for it (they then no longer see what it deleted).
CREATE FUNCTION message_store_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7301, 0);
  RETURN NULL;
END
$$;

CREATE TRIGGER members_message_store_guard BEFORE DELETE ON members
  FOR EACH STATEMENT EXECUTE FUNCTION message_store_guard();

CREATE TRIGGER meshes_message_store_guard BEFORE DELETE ON meshes
  FOR EACH STATEMENT EXECUTE FUNCTION message_store_guard();

-- What the foreign keys' ON DELETE CASCADE and SET NULL did, once per statement rather than per row.
CREATE FUNCTION message_envelopes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_recipients r USING gone g WHERE r.envelope_id = g.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER message_envelopes_deleted AFTER DELETE ON message_envelopes
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION message_envelopes_deleted();

CREATE FUNCTION members_deleted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_recipients r USING gone g WHERE r.member_id = g.id;
  DELETE FROM message_envelopes e USING gone g WHERE e.sender_member_id = g.id;
  UPDATE audit_events a SET actor_member_id = NULL FROM gone g WHERE a.actor_member_id = g.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER members_deleted_messages AFTER DELETE ON members
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION members_deleted_messages();

CREATE FUNCTION meshes_deleted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_envelopes e USING gone g WHERE e.mesh_id = g.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER meshes_deleted_messages AFTER DELETE ON meshes
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION meshes_deleted_messages();
