import { Prisma, sqlRows, type Db } from "@/server/core/db";
import type { SystemActor } from "@/server/services/actor";
import type { ServiceContext } from "@/server/services/context";

// Pipeline executions on the product's own queue, as jobs and callbacks (docs/pipelines.md, "Queue"):
// the execution row is the queue row. A take locks due rows with FOR UPDATE SKIP LOCKED, so workers
// never take the same execution, and a claimed run holds it while its worker renews its lease
// (`lease_until`, renewExecutionLease); once the lease passes unrenewed, the next take claims the run again.

/** How long a claim or a renewal holds an execution when the worker gives no lease (PIPELINE_STALE_AFTER_MS's default). */
export const DEFAULT_EXECUTION_LEASE_MS = 30_000;

/** A claimed run of an execution: which run it is (its writes are guarded on it) and whether it took over a lost one. */
export interface ClaimedExecution {
  id: string;
  runs: number;
  recovered: boolean;
}

/** How many executions a take claims at most, and how long each run holds its execution. */
export interface TTakeExecutionsInput {
  limit: number;
  leaseMs: number;
}

/** What a take did: the runs it claimed, and how many lost runs it gave up (their runs were spent). */
export interface TakenExecutions {
  claimed: ClaimedExecution[];
  givenUp: number;
}

/** The claim of the executions `picked` names (a CTE of `id` and `recovered`): running, one more run, a new lease. */
const claimSql = (leaseMs: number) => Prisma.sql`
  UPDATE pipeline_executions e SET status = 'running', runs = e.runs + 1,
    started_at = now() AT TIME ZONE 'UTC', error = NULL, failed_stage = NULL, current_stage = NULL,
    lease_until = (now() + ${leaseMs}::int * interval '1 millisecond') AT TIME ZONE 'UTC'
  FROM picked WHERE e.id = picked.id
  RETURNING e.id, e.runs, picked.recovered`;

/**
 * Takes up to `limit` executions of the context's work queue (JOB_QUEUE) and claims them, in one
 * statement: first runs whose lease passed (their worker died: running → running, counted as a run;
 * one that already had JOB_MAX_ATTEMPTS runs is failed with `worker_lost` instead), then due queued
 * ones, oldest first. Rows other workers hold are skipped.
 */
export async function takeExecutions(
  ctx: ServiceContext<SystemActor>,
  input: TTakeExecutionsInput,
): Promise<TakenExecutions> {
  const { db } = ctx;
  const { limit, leaseMs } = input;
  const queue = ctx.settings.review.JOB_QUEUE;
  const maxRuns = ctx.settings.review.JOB_MAX_ATTEMPTS;
  const rows = await sqlRows<{ id: string; runs: number; recovered: boolean | null; given_up: boolean }>(
    db,
    Prisma.sql`
    WITH lost AS (
      SELECT id, runs FROM pipeline_executions
      WHERE queue = ${queue} AND status = 'running' AND lease_until < now() AT TIME ZONE 'UTC'
      ORDER BY lease_until LIMIT ${limit}::int FOR UPDATE SKIP LOCKED
    ), given_up AS (
      UPDATE pipeline_executions e SET status = 'failed', failed_stage = 'worker', error = 'worker_lost',
        current_stage = NULL, lease_until = NULL, finished_at = now() AT TIME ZONE 'UTC'
      FROM lost WHERE e.id = lost.id AND lost.runs >= ${maxRuns}::int
      RETURNING e.id
    ), due AS (
      SELECT id FROM pipeline_executions
      WHERE queue = ${queue} AND status = 'queued' AND run_after <= now() AT TIME ZONE 'UTC'
      ORDER BY run_after, id
      LIMIT (${limit}::int - (SELECT count(*) FROM lost WHERE runs < ${maxRuns}::int)) FOR UPDATE SKIP LOCKED
    ), picked AS (
      SELECT id, true AS recovered FROM lost WHERE runs < ${maxRuns}::int
      UNION ALL SELECT id, false FROM due
    ), claimed AS (${claimSql(leaseMs)})
    SELECT id, runs, recovered, false AS given_up FROM claimed
    UNION ALL SELECT id, 0, NULL, true FROM given_up`,
  );
  return {
    claimed: rows.filter((r) => !r.given_up).map((r) => ({ id: r.id, runs: r.runs, recovered: r.recovered === true })),
    givenUp: rows.filter((r) => r.given_up).length,
  };
}

/**
 * Claims one queued execution by id (queued → running), as a take would; null when it is not queued
 * (another worker took it, or it ended): a second delivery of the same execution does nothing.
 */
export async function claimExecution(
  db: Db,
  executionId: string,
  leaseMs = DEFAULT_EXECUTION_LEASE_MS,
): Promise<ClaimedExecution | null> {
  const [row] = await sqlRows<ClaimedExecution>(
    db,
    Prisma.sql`
    WITH picked AS (
      SELECT id, false AS recovered FROM pipeline_executions
      WHERE id = ${executionId}::uuid AND status = 'queued' FOR UPDATE SKIP LOCKED
    ) ${claimSql(leaseMs)}`,
  );
  return row ?? null;
}

/** Executions of the context's work queue due now and waiting for a worker (the worker's queue-depth gauge). */
export async function executionsWaiting(ctx: ServiceContext<SystemActor>): Promise<number> {
  const queue = ctx.settings.review.JOB_QUEUE;
  const [row] = await sqlRows<{ n: number }>(
    ctx.db,
    Prisma.sql`SELECT count(*)::int AS n FROM pipeline_executions
      WHERE queue = ${queue} AND status = 'queued' AND run_after <= now() AT TIME ZONE 'UTC'`,
  );
  return row?.n ?? 0;
}

/**
 * The heartbeat of a running execution (src/server/queue/lease.ts): moves its lease to the database's
 * now + `leaseMs`, fenced on the run. False when the run no longer holds it (taken over, or ended).
 */
export async function renewExecutionLease(
  ctx: ServiceContext<SystemActor>,
  input: { run: ClaimedExecution; leaseMs: number },
): Promise<boolean> {
  const { run, leaseMs } = input;
  const rows = await sqlRows<{ id: string }>(
    ctx.db,
    Prisma.sql`UPDATE pipeline_executions SET lease_until = (now() + ${leaseMs}::int * interval '1 millisecond') AT TIME ZONE 'UTC'
      WHERE id = ${run.id}::uuid AND status = 'running' AND runs = ${run.runs}::int
      RETURNING id::text AS id`,
  );
  return rows.length === 1;
}
