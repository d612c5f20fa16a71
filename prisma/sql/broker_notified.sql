-- The current definition of broker_notified() (last set by migration 20261128132538_broker_statements_in_functions).
-- A change to it is a new migration with this same text, written here too (README, "Database").
CREATE OR REPLACE FUNCTION broker_notified(p_members uuid[], p_from bigint, p_to bigint)
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
