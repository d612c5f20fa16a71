import type pg from "pg";
import { isUuid } from "../../src/server/core/ids";

// The broker's message queue in SQL. It runs on plain pg rather than Prisma because each call moves
// many rows at once (multi-row inserts through unnest) and this is the broker's hot path. Times are
// written by the database (`now() AT TIME ZONE 'UTC'`, the columns are UTC timestamps without zone)
// and read back as epoch milliseconds, so neither side's time zone setting matters.

/** A pool, or one client of it (a caller's own transaction): the calls below only send statements. */
export type Queries = Pick<pg.Pool, "query">;

const UTC_NOW = "(now() AT TIME ZONE 'UTC')";
const EPOCH_MS = (col: string) => `(extract(epoch FROM ${col}) * 1000)::float8`;

/**
 * A call of one of the broker's functions as a named prepared statement: each connection parses and
 * plans it once, then only binds and runs it (docs/performance.md, "The morning of 2026-11-29"). Only
 * calls of functions (their statements are planned inside them); one text a name. A migration that
 * changes a function's result columns gives it a new name: open connections would fail the old call once.
 */
function call<R extends pg.QueryResultRow>(
  pool: Queries,
  name: string,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  return pool.query<R>({ name, text, values });
}

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
 * Array parameters written as PostgreSQL array literals here: pg's own conversion quotes every element
 * and runs two escaping replaces on it, some 3,000 elements a batch on the broker's hot path. Integers
 * and UUIDs need neither (a value that is not a UUID is refused here, never written into the literal).
 */
const intArray = (values: readonly number[]): string => `{${values.join(",")}}`;
export function uuidArray(values: readonly string[]): string {
  for (const v of values) if (!isUuid(v)) throw new TypeError("not a UUID");
  return `{${values.join(",")}}`;
}

/**
 * Values that repeat across a batch (its meshes, senders, targets) sent once each, with a 1-based index
 * per message: PostgreSQL parses each array element from text, and a batch has a few distinct meshes
 * and senders among hundreds of messages.
 */
function interned<T>(values: readonly T[], key: (v: T) => string = String): { ix: number[]; distinct: T[] } {
  const seen = new Map<string, number>();
  const ix: number[] = [];
  const distinct: T[] = [];
  for (const v of values) {
    const k = key(v);
    let at = seen.get(k);
    if (at === undefined) {
      distinct.push(v);
      at = distinct.length;
      seen.set(k, at);
    }
    ix.push(at);
  }
  return { ix, distinct };
}

/**
 * Stores envelopes, one queue row per recipient and one `message_sent` audit event each, in one call
 * of `broker_store_messages` (one round trip and one implicit transaction for the whole batch). It
 * holds the store guard (advisory lock 7301/0, LOCK_SPACES.messageStore in core/locks.ts, shared; deleting members or meshes takes it exclusively)
 * while it stores, since the message tables have no foreign keys: a message whose sender was deleted
 * meanwhile is not stored (its result is null), a recipient deleted meanwhile gets no queue row. Rows
 * keep the order of `items`, so `seq` follows the order in which the sends arrived.
 */
export async function insertMessages(
  pool: Queries,
  items: readonly NewMessage[],
  ttlMs: number,
  /** When set, one `{n, a, b, m}` notification (node, first and last seq, meshes) on this channel, sent at commit. */
  notify?: { channel: string; nodeId: string },
): Promise<(StoredMessage | null)[]> {
  if (items.length === 0) return [];
  const recipientIx: number[] = [];
  const recipientMembers: string[] = [];
  // The ciphertexts travel as one binary parameter (pg sends a Buffer as raw bytes) cut apart by offset:
  // a bytea[] goes as text, every byte spelled in hex and parsed back by the server.
  const offsets: number[] = [];
  const lengths: number[] = [];
  let offset = 0;
  items.forEach((item, i) => {
    for (const member of item.recipients) {
      recipientIx.push(i + 1);
      recipientMembers.push(member);
    }
    offsets.push(offset);
    lengths.push(item.ciphertext.length);
    offset += item.ciphertext.length;
  });
  const senders = interned(
    items.map((m) => ({ member: m.senderMemberId, mesh: m.meshId })),
    (s) => `${s.member}|${s.mesh}`,
  );
  const targets = interned(items.map((m) => JSON.stringify(m.targetSpec)));
  const recipients = interned(recipientMembers);
  // One round trip: the function (migration 20261128132538_broker_statements_in_functions) takes the
  // store guard, then checks the senders and recipients and runs the insert, in snapshots taken after it.
  const { rows } = await call<{ id: string; seq: string; created_ms: number }>(
    pool,
    "broker_store_messages",
    `SELECT o_id AS id, o_seq AS seq, o_ms AS created_ms
     FROM broker_store_messages($1::uuid[], $2::int[], $3::uuid[], $4::uuid[], $5::int[], $6::jsonb[], $7::message_priority[], $8::text[],
                                $9::int[], $10::bytea, $11::int[], $12::int[], $13::int[], $14::int[], $15::uuid[], $16::bigint, $17::text, $18::text)`,
    [
      uuidArray(items.map((m) => m.id)),
      intArray(senders.ix),
      uuidArray(senders.distinct.map((s) => s.member)),
      uuidArray(senders.distinct.map((s) => s.mesh)),
      intArray(targets.ix),
      targets.distinct,
      items.map((m) => m.priority),
      items.map((m) => m.clientId ?? null),
      intArray(items.map((m) => m.recipients.length)),
      Buffer.concat(
        items.map((m) => m.ciphertext),
        offset,
      ),
      intArray(offsets),
      intArray(lengths),
      intArray(recipientIx),
      intArray(recipients.ix),
      uuidArray(recipients.distinct),
      ttlMs,
      notify?.channel ?? null,
      notify?.nodeId ?? null,
    ],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = items.filter((m) => !byId.has(m.id));
  // Resends: the envelope the first send stored.
  const earlier = new Map<string, { id: string; seq: string; created_ms: number }>();
  if (missing.length > 0) {
    const found = await pool.query<{ id: string; seq: string; created_ms: number; sender: string; client_id: string }>(
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

/** The columns of QueuedRow from the functions that return queued messages (broker_notified, broker_overdue). */
const FUNCTION_COLUMNS = `SELECT o_member_id AS member_id, o_id AS id, o_seq::text AS seq, o_mesh_id AS mesh_id, o_sender AS sender_member_id,
  o_target AS target_spec, o_priority AS priority, o_ciphertext AS ciphertext, o_created_ms AS created_ms, o_attempts AS attempts`;

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
export async function takeQueuePage(
  pool: Queries,
  memberId: string,
  afterSeq: string,
  limit: number,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<QueuePage> {
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
export async function queuedCount(pool: Queries, memberId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM message_recipients r JOIN message_envelopes e ON e.id = r.envelope_id
     WHERE r.member_id = $1 AND e.expires_at > ${UTC_NOW}`,
    [memberId],
  );
  return rows[0]?.n ?? 0;
}

/** Queue rows of the given members whose message arrived in a seq range (a notification from another node). */
export async function queuedInRange(
  pool: Queries,
  memberIds: readonly string[],
  fromSeq: string,
  toSeq: string,
): Promise<QueuedMessage[]> {
  if (memberIds.length === 0) return [];
  const { rows } = await call<QueuedRow>(
    pool,
    "broker_notified",
    `${FUNCTION_COLUMNS} FROM broker_notified($1::uuid[], $2::bigint, $3::bigint)`,
    [memberIds, fromSeq, toSeq],
  );
  // In seq order, sorted here: the database would sort the rows with their ciphertexts.
  return rows.map(toQueued).sort((a, b) => Number(a.seq) - Number(b.seq));
}

/**
 * Queue rows of the given members that are older than `olderThanMs` and still unacknowledged: what a
 * node delivers again (lost notifications, acks that never came), oldest first. Through
 * `broker_overdue` (migration 20261128132538_broker_statements_in_functions), which walks each member's
 * queue with a plain index scan: it marks the index entries of acknowledged rows dead as it passes them.
 */
export async function overdueFor(
  pool: Queries,
  memberIds: readonly string[],
  olderThanMs: number,
  limit: number,
): Promise<QueuedMessage[]> {
  if (memberIds.length === 0) return [];
  const { rows } = await call<QueuedRow>(
    pool,
    "broker_overdue",
    `${FUNCTION_COLUMNS} FROM broker_overdue($1::uuid[], $2::bigint, $3::int)`,
    [memberIds, olderThanMs, limit],
  );
  return rows.map(toQueued);
}

export interface Ack {
  memberId: string;
  envelopeId: string;
}

/**
 * Removes acknowledged queue rows and writes a delivery row (message_deliveries) for each envelope every
 * recipient has now acknowledged, in one call of `broker_ack_messages` (one round trip). It locks the
 * envelope rows first (in id order, so concurrent batches cannot deadlock): two recipients acking the
 * last two copies at once on different nodes then see each other's delete, and exactly one of them
 * writes the delivery.
 */
export async function ackMessages(pool: Queries, acks: readonly Ack[]): Promise<number> {
  if (acks.length === 0) return 0;
  const members = interned(acks.map((a) => a.memberId));
  const { rows } = await call<{ deleted: number }>(
    pool,
    "broker_ack_messages",
    `SELECT broker_ack_messages($1::int[], $2::uuid[], $3::uuid[]) AS deleted`,
    [intArray(members.ix), uuidArray(members.distinct), uuidArray(acks.map((a) => a.envelopeId))],
  );
  return rows[0]?.deleted ?? 0;
}
