import type { ChangeCounts } from "./review-changes";
import { Prisma, sqlRows } from "@/server/core/db";
import type { Job } from "@/generated/prisma/client";
import type { BatchStatus, JobStatus, ScrapeErrorClass } from "@/generated/prisma/enums";
import type { TStopReason } from "@/server/scrapers/types";
import { placeUpsertCte, type PlaceSeen } from "./place-store";

// The state machines of jobs and batches (docs/review-engine.md, "States"). Every status change of
// a job or a batch goes through this module (the claims, queued → running: job-claim.ts; one job's
// cancel and retry: job-rerun.ts), and every change is a guarded UPDATE (WHERE status =
// the expected one), so two workers, a retry and a cancel can race without a job ending twice.

export type Tx = Prisma.TransactionClient;

/** Allowed job transitions: from → to. */
export const JOB_TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  queued: ["running", "cancelled"],
  // running → running: the worker running it was lost (queue expiry) and another run claims it.
  // running → queued: a transient failure; it is taken again after its backoff (run_after).
  // running → cancelled: a cancel request aborted the run (the reviews read so far are kept).
  running: ["running", "queued", "succeeded", "failed", "cancelled"],
  succeeded: [],
  // failed | cancelled → queued: a retry (POST /api/jobs/{id}/retry), a new run of the same job.
  failed: ["queued"],
  cancelled: ["queued"],
};

/** Allowed batch transitions; a batch is "ended" once completed_at is set (every job ended). */
export const BATCH_TRANSITIONS: Record<BatchStatus, readonly BatchStatus[]> = {
  queued: ["running", "completed", "cancelled"],
  running: ["completed", "cancelled"],
  // completed → running: a job of the ended batch was retried (POST /api/jobs/{id}/retry).
  completed: ["running"],
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

export async function recordEvent(tx: Tx, jobId: string, status: JobStatus, detail: Record<string, unknown> = {}) {
  await tx.jobEvent.create({ data: { jobId, status, detail: detail as Prisma.InputJsonValue } });
}

/** The batch ended by this move, if it did (every job ended): the caller sends batch.completed. */
export interface EndedBatch {
  id: string;
  status: BatchStatus;
}

/** Moves one job's count in its batch from → to and ends the batch when no job is left queued or running. */
export async function moveBatchCount(
  tx: Tx,
  batchId: string,
  from: JobStatus,
  to: JobStatus,
  n = 1,
): Promise<EndedBatch | null> {
  const batch = await tx.batch.update({
    where: { id: batchId },
    data: { [COUNTER[from]]: { decrement: n }, [COUNTER[to]]: { increment: n } },
    select: { status: true, queuedJobs: true, runningJobs: true, completedAt: true },
  });
  if (to === "running" && batch.status === "queued") {
    await tx.batch.updateMany({ where: { id: batchId, status: "queued" }, data: { status: "running" } });
  }
  if (batch.queuedJobs + batch.runningJobs > 0 || batch.completedAt) return null;
  return endBatch(tx, { id: batchId, status: batch.status });
}

// Every column of a job row under its field name, so a raw statement returns a `Job` as Prisma would.
// The fields are Prisma's own list of the model's scalar fields (generated from prisma/schema.prisma);
// each column is its field in snake_case, as every `@map` of the Job model reads. The uuid and enum
// columns are read as text: a raw statement returns them as the strings the `Job` type holds.
const JOB_TEXT_FIELDS: ReadonlySet<keyof Job> = new Set<keyof Job>([
  "id",
  "apiKeyId",
  "batchId",
  "callbackState",
  "sort",
  "scraperVersionId",
  "status",
  "errorClass",
  "placeRefId",
  "stopReason",
  "mode",
]);
const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const JOB_COLUMNS: [column: string, field: keyof Job, cast?: "text"][] = Object.values(Prisma.JobScalarFieldEnum).map(
  (field): [string, keyof Job, "text"?] =>
    JOB_TEXT_FIELDS.has(field) ? [snakeCase(field), field, "text"] : [snakeCase(field), field],
);

/** `alias.column AS "field", …` for every column of a job row. */
export function jobColumns(alias: string): Prisma.Sql {
  return Prisma.raw(JOB_COLUMNS.map(([c, f, cast]) => `${alias}.${c}${cast ? `::${cast}` : ""} AS "${f}"`).join(", "));
}

/** Outcome fields written with a terminal transition. */
export interface JobOutcome {
  status: "succeeded" | "failed" | "cancelled";
  reviewCount?: number;
  /** The place's name as the platform showed it. */
  placeName?: string;
  errorClass?: ScrapeErrorClass;
  errorMessage?: string;
  durationMs: number;
  /** The job's coverage: the place record, the platform's total, the oldest review reached, why it stopped. */
  coverage?: {
    placeRefId: string | null;
    platformTotal: number | null;
    oldestReviewAt: Date | null;
    stopReason: TStopReason | null;
  };
  /** How the reviews read compare with the key's earlier jobs (review-changes.ts); absent without a result. */
  changes?: ChangeCounts;
}

/** The first delivery of a job's callback, written with its terminal state (see callbacks/enqueue.ts). */
export interface FirstDelivery {
  id: string;
  webhookId: string;
  kind: "job.completed" | "job.failed" | "job.cancelled";
  payload: string;
  /** host[:port] of the callback URL (attempts at once per host are bounded). */
  host: string;
  /** When the delivery loops take the first attempt: now, or, when this process attempts it at once, after that attempt's lease. */
  startAfter: Date;
}

/** The job's row after `finishJob`, computed from the claimed row and the outcome (no read-back needed). */
export function finishedRow(job: Job, outcome: JobOutcome, at: Date): Job {
  return {
    ...job,
    status: outcome.status,
    reviewCount: outcome.reviewCount ?? 0,
    errorClass: outcome.errorClass ?? null,
    errorMessage: outcome.errorMessage ?? null,
    finishedAt: at,
    durationMs: outcome.durationMs,
    placeRefId: outcome.coverage?.placeRefId ?? job.placeRefId,
    platformTotal: outcome.coverage?.platformTotal ?? null,
    oldestReviewAt: outcome.coverage?.oldestReviewAt ?? null,
    stopReason: outcome.coverage?.stopReason ?? null,
    newReviews: outcome.changes?.new ?? null,
    updatedReviews: outcome.changes?.updated ?? null,
    unchangedReviews: outcome.changes?.unchanged ?? null,
    callbackState: job.callbackUrl ? "pending" : job.callbackState,
    updatedAt: at,
  };
}

/**
 * running → succeeded | failed | cancelled, only for the run that holds `attempt` (a run whose job was taken over
 * after its lease passed cannot complete it). One statement: the job, its event, the first delivery of
 * its callback (itself the queue entry of its first attempt) and its batch's counts.
 * Returns null when the guard did not match (nothing written); `batch` is the batch's counts after
 * the move, for the caller to end the batch (in the same transaction) when no job is left.
 */
export async function finishJob(
  tx: Tx,
  run: { job: Job; attempt: number },
  outcome: JobOutcome,
  at: Date,
  delivery: FirstDelivery | null,
  place: PlaceSeen | null = null,
): Promise<{
  batch: { id: string; status: BatchStatus; open: number; completed: boolean } | null;
  payload: unknown;
} | null> {
  const detail = {
    attempt: run.attempt,
    ...(outcome.errorClass ? { error_class: outcome.errorClass } : {}),
    ...(outcome.reviewCount !== undefined ? { review_count: outcome.reviewCount } : {}),
  };
  const counter = Prisma.raw(`${outcome.status}_jobs`);
  const rows = await sqlRows<{
    batchId: string | null;
    batchStatus: BatchStatus | null;
    open: number | null;
    completed: boolean | null;
    payload: unknown;
  }>(
    tx,
    Prisma.sql`
    WITH ${placeUpsertCte(place, at)}, j AS (
      UPDATE jobs SET status = ${outcome.status}::job_status, review_count = ${outcome.reviewCount ?? 0}::int,
        error_class = ${outcome.errorClass ?? null}::scrape_error_class, error_message = ${outcome.errorMessage ?? null}::text,
        finished_at = ${at}::timestamptz AT TIME ZONE 'UTC', duration_ms = ${outcome.durationMs}::int, updated_at = ${at}::timestamptz AT TIME ZONE 'UTC',
        callback_state = CASE WHEN callback_url IS NOT NULL THEN 'pending'::callback_state ELSE callback_state END, lease_until = NULL,
        cancel_requested_at = NULL, place_name = COALESCE(${outcome.placeName ?? null}::text, place_name),
        place_ref_id = COALESCE((SELECT id FROM pl), place_ref_id), platform_total = ${outcome.coverage?.platformTotal ?? null}::int,
        oldest_review_at = ${outcome.coverage?.oldestReviewAt ?? null}::timestamptz AT TIME ZONE 'UTC', stop_reason = ${outcome.coverage?.stopReason ?? null}::stop_reason,
        new_reviews = ${outcome.changes?.new ?? null}::int, updated_reviews = ${outcome.changes?.updated ?? null}::int,
        unchanged_reviews = ${outcome.changes?.unchanged ?? null}::int
      WHERE id = ${run.job.id}::uuid AND status = 'running' AND attempts = ${run.attempt}::int
      RETURNING id, batch_id, callback_url, queue
    ), ev AS (
      INSERT INTO job_events (job_id, status, detail) SELECT id, ${outcome.status}::job_status, ${JSON.stringify(detail)}::jsonb FROM j
    ), d AS (
      INSERT INTO callback_deliveries (id, webhook_id, kind, queue, host, job_id, url, payload, state, next_attempt_at)
      SELECT ${delivery?.id ?? null}::uuid, ${delivery?.webhookId ?? null}::text, ${delivery?.kind ?? null}::callback_kind, j.queue, ${delivery?.host ?? ""}::text,
        j.id, j.callback_url, ${delivery?.payload ?? null}::jsonb, 'pending', ${delivery?.startAfter ?? null}::timestamptz AT TIME ZONE 'UTC'
      FROM j WHERE ${delivery !== null} AND j.callback_url IS NOT NULL
      RETURNING id, payload
    ), b AS (
      UPDATE batches SET running_jobs = running_jobs - 1, ${counter} = ${counter} + 1, updated_at = now()
      WHERE batches.id = (SELECT batch_id FROM j)
      RETURNING batches.id, batches.status, batches.queued_jobs + batches.running_jobs AS open, batches.completed_at IS NOT NULL AS completed
    )
    SELECT b.id::text AS "batchId", b.status::text AS "batchStatus", b.open::int AS open, b.completed, (SELECT payload FROM d) AS payload
    FROM j LEFT JOIN b ON true`,
  );
  const row = rows[0];
  if (!row) return null;
  const batch = row.batchId
    ? {
        id: row.batchId,
        status: row.batchStatus as BatchStatus,
        open: row.open ?? 0,
        completed: row.completed ?? false,
      }
    : null;
  // The delivery's payload as stored (jsonb's key order): an attempt made now signs the same bytes as later ones.
  return { batch, payload: row.payload };
}

/** Ends a batch whose last job just ended (the caller's transaction); null when another run ended it. */
export async function endBatch(tx: Tx, batch: { id: string; status: BatchStatus }): Promise<EndedBatch | null> {
  const ended = batch.status === "cancelled" ? "cancelled" : "completed";
  const { count } = await tx.batch.updateMany({
    where: { id: batch.id, completedAt: null },
    data: { completedAt: new Date(), status: ended },
  });
  return count === 1 ? { id: batch.id, status: ended } : null;
}

/** running → queued after a transient failure of `attempt`; it is taken again once `runAfter` (its backoff) has passed. */
export async function requeueJob(
  tx: Tx,
  jobId: string,
  attempt: number,
  runAfter: Date,
  detail: Record<string, unknown>,
): Promise<boolean> {
  const { count } = await tx.job.updateMany({
    // Not when a cancel was asked meanwhile: that run ends cancelled instead (run-job.ts).
    where: { id: jobId, status: "running", attempts: attempt, cancelRequestedAt: null },
    data: {
      status: "queued",
      runAfter,
      leaseUntil: null,
      errorClass: (detail.error_class as ScrapeErrorClass | undefined) ?? null,
    },
  });
  if (count === 0) return false;
  const job = await tx.job.findUniqueOrThrow({ where: { id: jobId }, select: { batchId: true } });
  await recordEvent(tx, jobId, "queued", { ...detail, attempt, retry: true, run_after: runAfter.toISOString() });
  if (job.batchId) await moveBatchCount(tx, job.batchId, "running", "queued");
  return true;
}

/** queued → cancelled for every queued job of a batch (running jobs finish their run). */
export async function cancelQueuedJobs(
  tx: Tx,
  batchId: string,
): Promise<{ cancelled: number; endedBatch: EndedBatch | null }> {
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
