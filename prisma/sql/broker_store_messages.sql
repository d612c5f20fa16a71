-- The current definition of broker_store_messages() (last set by migration 20261128132538_broker_statements_in_functions).
-- A change to it is a new migration with this same text, written here too (README, "Database").
CREATE OR REPLACE FUNCTION broker_store_messages(
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
