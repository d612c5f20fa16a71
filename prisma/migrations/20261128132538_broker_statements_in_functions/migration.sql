-- The broker's hot path in fewer round trips and less work a message (docs/performance.md, third round).

-- The audit events' mesh without a foreign key: its check locked the mesh row for every event, one per
-- message, and two nodes' batches locking the same mesh rows made a multixact of each lock. The broker
-- writes an event only for a sender that is a member of the mesh, under the store guard that deleting a
-- mesh takes exclusively; recordAudit (the web app's events) locks the mesh row as the check did; the
-- mesh's events go with it (meshes_deleted_messages below).
-- DropForeignKey
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_mesh_id_fkey";

-- An envelope's seq comes from its sequence: unique without an index of its own (queues are read in
-- seq order through message_recipients' (member_id, seq) index).
-- DropIndex
DROP INDEX "message_envelopes_seq_key";

-- Expiry follows arrival (one time to live for all): a block range index serves the sweep and costs an
-- insert almost nothing.
-- DropIndex
DROP INDEX "message_envelopes_expires_at_idx";

-- CreateIndex
CREATE INDEX "message_envelopes_expires_at_idx" ON "message_envelopes" USING BRIN ("expires_at");

-- An ack sets delivered_at on every envelope (a heap-only update when the new version fits on the
-- page). At fillfactor 70 a page of 1 KB messages holds four rows and room for two new versions, and an
-- ack batch updates all four at once: half the updates left the page and added an entry to every index.
-- With half of each page left free, every row on it can be updated once in place.
ALTER TABLE "message_envelopes" SET (fillfactor = 50);

-- The store of one batch (message-store.ts, insertMessages) in one call, one round trip and one
-- transaction. First the store guard (advisory lock 7301/0, shared; deleting members or meshes takes it
-- exclusively, migration 20261125121124_message_tables_without_foreign_keys); then, in a statement of
-- its own (a snapshot taken after the guard), which senders are members of their mesh and which
-- recipients exist, one index probe per distinct member; then the insert. Values repeated across a
-- batch (senders with their mesh, targets, recipients) come once, with an index (1-based) per use; the
-- queue rows name their envelope by index. Envelopes whose sender is (still) a member of the mesh, a
-- queue row per recipient that exists, a `message_sent` audit event per stored envelope, and one
-- notification at commit for the other nodes. Its insert is planned without nested loops: it joins
-- only what it inserts to what it was given, and a nested loop over two such row sets (which the
-- planner, guessing few rows for an insert's result, chose) is quadratic in the batch. Its plans are
-- generic ones, made once per connection (as the acks'): planned anew for each call's arrays, which
-- PostgreSQL's own choice between the two kept doing, a store of two messages took 1.6-2.1 ms instead
-- of 1.3, the p50 at 1,000 messages/s 5.9 ms instead of 3.0.
-- The members are read by key only (no sequential scan, whatever the statistics say).
CREATE FUNCTION broker_store_messages(
  p_ids uuid[], p_sender_ix int[], p_senders uuid[], p_sender_meshes uuid[], p_target_ix int[], p_targets jsonb[],
  p_priorities message_priority[], p_client_ids text[], p_recipient_counts int[], p_ciphertexts bytea, p_offsets int[], p_lengths int[],
  p_rec_ix int[], p_rec_member_ix int[], p_rec_members uuid[], p_ttl_ms bigint, p_channel text, p_node text
) RETURNS TABLE (o_id uuid, o_seq bigint, o_ms float8) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_nestloop = off
SET enable_seqscan = off AS $$
DECLARE
  -- The columns keep milliseconds: the time given back is the one stored.
  v_now timestamp := (now() AT TIME ZONE 'UTC')::timestamp(3);
  v_sender_ok boolean[];
  v_member_ok boolean[];
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7301, 0);
  SELECT (SELECT array_agg(EXISTS (SELECT 1 FROM members m WHERE m.id = s.id AND m.mesh_id = s.mesh_id) ORDER BY s.ord)
            FROM unnest(p_senders, p_sender_meshes) WITH ORDINALITY AS s(id, mesh_id, ord)),
         (SELECT array_agg(EXISTS (SELECT 1 FROM members m WHERE m.id = r.id) ORDER BY r.ord)
            FROM unnest(p_rec_members) WITH ORDINALITY AS r(id, ord))
    INTO v_sender_ok, v_member_ok;
  RETURN QUERY
  WITH input AS MATERIALIZED (
    -- In arrival order, without the ciphertexts (cut from the parameter as each row is inserted).
    SELECT t.ord, t.id, p_sender_meshes[t.sx] AS mesh_id, p_senders[t.sx] AS sender, p_targets[t.tx] AS target, t.priority,
           t.o, t.l, t.recipients, t.client_id
    FROM unnest(p_ids, p_sender_ix, p_target_ix, p_priorities, p_offsets, p_lengths, p_recipient_counts, p_client_ids)
      WITH ORDINALITY AS t(id, sx, tx, priority, o, l, recipients, client_id, ord)
    WHERE v_sender_ok[t.sx]
    ORDER BY t.ord
  ),
  env AS (
    -- A send the sender made before (same client id) is not stored again: its queue rows and audit
    -- event follow only what was inserted.
    INSERT INTO message_envelopes AS e (id, mesh_id, sender_member_id, target_spec, priority, byte_size, ciphertext, created_at, expires_at, client_msg_id)
    SELECT i.id, i.mesh_id, i.sender, i.target, i.priority, i.l, substring(p_ciphertexts FROM i.o + 1 FOR i.l),
           v_now, v_now + p_ttl_ms * interval '1 millisecond', i.client_id
    FROM input i
    ON CONFLICT (sender_member_id, client_msg_id) DO NOTHING
    RETURNING e.id, e.seq
  ),
  rec AS (
    INSERT INTO message_recipients (envelope_id, member_id, seq)
    SELECT env.id, p_rec_members[r.mx], env.seq
    FROM unnest(p_rec_ix, p_rec_member_ix) AS r(ix, mx) JOIN env ON env.id = p_ids[r.ix]
    WHERE v_member_ok[r.mx]
  ),
  audit AS (
    INSERT INTO audit_events (mesh_id, event_type, actor_member_id, metadata, created_at)
    SELECT i.mesh_id, 'message_sent', i.sender,
           jsonb_build_object('messageId', i.id, 'targetKind', i.target->>'kind', 'recipients', i.recipients, 'byteSize', i.l, 'priority', i.priority),
           v_now
    FROM input i JOIN env ON env.id = i.id
    ORDER BY i.ord
  ),
  note AS (
    SELECT pg_notify(p_channel, json_build_object('n', p_node, 'a', min(env.seq)::text, 'b', max(env.seq)::text,
                                                  'm', (SELECT json_agg(DISTINCT m) FROM unnest(p_sender_meshes) AS m))::text)
    FROM env HAVING p_channel IS NOT NULL AND count(*) > 0
  )
  -- A SELECT CTE runs only when read: the scalar subquery (an InitPlan, evaluated once) reads it.
  SELECT env.id, env.seq, (extract(epoch FROM v_now) * 1000)::float8 FROM env WHERE (SELECT count(*) FROM note) >= 0;
END
$$;

-- Acknowledgements of one batch in one call: the envelopes are locked first, in id order (concurrent
-- batches cannot deadlock), so two recipients acking the last two copies at once on different nodes
-- see each other's delete and exactly one of them sets delivered_at. The second statement (a new
-- snapshot, after the locks) deletes the queue rows; an envelope is delivered when the queue rows it
-- had are exactly the ones deleted now (its snapshot still shows them). The delivered envelopes are
-- then updated through one scan of the primary key for the whole array (a join probed it once per
-- envelope, sorting the array's keys each time). The members come once each, with an index (1-based)
-- per ack. Returns the queue rows deleted.
-- Every row it touches is found by its key: it is planned with nested loops over index scans only. The
-- queue table's statistics (few live rows, most of its pages dead ones awaiting vacuum) made the
-- planner join the acks to a sequential scan of the whole table, a fifth of the database's time.
CREATE FUNCTION broker_ack_messages(p_member_ix int[], p_members uuid[], p_envelopes uuid[]) RETURNS int LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off AS $$
DECLARE
  v_deleted int;
BEGIN
  PERFORM 1 FROM message_envelopes WHERE id = ANY(p_envelopes) ORDER BY id FOR NO KEY UPDATE;
  WITH deleted AS (
    DELETE FROM message_recipients q USING unnest(p_member_ix, p_envelopes) AS a(mx, envelope_id)
    WHERE q.member_id = p_members[a.mx] AND q.envelope_id = a.envelope_id
    RETURNING q.envelope_id
  ),
  gone AS (SELECT envelope_id, count(*) AS n FROM deleted GROUP BY envelope_id),
  finished AS (
    SELECT array_agg(g.envelope_id) AS ids FROM gone g
    WHERE (SELECT count(*) FROM message_recipients q WHERE q.envelope_id = g.envelope_id) = g.n
  ),
  done AS (
    UPDATE message_envelopes e SET delivered_at = now() AT TIME ZONE 'UTC'
    WHERE e.id = ANY((SELECT ids FROM finished)::uuid[]) AND e.delivered_at IS NULL
  )
  SELECT count(*)::int INTO v_deleted FROM deleted;
  RETURN v_deleted;
END
$$;

-- What the audit events' ON DELETE CASCADE did, once per statement (the envelopes' part as before).
CREATE OR REPLACE FUNCTION meshes_deleted_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_envelopes e USING gone g WHERE e.mesh_id = g.id;
  DELETE FROM audit_events a USING gone g WHERE a.mesh_id = g.id;
  RETURN NULL;
END
$$;

-- Queue rows of the given members older than the ack timeout, still unacknowledged: what a node hands
-- out again (message-store.ts, overdueFor), oldest first. Each member's queue is walked in order
-- through its index by a plain index scan, which marks the entries of acknowledged (deleted) rows dead
-- in the index as it passes them, so the next pass steps over them without reading the table. A bitmap
-- scan (the planner's choice) marks nothing: each pass, every 15 s, read again every queue row deleted
-- since the table was last vacuumed (0.5 s of the database's time at 10,000 messages/s).
CREATE FUNCTION broker_overdue(p_members uuid[], p_older_ms bigint, p_limit int)
RETURNS TABLE (o_member_id uuid, o_id uuid, o_seq bigint, o_mesh_id uuid, o_sender uuid, o_target jsonb, o_priority message_priority,
               o_ciphertext bytea, o_created_ms float8, o_attempts int)
LANGUAGE sql STABLE
SET enable_bitmapscan = off AS $$
  SELECT o.* FROM unnest(p_members) AS m(id)
  CROSS JOIN LATERAL (
    SELECT r.member_id, e.id, e.seq, e.mesh_id, e.sender_member_id, e.target_spec, e.priority, e.ciphertext,
           (extract(epoch FROM e.created_at) * 1000)::float8, r.attempts
    FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id
    WHERE r.member_id = m.id AND e.created_at < (now() AT TIME ZONE 'UTC') - p_older_ms * interval '1 millisecond'
      AND e.expires_at > (now() AT TIME ZONE 'UTC')
    ORDER BY r.seq LIMIT p_limit
  ) o
  ORDER BY o.seq LIMIT p_limit
$$;

-- Queue rows of the given members whose message arrived in a seq range (a notification from another
-- node: message-store.ts, queuedInRange), by key only like the acks (the queue table's statistics
-- cannot be trusted to rule out a sequential scan). Unordered: the broker sorts them, rather than the
-- database sorting the rows with their ciphertexts.
CREATE FUNCTION broker_notified(p_members uuid[], p_from bigint, p_to bigint)
RETURNS TABLE (o_member_id uuid, o_id uuid, o_seq bigint, o_mesh_id uuid, o_sender uuid, o_target jsonb, o_priority message_priority,
               o_ciphertext bytea, o_created_ms float8, o_attempts int)
LANGUAGE sql STABLE
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off AS $$
  SELECT r.member_id, e.id, e.seq, e.mesh_id, e.sender_member_id, e.target_spec, e.priority, e.ciphertext,
         (extract(epoch FROM e.created_at) * 1000)::float8, r.attempts
  FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id
  WHERE r.member_id = ANY(p_members) AND r.seq BETWEEN p_from AND p_to
$$;
