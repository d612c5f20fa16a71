import type { Job } from "@/generated/prisma/client";
import type { BatchStatus, JobStatus } from "@/generated/prisma/enums";
import { AppError } from "@/server/core/errors";
import { jobColumns, moveBatchCount, recordEvent, type EndedBatch, type FirstDelivery, type Tx } from "./job-states";

// One job's cancel and retry (docs/review-engine.md, "Cancel and retry"): transitions of the state
// machine in job-states.ts, each a guarded statement like the others.

/** Writes a job's first callback delivery (the queue entry of its first attempt), due at `delivery.startAfter`. */
async function insertDelivery(tx: Tx, job: Job, delivery: FirstDelivery): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO callback_deliveries (id, webhook_id, kind, queue, host, job_id, url, payload, state, next_attempt_at)
    VALUES (${delivery.id}::uuid, ${delivery.webhookId}, ${delivery.kind}::callback_kind, ${job.queue}, ${delivery.host}, ${job.id}::uuid,
      ${job.callbackUrl}, ${delivery.payload}::jsonb, 'pending', ${delivery.startAfter}::timestamptz AT TIME ZONE 'UTC')`;
}

/**
 * queued → cancelled for one job (POST /api/jobs/{id}/cancel): its event, its job.cancelled callback
 * (built by `deliveryOf` from the cancelled row) and its batch's counts, which may end the batch.
 * Null when the job was not queued any more (the guard did not match).
 */
export async function cancelQueuedJob(
  tx: Tx,
  jobId: string,
  deliveryOf: (job: Job) => FirstDelivery | null,
): Promise<{ job: Job; endedBatch: EndedBatch | null } | null> {
  const rows = await tx.$queryRaw<Job[]>`
    UPDATE jobs SET status = 'cancelled', error_class = 'cancelled', error_message = 'cancelled_by_client', finished_at = now(), updated_at = now(),
      callback_state = CASE WHEN callback_url IS NOT NULL THEN 'pending'::callback_state ELSE callback_state END
    WHERE id = ${jobId}::uuid AND status = 'queued'
    RETURNING ${jobColumns("jobs")}`;
  const job = rows[0];
  if (!job) return null;
  await recordEvent(tx, jobId, "cancelled", { reason: "cancelled_by_client" });
  const delivery = deliveryOf(job);
  if (delivery) await insertDelivery(tx, job, delivery);
  const endedBatch = job.batchId ? await moveBatchCount(tx, job.batchId, "queued", "cancelled") : null;
  return { job, endedBatch };
}

/** Asks the run of a running job to stop (its worker polls `cancel_requested_at`); false when it was not running. */
export async function requestCancel(tx: Tx, jobId: string): Promise<boolean> {
  const { count } = await tx.job.updateMany({
    where: { id: jobId, status: "running", cancelRequestedAt: null },
    data: { cancelRequestedAt: new Date() },
  });
  if (count === 1) await recordEvent(tx, jobId, "running", { cancel_requested: true });
  return count === 1;
}

/**
 * failed | cancelled → queued (POST /api/jobs/{id}/retry): a new run of the same job, due at once, with
 * `extraAttempts` more runs allowed; the reviews linked by the earlier run are unlinked (the new run's
 * are the job's result). In a batch, the counts move and an ended batch opens again (it sends
 * batch.completed again when it ends). Null when the job was not failed or cancelled.
 */
export async function retryJobRun(tx: Tx, jobId: string, extraAttempts: number): Promise<Job | null> {
  const before = await tx.$queryRaw<{ status: JobStatus; batchId: string | null }[]>`
    SELECT status::text AS status, batch_id::text AS "batchId" FROM jobs WHERE id = ${jobId}::uuid AND status IN ('failed', 'cancelled') FOR UPDATE`;
  const from = before[0];
  if (!from) return null;
  // The batch row is locked before it is read: a cancel of the batch, or another job ending it, waits
  // for this transaction (and sees the retried job queued), so a cancelled batch is never fed and an
  // ending batch is never left ended with a job still to run.
  if (from.batchId) {
    const [batch] = await tx.$queryRaw<
      { status: BatchStatus }[]
    >`SELECT status::text AS status FROM batches WHERE id = ${from.batchId}::uuid FOR UPDATE`;
    if (batch?.status === "cancelled") throw new AppError("CONFLICT", "batch_cancelled");
  }
  const rows = await tx.$queryRaw<Job[]>`
    UPDATE jobs SET status = 'queued', run_after = now(), queued_at = now(), updated_at = now(), lease_until = NULL, started_at = NULL,
      finished_at = NULL, duration_ms = NULL, error_class = NULL, error_message = NULL, review_count = 0, cancel_requested_at = NULL,
      attempt_limit = attempts + ${extraAttempts}::int, platform_total = NULL, oldest_review_at = NULL, stop_reason = NULL,
      callback_state = 'none', callback_attempts = 0, callback_last_status = NULL, callback_last_error = NULL, callback_delivered_at = NULL
    WHERE id = ${jobId}::uuid
    RETURNING ${jobColumns("jobs")}`;
  await tx.jobReview.deleteMany({ where: { jobId } });
  // The earlier run's callback, if still undelivered, is not sent after the new run's (its outcome is replaced).
  await tx.callbackDelivery.updateMany({
    where: { jobId, state: "pending" },
    data: { state: "failed", lastError: "superseded_by_retry", nextAttemptAt: null },
  });
  await recordEvent(tx, jobId, "queued", { retry: true, after: from.status });
  if (from.batchId) {
    await tx.batch.updateMany({
      where: { id: from.batchId, completedAt: { not: null } },
      data: { completedAt: null, status: "running" },
    });
    await moveBatchCount(tx, from.batchId, from.status, "queued");
  }
  return rows[0] ?? null;
}
