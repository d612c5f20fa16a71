import type pg from "pg";
import { lockStatement, ttlSweepLock } from "../../src/server/core/locks";
import { inTransaction } from "../../src/server/core/pg-transaction";

// The broker's housekeeping of the message queue: the time-to-live sweep and the queue-depth gauge.

const UTC_NOW = "(now() AT TIME ZONE 'UTC')";

/**
 * Deletes messages past their time to live, with their queue rows. Returns how many undelivered copies
 * were dropped and how many envelopes went. Only one node sweeps at a time (a transaction-level
 * advisory lock); the others return zeros.
 */
export async function sweepExpired(
  pool: pg.Pool,
  limit = 10_000,
): Promise<{ dropped: number; envelopes: number; swept: boolean }> {
  return inTransaction(pool, async (client) => {
    const statement = lockStatement("pg_try_advisory_xact_lock", ttlSweepLock());
    const { rows: lock } = await client.query<{ ok: boolean }>(statement.text, statement.values);
    if (!lock[0]?.ok) return { dropped: 0, envelopes: 0, swept: false };
    const { rows } = await client.query<{ dropped: number; envelopes: number }>(
      `WITH doomed AS (
         SELECT id FROM message_envelopes WHERE expires_at <= ${UTC_NOW} ORDER BY expires_at LIMIT $1
       ),
       dropped AS (
         DELETE FROM message_recipients q USING doomed WHERE q.envelope_id = doomed.id RETURNING 1
       ),
       gone AS (
         DELETE FROM message_envelopes e USING doomed WHERE e.id = doomed.id RETURNING 1
       )
       SELECT (SELECT count(*) FROM dropped)::int AS dropped, (SELECT count(*) FROM gone)::int AS envelopes`,
      [limit],
    );
    return { dropped: rows[0]?.dropped ?? 0, envelopes: rows[0]?.envelopes ?? 0, swept: true };
  });
}

export const QUEUE_DEPTH_SQL = `SELECT coalesce(max(n_live_tup), 0)::float8 AS n FROM pg_stat_user_tables WHERE relname = 'message_recipients'`;

/** Rows waiting in every queue, as PostgreSQL's statistics count them (the queue-depth gauge; an estimate, a second behind at most). */
export async function totalQueueDepth(pool: pg.Pool): Promise<number> {
  // PostgreSQL's own count of live rows (kept by its statistics as rows are written and deleted): one
  // catalog row, whatever the size of the queue, where count(*) would read the whole table.
  const { rows } = await pool.query<{ n: number }>(QUEUE_DEPTH_SQL);
  return rows[0]?.n ?? 0;
}
