import type PgBoss from "pg-boss";
import { QUEUES, type CallbackQueueData, type ScrapeQueueData } from "./queues";

/** Anything that runs SQL with positional parameters and returns rows (a Prisma transaction, a pg client). */
export interface SqlRunner {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * pg-boss's db option on a Prisma transaction: queue rows are written in the same transaction as the
 * job or delivery rows, so a job is never created without its queue entry (and never enqueued twice).
 */
export function txExecutor(tx: SqlRunner): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) }),
  };
}

/** Enqueues scrape jobs (queue job id = job row id) inside the caller's transaction. */
export async function enqueueScrapeJobs(
  boss: PgBoss,
  tx: SqlRunner,
  jobs: { id: string; priority: number }[],
): Promise<void> {
  if (jobs.length === 0) return;
  const rows: PgBoss.JobInsert<ScrapeQueueData>[] = jobs.map((j) => ({
    id: j.id,
    name: QUEUES.scrape,
    data: { jobId: j.id },
    priority: j.priority,
  }));
  await boss.insert(rows, { db: txExecutor(tx) });
}

/** Enqueues the first delivery attempt of a callback (queue job id = delivery id). */
export async function enqueueFirstCallbackAttempt(boss: PgBoss, tx: SqlRunner, deliveryId: string): Promise<void> {
  const row: PgBoss.JobInsert<CallbackQueueData> = { id: deliveryId, name: QUEUES.callback, data: { deliveryId } };
  await boss.insert([row], { db: txExecutor(tx) });
}
