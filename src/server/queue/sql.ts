import { Prisma } from "@/server/core/db";

// Queue rows written inside the product's own statements. pg-boss 10 (pinned in package.json) keeps a
// queue job as a row of `<schema>.job` whose retry, expiry, retention and dead-letter settings are
// copied from the queue's row in `<schema>.queue` when the job is inserted. Writing that row in the
// same SQL statement as the job, delivery or attempt it belongs to makes each step of the hot path one
// round trip to PostgreSQL, and atomic without a transaction. `queue-sql.integration.test.ts` checks
// that a row written here is the row `boss.insert` writes, column for column, so an upgrade of pg-boss
// that changes its table fails the tests instead of the queue.

const ident = (schema: string) => Prisma.raw(`"${schema.replace(/"/g, "")}"`);

/** Rows to enqueue: a SELECT (or VALUES) yielding `id uuid, data jsonb, priority int, start_after timestamptz`. */
export type QueueRowsSql = Prisma.Sql;

/**
 * `INSERT INTO <schema>.job … SELECT …`: enqueues the given rows on `queue` with the queue's settings,
 * as pg-boss's own insert does (expiry, retention, retries, backoff, dead letter, policy).
 * Usable as a data-modifying CTE.
 */
export function insertQueueRows(schema: string, queue: string, rows: QueueRowsSql): Prisma.Sql {
  const s = ident(schema);
  return Prisma.sql`
    INSERT INTO ${s}.job (id, name, data, priority, start_after, dead_letter, expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
    SELECT r.id, q.name, r.data, r.priority, r.start_after, q.dead_letter,
      COALESCE(q.expire_seconds * interval '1s', interval '15 minutes'),
      r.start_after + COALESCE(q.retention_minutes * interval '1 minute', interval '14 days'),
      COALESCE(q.retry_limit, 2),
      CASE WHEN COALESCE(q.retry_backoff, false) THEN GREATEST(COALESCE(q.retry_delay, 0), 1) ELSE COALESCE(q.retry_delay, 0) END,
      COALESCE(q.retry_backoff, false), q.policy
    FROM (${rows}) AS r (id, data, priority, start_after)
    JOIN ${s}.queue q ON q.name = ${queue}`;
}

/** `DELETE` of one queue job that has not started yet (a safety-net row made unnecessary). Usable as a CTE. */
export function deletePendingQueueRow(schema: string, queue: string, id: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`DELETE FROM ${ident(schema)}.job WHERE name = ${queue} AND id = ${id} AND state = 'created'`;
}

/** `UPDATE` that completes one active queue job, as `boss.complete` does. Usable as a CTE. */
export function completeQueueRow(schema: string, queue: string, id: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`UPDATE ${ident(schema)}.job SET completed_on = now(), state = 'completed' WHERE name = ${queue} AND id = ${id} AND state = 'active'`;
}

/**
 * CTEs `next_queue_row` and `queue_row`: takes the next `limit` due rows of `queue` (highest priority
 * first, then oldest), skipping rows other workers hold, and marks them active, as `boss.fetch` does for
 * a standard queue (a row that ran before counts a retry). `queue_row` yields `id` and `data`; the
 * statement that follows the CTEs claims what the rows name. Complete the row with
 * `completeQueueRow` or hand a failure to `boss.fail`, which applies the retries and the dead letter.
 */
export function takeQueueRowCtes(schema: string, queue: string, limit: number = 1): Prisma.Sql {
  const s = ident(schema);
  return Prisma.sql`next_queue_row AS (
      SELECT id FROM ${s}.job
      WHERE name = ${queue} AND state < 'active' AND start_after < now()
      ORDER BY priority DESC, created_on, id
      LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED
    ), queue_row AS (
      UPDATE ${s}.job j SET state = 'active', started_on = now(),
        retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
      WHERE j.name = ${queue} AND j.id = ANY (ARRAY(SELECT id FROM next_queue_row))
      RETURNING j.id, j.data
    )`;
}
