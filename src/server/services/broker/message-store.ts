import type pg from "pg";
import { inTransaction } from "../../core/pg-transaction";

/**
 * The advisory lock (two keys: this and 0) that guards stores against deletes of members and meshes:
 * shared while a batch is stored, exclusive in the delete triggers of migration
 * 20261125121124_message_tables_without_foreign_keys (keep the two in step).
 */
export const MESSAGE_STORE_LOCK = 7301;

// The broker's message queue in SQL. It runs on plain pg rather than Prisma because each call moves
// many rows at once (multi-row inserts through unnest) and this is the broker's hot path. Times are
// written by the database (`now() AT TIME ZONE 'UTC'`, the columns are UTC timestamps without zone)
// and read back as epoch milliseconds, so neither side's time zone setting matters.

const UTC_NOW = "(now() AT TIME ZONE 'UTC')";
const EPOCH_MS = (col: string) => `(extract(epoch FROM ${col}) * 1000)::float8`;

export interface NewMessage {
  id: string;
  meshId: string;
  senderMemberId: string;
  targetSpec: unknown;
  priority: string;
  ciphertext: Buffer;
  recipients: readonly string[];
  /** The sender's id of the send (its frame id); null: none. */
  clientId?: string | null;
}

export interface StoredMessage {
  id: string;
  seq: string;
  createdAtMs: number;
  /** The sender had sent this one before (same client id, within the time to live): nothing new was stored. */
  duplicate?: boolean;
}

/**
 * Stores envelopes, one queue row per recipient and one `message_sent` audit event each, in one
 * statement (one implicit round of work for the whole batch), under the store guard. Rows keep the
 * order of `items`, so `seq` follows the order in which the sends arrived. The tables have no foreign
 * keys: a message whose sender was deleted meanwhile is not stored (its result is null), and a
 * recipient deleted meanwhile gets no queue row.
 */
export async function insertMessages(
  pool: pg.Pool,
  items: readonly NewMessage[],
  ttlMs: number,
  /** When set, one `{n, a, b, m}` notification (node, first and last seq, meshes) on this channel, sent at commit. */
  notify?: { channel: string; nodeId: string },
): Promise<(StoredMessage | null)[]> {
  if (items.length === 0) return [];
  const recipientEnvelopes: string[] = [];
  const recipientMembers: string[] = [];
  for (const item of items) {
    for (const member of item.recipients) {
      recipientEnvelopes.push(item.id);
      recipientMembers.push(member);
    }
  }
  // The ciphertexts travel as one binary parameter (pg sends a Buffer as raw bytes) cut apart by offset:
  // a bytea[] goes as text, every byte spelled in hex and parsed back by the server.
  const offsets: number[] = [];
  const lengths: number[] = [];
  let offset = 0;
  for (const item of items) {
    offsets.push(offset);
    lengths.push(item.ciphertext.length);
    offset += item.ciphertext.length;
  }
  // The guard is taken with BEGIN (one round trip) and before the statement, whose snapshot then shows
  // every delete that finished first.
  return inTransaction(
    pool,
    (client) => storeBatch(client, items, ttlMs, notify, { recipientEnvelopes, recipientMembers, offsets, lengths, bytes: offset }),
    `SELECT pg_advisory_xact_lock_shared(${MESSAGE_STORE_LOCK}, 0)`,
  );
}

async function storeBatch(
  client: pg.PoolClient,
  items: readonly NewMessage[],
  ttlMs: number,
  notify: { channel: string; nodeId: string } | undefined,
  p: { recipientEnvelopes: string[]; recipientMembers: string[]; offsets: number[]; lengths: number[]; bytes: number },
): Promise<(StoredMessage | null)[]> {
  const { rows } = await client.query<{ id: string; seq: string; created_ms: number }>(
    `WITH input AS (
       SELECT id, mesh_id, sender, target, priority, substring($6::bytea FROM o + 1 FOR l) AS ciphertext, recipients, client_id, ord
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::jsonb[], $5::message_priority[], $14::int[], $15::int[], $7::int[], $13::text[])
         WITH ORDINALITY AS t(id, mesh_id, sender, target, priority, o, l, recipients, client_id, ord)
     ),
     env AS (
       -- A send the sender made before (same client id) is not stored again: its queue rows and audit
       -- event follow only what was inserted.
       INSERT INTO message_envelopes (id, mesh_id, sender_member_id, target_spec, priority, byte_size, ciphertext, created_at, expires_at, client_msg_id)
       SELECT id, mesh_id, sender, target, priority, octet_length(ciphertext), ciphertext, ${UTC_NOW}, ${UTC_NOW} + $8::bigint * interval '1 millisecond', client_id
       FROM input i WHERE EXISTS (SELECT 1 FROM members m WHERE m.id = i.sender AND m.mesh_id = i.mesh_id)
       ORDER BY ord
       ON CONFLICT (sender_member_id, client_msg_id) DO NOTHING
       RETURNING id, seq, created_at
     ),
     rec AS (
       INSERT INTO message_recipients (envelope_id, member_id, seq)
       SELECT r.envelope_id, r.member_id, env.seq
       FROM unnest($9::uuid[], $10::uuid[]) AS r(envelope_id, member_id) JOIN env ON env.id = r.envelope_id
       WHERE EXISTS (SELECT 1 FROM members m WHERE m.id = r.member_id)
     ),
     audit AS (
       INSERT INTO audit_events (mesh_id, event_type, actor_member_id, metadata, created_at)
       SELECT mesh_id, 'message_sent', sender,
              jsonb_build_object('messageId', id, 'targetKind', target->>'kind', 'recipients', recipients, 'byteSize', octet_length(ciphertext), 'priority', priority),
              ${UTC_NOW}
       FROM input WHERE id IN (SELECT id FROM env) ORDER BY ord
     ),
     note AS (
       SELECT pg_notify($11, json_build_object('n', $12::text, 'a', min(seq)::text, 'b', max(seq)::text,
                                               'm', (SELECT json_agg(DISTINCT mesh_id) FROM input))::text)
       FROM env HAVING $11::text IS NOT NULL
     )
     -- A SELECT CTE runs only when read: the scalar subquery (an InitPlan, evaluated once) reads it.
     SELECT id, seq::text AS seq, ${EPOCH_MS("created_at")} AS created_ms, (SELECT count(*) FROM note) AS notified FROM env`,
    [
      items.map((m) => m.id),
      items.map((m) => m.meshId),
      items.map((m) => m.senderMemberId),
      items.map((m) => JSON.stringify(m.targetSpec)),
      items.map((m) => m.priority),
      Buffer.concat(items.map((m) => m.ciphertext), p.bytes),
      items.map((m) => m.recipients.length),
      ttlMs,
      p.recipientEnvelopes,
      p.recipientMembers,
      notify?.channel ?? null,
      notify?.nodeId ?? null,
      items.map((m) => m.clientId ?? null),
      p.offsets,
      p.lengths,
    ],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = items.filter((m) => !byId.has(m.id));
  // Resends: the envelope the first send stored.
  const earlier = new Map<string, { id: string; seq: string; created_ms: number }>();
  if (missing.length > 0) {
    const found = await client.query<{ id: string; seq: string; created_ms: number; sender: string; client_id: string }>(
      `SELECT e.id, e.seq::text AS seq, ${EPOCH_MS("e.created_at")} AS created_ms, e.sender_member_id::text AS sender, e.client_msg_id AS client_id
       FROM message_envelopes e JOIN unnest($1::uuid[], $2::text[]) AS k(sender, client_id)
         ON e.sender_member_id = k.sender AND e.client_msg_id = k.client_id`,
      [missing.map((m) => m.senderMemberId), missing.map((m) => m.clientId ?? "")],
    );
    for (const r of found.rows) earlier.set(`${r.sender}|${r.client_id}`, r);
  }
  return items.map((m) => {
    const row = byId.get(m.id);
    if (row) return { id: row.id, seq: row.seq, createdAtMs: row.created_ms };
    const first = earlier.get(`${m.senderMemberId}|${m.clientId ?? ""}`);
    // Neither stored now nor before: the sender is gone (deleted while the batch waited).
    if (!first) return null;
    return { id: first.id, seq: first.seq, createdAtMs: first.created_ms, duplicate: true };
  });
}

/** A queued message as read back for delivery. */
export interface QueuedMessage {
  memberId: string;
  id: string;
  seq: string;
  meshId: string;
  senderMemberId: string;
  targetSpec: unknown;
  priority: string;
  ciphertext: Buffer;
  createdAtMs: number;
  attempts: number;
}

const QUEUED_COLUMNS = `r.member_id, e.id, e.seq::text AS seq, e.mesh_id, e.sender_member_id, e.target_spec, e.priority, e.ciphertext,
  ${EPOCH_MS("e.created_at")} AS created_ms, r.attempts`;

type QueuedRow = {
  member_id: string;
  id: string;
  seq: string;
  mesh_id: string;
  sender_member_id: string;
  target_spec: unknown;
  priority: string;
  ciphertext: Buffer;
  created_ms: number;
  attempts: number;
};

function toQueued(r: QueuedRow): QueuedMessage {
  return {
    memberId: r.member_id,
    id: r.id,
    seq: r.seq,
    meshId: r.mesh_id,
    senderMemberId: r.sender_member_id,
    targetSpec: r.target_spec,
    priority: r.priority,
    ciphertext: r.ciphertext,
    createdAtMs: r.created_ms,
    attempts: r.attempts,
  };
}

/** A page of a member's queue, and whether more rows wait after it. */
export interface QueuePage {
  rows: QueuedMessage[];
  more: boolean;
}

/**
 * One page of a member's queue, oldest first, after `afterSeq`: at most `limit` rows and, past the
 * first row, no more than `maxBytes` of ciphertext (so a page of large messages stays small in memory).
 * The rows handed out count one more delivery attempt. Expired messages are skipped (the sweep deletes them).
 */
export async function takeQueuePage(pool: pg.Pool, memberId: string, afterSeq: string, limit: number, maxBytes = Number.MAX_SAFE_INTEGER): Promise<QueuePage> {
  const { rows } = await pool.query<QueuedRow & { candidates: number }>(
    `WITH candidates AS (
       SELECT r.envelope_id, r.seq, sum(e.byte_size) OVER (ORDER BY r.seq ROWS UNBOUNDED PRECEDING) - e.byte_size AS bytes_before
       FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id
       WHERE r.member_id = $1 AND r.seq > $2::bigint AND e.expires_at > ${UTC_NOW}
       ORDER BY r.seq LIMIT $3 + 1
     ),
     page AS (SELECT envelope_id FROM candidates WHERE bytes_before < $4::bigint ORDER BY seq LIMIT $3),
     r AS (
       UPDATE message_recipients q SET attempts = q.attempts + 1, last_delivered_at = ${UTC_NOW}
       FROM page WHERE q.member_id = $1 AND q.envelope_id = page.envelope_id
       RETURNING q.member_id, q.envelope_id, q.attempts
     )
     SELECT ${QUEUED_COLUMNS}, (SELECT count(*) FROM candidates)::int AS candidates
     FROM r JOIN message_envelopes e ON e.id = r.envelope_id ORDER BY e.seq`,
    [memberId, afterSeq, limit, Math.max(1, Math.floor(maxBytes))],
  );
  return { rows: rows.map(toQueued), more: rows.length > 0 && (rows[0]?.candidates ?? 0) > rows.length };
}

/** How many messages wait in a member's queue. */
export async function queuedCount(pool: pg.Pool, memberId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id
     WHERE r.member_id = $1 AND e.expires_at > ${UTC_NOW}`,
    [memberId],
  );
  return rows[0]?.n ?? 0;
}

/** Queue rows of the given members whose message arrived in a seq range (a notification from another node). */
export async function queuedInRange(pool: pg.Pool, memberIds: readonly string[], fromSeq: string, toSeq: string): Promise<QueuedMessage[]> {
  if (memberIds.length === 0) return [];
  const { rows } = await pool.query<QueuedRow>(
    `SELECT ${QUEUED_COLUMNS} FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id
     WHERE r.member_id = ANY($1::uuid[]) AND r.seq BETWEEN $2::bigint AND $3::bigint
     ORDER BY r.seq`,
    [memberIds, fromSeq, toSeq],
  );
  return rows.map(toQueued);
}

/**
 * Queue rows of the given members that are older than `olderThanMs` and still unacknowledged: what a
 * node delivers again (lost notifications, acks that never came).
 */
export async function overdueFor(pool: pg.Pool, memberIds: readonly string[], olderThanMs: number, limit: number): Promise<QueuedMessage[]> {
  if (memberIds.length === 0) return [];
  const { rows } = await pool.query<QueuedRow>(
    `SELECT ${QUEUED_COLUMNS} FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id
     WHERE r.member_id = ANY($1::uuid[]) AND e.created_at < ${UTC_NOW} - $2::bigint * interval '1 millisecond'
       AND e.expires_at > ${UTC_NOW}
     ORDER BY r.seq LIMIT $3`,
    [memberIds, olderThanMs, limit],
  );
  return rows.map(toQueued);
}

export interface Ack {
  memberId: string;
  envelopeId: string;
}

/**
 * Removes acknowledged queue rows and marks the envelopes every recipient has now acknowledged. The
 * envelope rows are locked first (in id order, so concurrent batches cannot deadlock): two recipients
 * acking the last two copies at once on different nodes then see each other's delete, and exactly one
 * of them sets deliveredAt.
 */
export async function ackMessages(pool: pg.Pool, acks: readonly Ack[]): Promise<number> {
  if (acks.length === 0) return 0;
  const envelopes = [...new Set(acks.map((a) => a.envelopeId))].sort();
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT id FROM message_envelopes WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [envelopes]);
    // A new statement, so a new snapshot: it sees the deletes of whoever held the locks before.
    const { rows } = await client.query<{ deleted: number }>(
      `WITH deleted AS (
         DELETE FROM message_recipients q USING unnest($1::uuid[], $2::uuid[]) AS a(member_id, envelope_id)
         WHERE q.member_id = a.member_id AND q.envelope_id = a.envelope_id
         RETURNING q.envelope_id, q.member_id
       ),
       gone AS (SELECT envelope_id, count(*) AS n FROM deleted GROUP BY envelope_id),
       -- The statement's snapshot still shows the rows it deletes: an envelope is delivered when the
       -- queue rows it had are exactly the ones deleted now (counted through the primary key's prefix;
       -- probing the deleted rows per queue row made a batch of 2,000 acks take ~0.9 s).
       done AS (
         UPDATE message_envelopes e SET delivered_at = ${UTC_NOW}
         FROM gone g
         WHERE e.id = ANY($3::uuid[]) AND e.id = g.envelope_id AND e.delivered_at IS NULL
           AND (SELECT count(*) FROM message_recipients q WHERE q.envelope_id = e.id) = g.n
       )
       SELECT count(*)::int AS deleted FROM deleted`,
      [acks.map((a) => a.memberId), acks.map((a) => a.envelopeId), envelopes],
    );
    return rows[0]?.deleted ?? 0;
  });
}
