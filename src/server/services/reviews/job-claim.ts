import { Prisma, sqlRows } from "@/server/core/db";
import type { Job } from "@/generated/prisma/client";
import type { JobStatus } from "@/generated/prisma/enums";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";
import { jobColumns } from "./job-states";

// The claims of the job state machine (job-states.ts): queued → running, and running → running when
// a run's lease passed (its worker died). The jobs table is the queue (docs/review-engine.md,
// "Queue"): a take locks due rows with FOR UPDATE SKIP LOCKED, so workers never take the same job,
// and a claimed run holds the job while its worker renews its short lease (`lease_until`, renewJobLease);
// once the lease passes unrenewed, the next take claims the run again.

/** A claimed run of a job: which attempt it is (completion is guarded on it), the job and its scraper. */
export interface ClaimedRun {
  attempt: number;
  from: JobStatus;
  /** The job row as the claim left it (status running). */
  job: Job;
  /** The routed scraper version's implementation and configuration. */
  implementation: string | null;
  config: Record<string, unknown> | null;
  /** The API key's sealed callback secret, which signs the job's callbacks when the job has none of its own. */
  apiKeySecretEnc: string | null;
  /** `performance.now()` before the claim was sent: the run's lease runs from no earlier (queue/lease.ts). */
  claimedAt: number;
}

type ClaimRow = Job & {
  fromStatus: JobStatus;
  implementation: string | null;
  config: Record<string, unknown> | null;
  apiKeySecretEnc: string | null;
};

/**
 * The claim's CTEs for the jobs whose ids `jobIds` gives (a uuid[] expression over earlier CTEs, or
 * parameters): the job rows, their events and their batches' counts, then `claimed`, the claimed runs.
 */
function claimSql(jobIds: Prisma.Sql, detail: Record<string, unknown>, leaseMs: number): Prisma.Sql {
  // One primary-key lookup per id, whatever the planner guesses of the table (the statement is prepared
  // once per connection, maybe while the table is small); ended jobs are left out after the lookup.
  return Prisma.sql`prev AS (
      SELECT j.id, j.status, j.batch_id FROM unnest(${jobIds}) AS wanted (id)
      CROSS JOIN LATERAL (SELECT id, status, batch_id FROM jobs WHERE jobs.id = wanted.id FOR UPDATE) j
      WHERE j.status IN ('queued', 'running')
    ), upd AS (
      UPDATE jobs j SET status = 'running', attempts = j.attempts + 1, started_at = now(), updated_at = now(),
        lease_until = (now() + ${leaseMs}::int * interval '1 millisecond') AT TIME ZONE 'UTC'
      FROM prev WHERE j.id = prev.id
      RETURNING j.*, prev.status AS from_status
    ), ev AS (
      INSERT INTO job_events (job_id, status, detail)
      SELECT id, 'running', ${JSON.stringify(detail)}::jsonb || jsonb_build_object('attempt', attempts)
        || CASE WHEN from_status = 'running' THEN '{"recovered": true}'::jsonb ELSE '{}'::jsonb END
      FROM upd
    ), b AS (
      UPDATE batches SET queued_jobs = queued_jobs - c.n, running_jobs = running_jobs + c.n,
        status = CASE WHEN batches.status = 'queued' THEN 'running'::batch_status ELSE batches.status END, updated_at = now()
      FROM (SELECT batch_id, count(*)::int AS n FROM upd WHERE from_status = 'queued' AND batch_id IS NOT NULL GROUP BY batch_id) c
      WHERE batches.id = c.batch_id
    ), claimed AS (
      SELECT ${jobColumns("upd")}, upd.from_status::text AS "fromStatus", s.implementation, s.config, k.callback_secret_enc AS "apiKeySecretEnc"
      FROM upd LEFT JOIN scraper_versions s ON s.id = upd.scraper_version_id LEFT JOIN api_keys k ON k.id = upd.api_key_id
    )`;
}

function toClaimedRun(row: ClaimRow, claimedAt: number): ClaimedRun {
  const { fromStatus, implementation, config, apiKeySecretEnc, ...job } = row;
  return { attempt: job.attempts, from: fromStatus, job, implementation, config, apiKeySecretEnc, claimedAt };
}

/** Where and how long a take claims: the work queue, and the lease of each run. */
export interface TakeOptions {
  queue: string;
  leaseMs: number;
}

/** What one take asks for: the queue and lease, and the most runs claimed. */
export interface TakeAndClaimInput extends TakeOptions {
  limit: number;
}

/**
 * Takes up to `limit` jobs of the queue and claims them, in one statement: first runs whose lease
 * passed (their worker died: running → running, counted as a run), then due queued jobs, highest
 * priority first, then oldest. Rows other workers hold are skipped. An empty list when none is due.
 */
export async function takeAndClaim(
  ctx: ServiceContext<SystemActor>,
  options: TakeAndClaimInput,
): Promise<ClaimedRun[]> {
  const { limit } = options;
  const claimedAt = performance.now();
  const rows = await sqlRows<ClaimRow>(
    ctx.db,
    Prisma.sql`
    WITH lost AS (
      SELECT id FROM jobs WHERE queue = ${options.queue} AND status = 'running' AND lease_until < now() AT TIME ZONE 'UTC'
      ORDER BY lease_until LIMIT ${limit}::int FOR UPDATE SKIP LOCKED
    ), due AS (
      SELECT id FROM jobs WHERE queue = ${options.queue} AND status = 'queued' AND run_after <= now() AT TIME ZONE 'UTC'
      ORDER BY priority DESC, id LIMIT (${limit}::int - (SELECT count(*) FROM lost)) FOR UPDATE SKIP LOCKED
    ), ${claimSql(Prisma.sql`ARRAY(SELECT id FROM lost UNION ALL SELECT id FROM due)`, {}, options.leaseMs)}
    SELECT * FROM claimed ORDER BY "fromStatus" DESC, priority DESC, id`,
  );
  return rows.map((row) => toClaimedRun(row, claimedAt));
}

/**
 * The heartbeat of a running job (queue/lease.ts): moves its lease to the database's now + `leaseMs`,
 * fenced on the run (running, this attempt). False when the run no longer holds the job (another worker
 * took it over after its lease passed, or it ended): the run must stop and write nothing.
 */
export async function renewJobLease(
  ctx: ServiceContext<SystemActor>,
  run: { job: { id: string }; attempt: number },
  leaseMs: number,
): Promise<boolean> {
  const rows = await sqlRows<{ id: string }>(
    ctx.db,
    Prisma.sql`UPDATE jobs SET lease_until = (now() + ${leaseMs}::int * interval '1 millisecond') AT TIME ZONE 'UTC'
      WHERE id = ${run.job.id}::uuid AND status = 'running' AND attempts = ${run.attempt}::int
      RETURNING id::text AS id`,
  );
  return rows.length === 1;
}
