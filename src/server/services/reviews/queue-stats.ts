import { Prisma, sqlRows } from "@/server/core/db";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";

/** The most rows any one count of `queueStats` reads: beyond it the count says "at least this many". */
export const QUEUE_STATS_CAP = 100_000;

/** What waits in one work queue (JOB_QUEUE), each count capped at QUEUE_STATS_CAP. */
export interface QueueStats {
  /** Jobs queued (due now or later, e.g. a retry's backoff) and running. */
  queued: number;
  running: number;
  /** Queued jobs due now: waiting for a free scrape slot. */
  dueJobs: number;
  /** Callback deliveries pending (retries waiting for their backoff included), and those due now. */
  pendingCallbacks: number;
  dueCallbacks: number;
}

/**
 * Counts what waits in a work queue, for the worker's gauges (read at scrape time). Every count is a
 * bounded read: an index range of the queue's rows in one state, cut at QUEUE_STATS_CAP rows, so a
 * scrape never scans the jobs or deliveries tables, however many finished rows they hold.
 */
export async function queueStats(ctx: ServiceContext<SystemActor>, input: { queue: string }): Promise<QueueStats> {
  const { db } = ctx;
  const { queue } = input;
  const cap = QUEUE_STATS_CAP;
  const [row] = await sqlRows<{
    queued: number;
    running: number;
    due_jobs: number;
    pending_callbacks: number;
    due_callbacks: number;
  }>(
    db,
    Prisma.sql`SELECT
      (SELECT count(*) FROM (SELECT 1 FROM jobs WHERE queue = ${queue} AND status = 'queued' LIMIT ${cap}::int) q)::int AS queued,
      (SELECT count(*) FROM (SELECT 1 FROM jobs WHERE queue = ${queue} AND status = 'running' LIMIT ${cap}::int) r)::int AS running,
      (SELECT count(*) FROM (SELECT 1 FROM jobs WHERE queue = ${queue} AND status = 'queued' AND run_after <= now() AT TIME ZONE 'UTC' LIMIT ${cap}::int) d)::int AS due_jobs,
      (SELECT count(*) FROM (SELECT 1 FROM callback_deliveries WHERE queue = ${queue} AND state = 'pending' LIMIT ${cap}::int) p)::int AS pending_callbacks,
      (SELECT count(*) FROM (SELECT 1 FROM callback_deliveries WHERE queue = ${queue} AND state = 'pending' AND next_attempt_at <= now() AT TIME ZONE 'UTC' LIMIT ${cap}::int) c)::int AS due_callbacks`,
  );
  return {
    queued: row?.queued ?? 0,
    running: row?.running ?? 0,
    dueJobs: row?.due_jobs ?? 0,
    pendingCallbacks: row?.pending_callbacks ?? 0,
    dueCallbacks: row?.due_callbacks ?? 0,
  };
}
