import type { z } from "zod";
import type { Prisma } from "@/server/core/db";
import { AppError } from "@/server/core/errors";
import type { ServiceContext } from "../context";
import { readPage } from "../paging";
import { ownedBy, type ReviewActor } from "./access";
import { toBatchOut, toJobOut } from "./job-output";
import type { ZListBatchesInput, ZListJobsInput } from "./read.schema";
import { containsText } from "@/server/core/text-search";

/** One page of the batches the actor may see. */
export function listBatches(ctx: ServiceContext<ReviewActor>, input: z.output<typeof ZListBatchesInput>) {
  const { db, actor } = ctx;
  const where: Prisma.BatchWhereInput = {
    ...ownedBy(actor),
    ...(input.status ? { status: input.status } : {}),
    ...(input.q
      ? {
          OR: [{ name: containsText(input.q) }, { requesterClientId: containsText(input.q) }],
        }
      : {}),
  };
  const orderBy = input.sort === "total_jobs" ? { totalJobs: input.dir } : { createdAt: input.dir };
  return readPage(
    input,
    () => db.batch.count({ where }),
    async (w) => (await db.batch.findMany({ where, orderBy: [orderBy, { id: input.dir }], ...w })).map(toBatchOut),
  );
}

/** A batch with its progress and its jobs; NOT_FOUND when absent or not the actor's. */
export async function getBatch(ctx: ServiceContext<ReviewActor>, input: { batch_id: string }) {
  const { db, actor } = ctx;
  const batchId = input.batch_id;
  const batch = await db.batch.findFirst({ where: { id: batchId, ...ownedBy(actor) } });
  if (!batch) throw new AppError("NOT_FOUND", "batch_not_found");
  const jobs = await db.job.findMany({ where: { batchId }, orderBy: { batchIndex: "asc" } });
  return { ...toBatchOut(batch), jobs: jobs.map(toJobOut) };
}

/** One page of the jobs the actor may see. */
export function listJobs(ctx: ServiceContext<ReviewActor>, input: z.output<typeof ZListJobsInput>) {
  const { db, actor } = ctx;
  const where: Prisma.JobWhereInput = {
    ...ownedBy(actor),
    ...(input.status ? { status: input.status } : {}),
    ...(input.batch_id ? { batchId: input.batch_id } : {}),
    ...(input.q
      ? {
          OR: [
            { requesterClientId: containsText(input.q) },
            { placeUrl: containsText(input.q) },
            { placeId: containsText(input.q) },
          ],
        }
      : {}),
  };
  const key = input.sort === "priority" ? "priority" : input.sort === "finished_at" ? "finishedAt" : "createdAt";
  return readPage(
    input,
    () => db.job.count({ where }),
    async (w) =>
      (await db.job.findMany({ where, orderBy: [{ [key]: input.dir }, { id: input.dir }], ...w })).map(toJobOut),
  );
}

/** The wire names of the callback kinds (the enum's @map values). */
const CALLBACK_KIND_NAMES = {
  job_completed: "job.completed",
  job_failed: "job.failed",
  job_cancelled: "job.cancelled",
  batch_completed: "batch.completed",
} as const;

/** How many of a job's newest reviews its detail shows; all of them are paged at /jobs/{job_id}/reviews. */
export const JOB_REVIEW_PREVIEW = 20;

/** A job with its state timeline, a preview of its reviews (the newest JOB_REVIEW_PREVIEW) and callback attempts. */
export async function getJobDetail(ctx: ServiceContext<ReviewActor>, input: { job_id: string }) {
  const { db, actor } = ctx;
  const jobId = input.job_id;
  const job = await db.job.findFirst({ where: { id: jobId, ...ownedBy(actor) } });
  if (!job) throw new AppError("NOT_FOUND", "job_not_found");
  const [events, reviews, deliveries] = await Promise.all([
    db.jobEvent.findMany({ where: { jobId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.jobReview.findMany({
      where: { jobId },
      include: { review: true },
      take: JOB_REVIEW_PREVIEW,
      orderBy: [{ review: { publishedAt: { sort: "desc", nulls: "last" } } }, { reviewId: "asc" }],
    }),
    db.callbackDelivery.findMany({
      where: { jobId },
      include: { attemptLog: { orderBy: { attempt: "asc" } } },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  return {
    job: toJobOut(job),
    events: events.map((e) => ({ status: e.status, detail: e.detail as Record<string, unknown>, at: e.createdAt })),
    reviews: reviews.map(({ review: r }) => ({
      id: r.id,
      external_id: r.externalId,
      author: r.author,
      rating: r.rating,
      text: r.text,
      language: r.language,
      published_at: r.publishedAt,
      owner_reply: r.ownerReply,
    })),
    callbacks: deliveries.map((d) => ({
      id: d.id,
      webhook_id: d.webhookId,
      kind: CALLBACK_KIND_NAMES[d.kind],
      state: d.state,
      attempts: d.attempts,
      next_attempt_at: d.nextAttemptAt,
      attempt_log: d.attemptLog.map((a) => ({
        attempt: a.attempt,
        status_code: a.statusCode,
        error: a.error,
        duration_ms: a.durationMs,
        at: a.createdAt,
      })),
    })),
  };
}
