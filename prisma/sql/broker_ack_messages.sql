-- The current definition of broker_ack_messages() (last set by migration 20261129020000_deliveries_in_their_own_table).
-- A change to it is a new migration with this same text, written here too (README, "Database").
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
