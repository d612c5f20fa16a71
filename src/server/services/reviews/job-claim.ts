import { Prisma, sqlRows } from "@/server/core/db";
import type { Job } from "@/generated/prisma/client";
import type { JobStatus } from "@/generated/prisma/enums";
import { QUEUES } from "@/server/queue/queues";
import { takeQueueRowCtes } from "@/server/queue/sql";
import { jobColumns, type Tx } from "./job-states";

// The claims of the job state machine (job-states.ts): queued → running, and running → running when
// a lost worker's job comes back from the queue.

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
}

type ClaimRow = Job & { fromStatus: JobStatus; implementation: string | null; config: Record<string, unknown> | null; apiKeySecretEnc: string | null };

/**
 * The claim's CTEs for the jobs whose ids `jobIds` gives (a uuid[] expression over earlier CTEs, or
 * parameters): the job rows, their events and their batches' counts, then `claimed`, the claimed runs.
 */
function claimSql(jobIds: Prisma.Sql, detail: Record<string, unknown>): Prisma.Sql {
  // One primary-key lookup per id, whatever the planner guesses of the table (the statement is prepared
  // once per connection, maybe while the table is small); ended jobs are left out after the lookup.
  return Prisma.sql`prev AS (
      SELECT j.id, j.status, j.batch_id FROM unnest(${jobIds}) AS wanted (id)
      CROSS JOIN LATERAL (SELECT id, status, batch_id FROM jobs WHERE jobs.id = wanted.id FOR UPDATE) j
      WHERE j.status IN ('queued', 'running')
    ), upd AS (
      UPDATE jobs j SET status = 'running', attempts = j.attempts + 1, started_at = now(), updated_at = now()
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

function toClaimedRun(row: ClaimRow): ClaimedRun {
  const { fromStatus, implementation, config, apiKeySecretEnc, ...job } = row;
  return { attempt: job.attempts, from: fromStatus, job, implementation, config, apiKeySecretEnc };
}

/**
 * queued → running, or running → running when a lost worker's job comes back from the queue.
 * One statement (atomic without a transaction): the job row, its event and its batch's counts; it
 * reads back the job, its scraper version and its API key's callback secret.
 * Null when the job is no longer runnable (cancelled or already ended): the queue entry is dropped.
 */
export async function claimJob(db: Tx, jobId: string, detail: Record<string, unknown> = {}): Promise<ClaimedRun | null> {
  const rows = await sqlRows<ClaimRow>(
    db,
    Prisma.sql`
    WITH ${claimSql(Prisma.sql`ARRAY[${jobId}::uuid]`, detail)}
    SELECT * FROM claimed`,
  );
  return rows[0] ? toClaimedRun(rows[0]) : null;
}

/** A queue row `takeAndClaim` took, and the run it claimed (null when its job is no longer runnable). */
export interface TakenRun {
  queueJobId: string;
  run: ClaimedRun | null;
}

/**
 * Takes up to `limit` due scrape queue rows and claims their jobs in one statement (see
 * `takeQueueRowCtes` and `claimJob`); an empty list when none is due.
 */
export async function takeAndClaim(db: Tx, settings: { QUEUE_SCHEMA: string }, limit = 1): Promise<TakenRun[]> {
  const rows = await sqlRows<{ queueJobId: string } & Partial<ClaimRow>>(
    db,
    Prisma.sql`
    WITH ${takeQueueRowCtes(settings.QUEUE_SCHEMA, QUEUES.scrape, limit)},
    ${claimSql(Prisma.sql`ARRAY(SELECT (data->>'jobId')::uuid FROM queue_row)`, {})}
    SELECT queue_row.id::text AS "queueJobId", claimed.* FROM queue_row LEFT JOIN claimed ON claimed.id = queue_row.data->>'jobId'`,
  );
  return rows.map(({ queueJobId, ...rest }) => ({ queueJobId, run: rest.id ? toClaimedRun(rest as ClaimRow) : null }));
}
