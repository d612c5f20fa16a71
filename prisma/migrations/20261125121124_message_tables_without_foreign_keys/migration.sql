-- DropForeignKey
ALTER TABLE "message_envelopes" DROP CONSTRAINT "message_envelopes_mesh_id_fkey";

-- DropForeignKey
ALTER TABLE "message_envelopes" DROP CONSTRAINT "message_envelopes_sender_member_id_fkey";

-- DropForeignKey
ALTER TABLE "message_recipients" DROP CONSTRAINT "message_recipients_envelope_id_fkey";

-- DropForeignKey
ALTER TABLE "message_recipients" DROP CONSTRAINT "message_recipients_member_id_fkey";

-- What the foreign keys' ON DELETE CASCADE did, once per statement rather than once per row. The
-- broker's store statement locks each batch's recipients (FOR KEY SHARE, as a foreign key check
-- would) and the audit event of each message checks its mesh and sender, so a member or mesh deleted
-- while a batch is stored either waits for the batch, and these triggers then see its rows, or is
-- gone before it, and the batch leaves it out (a recipient) or fails (a sender or mesh).
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
