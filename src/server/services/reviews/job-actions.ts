import { AppError } from "@/server/core/errors";
import type { ServiceContext } from "../context";
import { ownedBy, type ReviewActor } from "./access";
import { enqueueBatchCallback, firstJobDelivery } from "./callbacks/enqueue";
import { toJobOut } from "./job-output";
import { cancelQueuedJob, requestCancel, retryJobRun } from "./job-rerun";

// One job at a time (docs/review-engine.md, "Cancel and retry"): every change goes through the guarded
// transitions of job-rerun.ts (of job-states.ts's machine), so a cancel racing the worker's claim or
// end, or two retries, change a job once.

async function ownedJob(ctx: ServiceContext<ReviewActor>, jobId: string) {
  const job = await ctx.db.job.findFirst({
    where: { id: jobId, ...ownedBy(ctx.actor) },
    select: { id: true, batchId: true },
  });
  if (!job) throw new AppError("NOT_FOUND", "job_not_found");
  return job;
}

/**
 * POST /api/jobs/{job_id}/cancel. A queued job is cancelled at once (job.cancelled callback, batch
 * counts); a running one is asked to stop: its worker aborts the scrape within JOB_CANCEL_POLL_MS plus
 * the scraper's current step (under 5 s), keeps the reviews read so far and ends it cancelled. A job
 * already cancelled answers as it is; a succeeded or failed one is 409 job_not_cancellable.
 */
export async function cancelJob(ctx: ServiceContext<ReviewActor>, input: { job_id: string }) {
  const jobId = input.job_id;
  await ownedJob(ctx, jobId);
  for (let tries = 0; tries < 3; tries++) {
    const outcome = await ctx.db.$transaction(
      async (tx) => {
        const queued = await cancelQueuedJob(tx, jobId, (job) => firstJobDelivery(job, ctx.now()));
        if (queued) {
          if (queued.endedBatch) await enqueueBatchCallback(tx, queued.endedBatch.id);
          return "done";
        }
        return (await requestCancel(tx, jobId)) ? "done" : "unchanged";
      },
      { timeout: 30_000 },
    );
    const job = await ctx.db.job.findUniqueOrThrow({ where: { id: jobId } });
    if (outcome === "done" || job.status === "cancelled" || (job.status === "running" && job.cancelRequestedAt))
      return toJobOut(job);
    if (job.status === "succeeded" || job.status === "failed")
      throw new AppError("CONFLICT", "job_not_cancellable", { status: job.status });
    // Claimed or requeued between the two guards: try again.
  }
  throw new AppError("CONFLICT", "job_busy");
}

/**
 * POST /api/jobs/{job_id}/retry: a failed or cancelled job is queued again as a new run of the same job
 * (JOB_MAX_ATTEMPTS more runs allowed; the earlier run's reviews unlinked). In a cancelled batch it is
 * 409 batch_cancelled; otherwise 409 job_not_retryable unless the job is failed or cancelled.
 */
export async function retryJob(ctx: ServiceContext<ReviewActor>, input: { job_id: string }) {
  const jobId = input.job_id;
  await ownedJob(ctx, jobId);
  // (A cancelled batch is refused inside the transaction, with the batch row locked: retryJobRun.)
  const job = await ctx.db.$transaction((tx) => retryJobRun(tx, jobId, ctx.settings.review.JOB_MAX_ATTEMPTS), {
    timeout: 30_000,
  });
  if (!job) {
    const now = await ctx.db.job.findUniqueOrThrow({ where: { id: jobId }, select: { status: true } });
    throw new AppError("CONFLICT", "job_not_retryable", { status: now.status });
  }
  return toJobOut(job);
}
