import type { Prisma } from "@/server/core/db";
import type { Job } from "@/generated/prisma/client";
import type { BatchStatus, JobStatus, ScrapeErrorClass } from "@/generated/prisma/enums";

// The state machines of jobs and batches (docs/review-engine.md, "States"). Every status change of
// a job or a batch goes through this module, and every change is a guarded UPDATE (WHERE status =
// the expected one), so two workers, a retry and a cancel can race without a job ending twice.

export type Tx = Prisma.TransactionClient;

/** Allowed job transitions: from → to. */
export const JOB_TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  queued: ["running", "cancelled"],
  // running → running: the worker running it was lost (queue expiry) and another run claims it.
  // running → queued: a transient failure; the queue runs it again after its backoff.
  running: ["running", "queued", "succeeded", "failed"],
  succeeded: [],
  failed: [],
  cancelled: [],
};

/** Allowed batch transitions; a batch is "ended" once completed_at is set (every job ended). */
export const BATCH_TRANSITIONS: Record<BatchStatus, readonly BatchStatus[]> = {
  queued: ["running", "completed", "cancelled"],
  running: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "cancelled"];

/** True when the job state machine allows from → to. */
export function canMoveJob(from: JobStatus, to: JobStatus): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

const COUNTER = {
  queued: "queuedJobs",
  running: "runningJobs",
  succeeded: "succeededJobs",
  failed: "failedJobs",
  cancelled: "cancelledJobs",
} as const satisfies Record<JobStatus, string>;

async function recordEvent(tx: Tx, jobId: string, status: JobStatus, detail: Record<string, unknown> = {}) {
  await tx.jobEvent.create({ data: { jobId, status, detail: detail as Prisma.InputJsonValue } });
}

/** The batch ended by this move, if it did (every job ended): the caller sends batch.completed. */
export interface EndedBatch {
  id: string;
  status: BatchStatus;
}

/** Moves one job's count in its batch from → to and ends the batch when no job is left queued or running. */
async function moveBatchCount(tx: Tx, batchId: string, from: JobStatus, to: JobStatus, n = 1): Promise<EndedBatch | null> {
  const batch = await tx.batch.update({
    where: { id: batchId },
    data: { [COUNTER[from]]: { decrement: n }, [COUNTER[to]]: { increment: n } },
    select: { status: true, queuedJobs: true, runningJobs: true, completedAt: true },
  });
  if (to === "running" && batch.status === "queued") {
    await tx.batch.updateMany({ where: { id: batchId, status: "queued" }, data: { status: "running" } });
  }
  if (batch.queuedJobs + batch.runningJobs > 0 || batch.completedAt) return null;
  const ended = batch.status === "cancelled" ? "cancelled" : "completed";
  const { count } = await tx.batch.updateMany({
    where: { id: batchId, completedAt: null },
    data: { completedAt: new Date(), status: ended },
  });
  return count === 1 ? { id: batchId, status: ended } : null;
}

/** A claimed run of a job: which attempt it is (completion is guarded on it). */
export interface ClaimedRun {
  attempt: number;
  from: JobStatus;
  /** What the run needs, read in the same statement: the target and the routed scraper version. */
  target: {
    platform: string;
    placeUrl: string | null;
    placeId: string | null;
    reviewLimit: number;
    sort: "newest" | "most_relevant" | "highest_rating" | "lowest_rating";
    sinceDate: Date | null;
    language: string | null;
    implementation: string | null;
    config: Record<string, unknown> | null;
  };
}

interface ClaimRow {
  attempts: number;
  from_status: JobStatus;
  platform: string;
  place_url: string | null;
  place_id: string | null;
  review_limit: number;
  sort: ClaimedRun["target"]["sort"];
  since_date: Date | null;
  language: string | null;
  implementation: string | null;
  config: Record<string, unknown> | null;
}

/**
 * queued → running, or running → running when a lost worker's job comes back from the queue.
 * One statement (atomic without a transaction): the job row, its event and its batch's counts.
 * Null when the job is no longer runnable (cancelled or already ended): the queue entry is dropped.
 */
export async function claimJob(db: Tx, jobId: string, detail: Record<string, unknown> = {}): Promise<ClaimedRun | null> {
  const rows = await db.$queryRaw<ClaimRow[]>`
    WITH prev AS (
      SELECT id, status, batch_id FROM jobs WHERE id = ${jobId}::uuid AND status IN ('queued', 'running') FOR UPDATE
    ), upd AS (
      UPDATE jobs j SET status = 'running', attempts = j.attempts + 1, started_at = now(), updated_at = now()
      FROM prev WHERE j.id = prev.id
      RETURNING j.id, j.attempts, prev.status AS from_status, prev.batch_id, j.platform, j.place_url, j.place_id,
        j.review_limit, j.sort, j.since_date, j.language, j.scraper_version_id
    ), ev AS (
      INSERT INTO job_events (job_id, status, detail)
      SELECT id, 'running', ${JSON.stringify(detail)}::jsonb || jsonb_build_object('attempt', attempts)
        || CASE WHEN from_status = 'running' THEN '{"recovered": true}'::jsonb ELSE '{}'::jsonb END
      FROM upd
    ), b AS (
      UPDATE batches SET queued_jobs = queued_jobs - 1, running_jobs = running_jobs + 1,
        status = CASE WHEN batches.status = 'queued' THEN 'running'::batch_status ELSE batches.status END, updated_at = now()
      FROM upd WHERE batches.id = upd.batch_id AND upd.from_status = 'queued'
    )
    SELECT upd.attempts, upd.from_status::text AS from_status, upd.platform, upd.place_url, upd.place_id, upd.review_limit,
      upd.sort::text AS sort, upd.since_date, upd.language, s.implementation, s.config
    FROM upd LEFT JOIN scraper_versions s ON s.id = upd.scraper_version_id`;
  const row = rows[0];
  if (!row) return null;
  return {
    attempt: row.attempts,
    from: row.from_status,
    target: {
      platform: row.platform,
      placeUrl: row.place_url,
      placeId: row.place_id,
      reviewLimit: row.review_limit,
      sort: row.sort,
      sinceDate: row.since_date,
      language: row.language,
      implementation: row.implementation,
      config: row.config,
    },
  };
}

/** Outcome fields written with a terminal transition. */
export interface JobOutcome {
  status: "succeeded" | "failed";
  reviewCount?: number;
  errorClass?: ScrapeErrorClass;
  errorMessage?: string;
  durationMs: number;
}

/**
 * running → succeeded | failed, only for the run that holds `attempt` (a run whose job was taken over
 * after an expiry cannot complete it). Returns null when the guard did not match (nothing written).
 */
export async function finishJob(
  tx: Tx,
  jobId: string,
  attempt: number,
  outcome: JobOutcome,
): Promise<{ job: Job; endedBatch: EndedBatch | null } | null> {
  const now = new Date();
  const { count } = await tx.job.updateMany({
    where: { id: jobId, status: "running", attempts: attempt },
    data: {
      status: outcome.status,
      reviewCount: outcome.reviewCount ?? 0,
      errorClass: outcome.errorClass ?? null,
      errorMessage: outcome.errorMessage ?? null,
      finishedAt: now,
      durationMs: outcome.durationMs,
    },
  });
  if (count === 0) return null;
  const [job] = await Promise.all([
    tx.job.findUniqueOrThrow({ where: { id: jobId } }),
    recordEvent(tx, jobId, outcome.status, {
      attempt,
      ...(outcome.errorClass ? { error_class: outcome.errorClass } : {}),
      ...(outcome.reviewCount !== undefined ? { review_count: outcome.reviewCount } : {}),
    }),
  ]);
  const endedBatch = job.batchId ? await moveBatchCount(tx, job.batchId, "running", outcome.status) : null;
  return { job, endedBatch };
}

/** running → queued after a transient failure of `attempt`; the queue's backoff runs it again. */
export async function requeueJob(tx: Tx, jobId: string, attempt: number, detail: Record<string, unknown>): Promise<boolean> {
  const { count } = await tx.job.updateMany({
    where: { id: jobId, status: "running", attempts: attempt },
    data: { status: "queued", errorClass: (detail.error_class as ScrapeErrorClass | undefined) ?? null },
  });
  if (count === 0) return false;
  const job = await tx.job.findUniqueOrThrow({ where: { id: jobId }, select: { batchId: true } });
  await recordEvent(tx, jobId, "queued", { ...detail, attempt, retry: true });
  if (job.batchId) await moveBatchCount(tx, job.batchId, "running", "queued");
  return true;
}

/** queued → cancelled for every queued job of a batch (running jobs finish their run). */
export async function cancelQueuedJobs(tx: Tx, batchId: string): Promise<{ cancelled: number; endedBatch: EndedBatch | null }> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE jobs SET status = 'cancelled', error_class = 'cancelled', finished_at = now(), updated_at = now()
    WHERE batch_id = ${batchId}::uuid AND status = 'queued'
    RETURNING id::text AS id`;
  if (rows.length === 0) return { cancelled: 0, endedBatch: null };
  await tx.jobEvent.createMany({
    data: rows.map(({ id }) => ({ jobId: id, status: "cancelled" as const, detail: { reason: "batch_cancelled" } })),
  });
  const endedBatch = await moveBatchCount(tx, batchId, "queued", "cancelled", rows.length);
  return { cancelled: rows.length, endedBatch };
}

/** queued | running batch → cancelled (the batch keeps counting its running jobs until they end). */
export async function markBatchCancelled(tx: Tx, batchId: string): Promise<boolean> {
  const { count } = await tx.batch.updateMany({
    where: { id: batchId, status: { in: ["queued", "running"] } },
    data: { status: "cancelled", cancelledAt: new Date() },
  });
  return count === 1;
}

/** Records the first state of a new job. */
export async function recordCreated(tx: Tx, jobIds: string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await tx.jobEvent.createMany({ data: jobIds.map((jobId) => ({ jobId, status: "queued" as const, detail: {} })) });
}
