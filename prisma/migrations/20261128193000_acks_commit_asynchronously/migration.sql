-- An acknowledgement commits without waiting for its WAL to reach the disk (synchronous_commit off for
-- the ack's transaction only; the store keeps waiting: a `sent` promises a message that survives a
-- crash). What a crash of the database server can lose is the acks committed since the last flush: at
-- most three times wal_writer_delay (0.6 s by default) when nothing else commits, and any later
-- synchronous commit (the next store) flushes every ack before it. Their queue rows come back (and an
-- envelope's delivered_at with them), the broker delivers those messages again, and the recipients
-- drop them by message id, as after any redelivery (at least once). What it saves is the flush of each
-- ack call, which a store's commit could queue behind (docs/performance.md, "Acks that do not wait for
-- the disk").
-- set_config(..., true) lasts until the transaction ends: the function has no SET clause of its own for
-- the setting, so it reaches the commit that follows the call.
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
