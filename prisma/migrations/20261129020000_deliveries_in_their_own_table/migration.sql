-- An envelope's delivery time moves to a table of its own. Setting message_envelopes.delivered_at
-- wrote the envelope again, its kilobyte of ciphertext with it, in the WAL and as a dead version for
-- vacuum, for every message delivered (heap-only when its page had room, which fillfactor 50 left for
-- it: migration 20261128132538_broker_statements_in_functions); a delivery is now one small row. The
-- API's `deliveredAt` reads it with a join.
CREATE TABLE "message_deliveries" (
    "envelope_id" UUID NOT NULL,
    "delivered_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "message_deliveries_pkey" PRIMARY KEY ("envelope_id")
);

INSERT INTO message_deliveries (envelope_id, delivered_at)
SELECT id, delivered_at FROM message_envelopes WHERE delivered_at IS NOT NULL;

-- The column stays for one release and is no longer written: during a rolling upgrade the processes
-- of the release before this one (which read it for the stream) run against this schema. A later
-- release drops it (docs/deploy.md, "Schema changes in two steps").

-- Envelopes are no longer updated: their pages can be filled (fillfactor 50 left half of each for the
-- update). Pages written before keep their room until they are rewritten.
ALTER TABLE "message_envelopes" RESET (fillfactor);

-- A delivery goes with its envelope, as the envelope's queue rows do (no foreign keys on the message
-- tables: migration 20261125121124_message_tables_without_foreign_keys).
CREATE OR REPLACE FUNCTION message_envelopes_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_recipients r USING gone g WHERE r.envelope_id = g.id;
  DELETE FROM message_deliveries d USING gone g WHERE d.envelope_id = g.id;
  RETURN NULL;
END
$$;

-- As in 20261128193000_acks_commit_asynchronously, but an envelope every recipient has now acknowledged
-- gets a row in message_deliveries instead of an update. The envelopes are still locked first (in id
-- order), so two recipients acking the last two copies at once see each other's delete and exactly one
-- of them writes the delivery; ON CONFLICT keeps a second one out whatever happens.
CREATE OR REPLACE FUNCTION broker_ack_messages(p_member_ix int[], p_members uuid[], p_envelopes uuid[]) RETURNS int LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off AS $$
DECLARE
  v_deleted int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM 1 FROM message_envelopes WHERE id = ANY(p_envelopes) ORDER BY id FOR NO KEY UPDATE;
  WITH deleted AS (
    DELETE FROM message_recipients q USING unnest(p_member_ix, p_envelopes) AS a(mx, envelope_id)
    WHERE q.member_id = p_members[a.mx] AND q.envelope_id = a.envelope_id
    RETURNING q.envelope_id
  ),
  gone AS (SELECT envelope_id, count(*) AS n FROM deleted GROUP BY envelope_id),
  done AS (
    INSERT INTO message_deliveries (envelope_id, delivered_at)
    SELECT g.envelope_id, now() AT TIME ZONE 'UTC' FROM gone g
    WHERE (SELECT count(*) FROM message_recipients q WHERE q.envelope_id = g.envelope_id) = g.n
    ON CONFLICT (envelope_id) DO NOTHING
  )
  SELECT count(*)::int INTO v_deleted FROM deleted;
  RETURN v_deleted;
END
$$;
