import type { Logger } from "@/server/core/logger";
import { getScraper, ScrapeError, type ScrapedReview, type ScrapeResult, type TScrapeSort } from "@/server/scrapers";
import type { Job } from "@/generated/prisma/client";
import type { Prisma } from "@/server/core/db";
import { attemptLoaded } from "./callbacks/deliver";
import { enqueueBatchCallback, firstJobDelivery } from "./callbacks/enqueue";
import { callbackSecretFor, jobCallbackSecret } from "./callbacks/secrets";
import type { ReviewDeps } from "./deps";
import { claimJob, type ClaimedRun } from "./job-claim";
import { endBatch, finishedRow, finishJob, requeueJob, type JobOutcome, type Tx } from "./job-states";

const SORT: Record<Job["sort"], TScrapeSort> = { newest: "newest", most_relevant: "relevant", highest_rating: "highest", lowest_rating: "lowest" };

/** Thrown to the queue so that it runs the job again after its backoff. */
export class RetryLater extends Error {}

/** The collected reviews without repeats (the last of each external id). */
function dedupe(result: ScrapeResult): ScrapedReview[] {
  const seen = new Map<string, ScrapedReview>();
  for (const r of result.reviews) seen.set(r.externalId, r);
  return [...seen.values()];
}

/** Stores the collected reviews, deduplicated per place, and links them to the job. */
async function storeReviews(tx: Tx, jobId: string, platform: string, placeKey: string, reviews: ScrapedReview[]): Promise<void> {
  const rows = reviews.map((r) => ({
    external_id: r.externalId,
    author: r.author,
    rating: r.rating === null ? null : Math.round(r.rating),
    text: r.text,
    language: r.language,
    published_at: r.publishedAt ? r.publishedAt.toISOString() : null,
    owner_reply: r.ownerReply,
  }));
  await tx.$executeRaw`
    WITH input AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(
        external_id text, author text, rating int, text text, language text, published_at timestamptz, owner_reply text)
    ), upserted AS (
      INSERT INTO reviews (id, platform, place_key, external_id, author, rating, text, language, published_at, owner_reply)
      SELECT gen_random_uuid(), ${platform}, ${placeKey}, external_id, author, rating, text, language, published_at, owner_reply FROM input
      ON CONFLICT (platform, place_key, external_id) DO UPDATE SET
        author = EXCLUDED.author, rating = EXCLUDED.rating, text = EXCLUDED.text, language = EXCLUDED.language,
        published_at = EXCLUDED.published_at, owner_reply = EXCLUDED.owner_reply, collected_at = now()
      RETURNING id
    )
    INSERT INTO job_reviews (job_id, review_id) SELECT ${jobId}::uuid, id FROM upserted ON CONFLICT DO NOTHING`;
}

/** The run being ended: its job as claimed, its attempt, and the API key's sealed callback secret when known. */
interface RunToEnd {
  job: Job;
  attempt: number;
  apiKeySecretEnc?: string | null;
  /** The scrape queue job, completed in the statement that ends the job. */
  queueJobId?: string;
}

/**
 * Ends a run: its reviews, its terminal state, the first delivery of its callback and (for a batch's
 * last job) the batch's end with batch.completed, all or nothing. Without reviews and batch that is
 * one statement. Then the callback's first attempt is made at once when this process has a free slot.
 */
async function finish(deps: ReviewDeps, run: RunToEnd, outcome: JobOutcome, result?: ScrapeResult, log?: Logger): Promise<string> {
  const s = deps.settings;
  const unique = result ? dedupe(result) : [];
  if (result) outcome.reviewCount = unique.length;
  const at = new Date();
  const inline = deps.inlineCallbacks?.tryAcquire() ?? false;
  const firstDue = inline ? new Date(at.getTime() + s.CALLBACK_TIMEOUT_MS + s.JOB_EXPIRE_GRACE_SECONDS * 1000) : at;
  const row = finishedRow(run.job, outcome, at);
  const delivery = firstJobDelivery(row, firstDue);
  const write = async (tx: Tx) => {
    if (result && unique.length > 0) await storeReviews(tx, run.job.id, run.job.platform, result.placeKey, unique);
    const done = await finishJob(tx, s, run, outcome, at, delivery);
    // Another run holds the job now: nothing was written (a transaction rolls the reviews back).
    if (!done) throw new SupersededRun();
    if (done.batch && done.batch.open === 0 && !done.batch.completed) {
      const ended = await endBatch(tx, done.batch);
      if (ended) await enqueueBatchCallback(tx, await deps.boss(), ended.id);
    }
    return done.payload;
  };
  let payload: unknown;
  try {
    payload = unique.length > 0 || run.job.batchId ? await deps.db.$transaction(write, { timeout: 60_000 }) : await write(deps.db);
  } catch (error) {
    if (inline) deps.inlineCallbacks?.release();
    throw error;
  }
  if (inline && deps.inlineCallbacks) {
    if (!delivery || !row.callbackUrl) deps.inlineCallbacks.release();
    else {
      const url = row.callbackUrl;
      deps.inlineCallbacks.run(
        async () => {
          const secret =
            run.apiKeySecretEnc !== undefined ? jobCallbackSecret(deps, run.job, run.apiKeySecretEnc) : await callbackSecretFor(deps, { jobId: run.job.id, batchId: null });
          const state = await attemptLoaded(deps, { id: delivery.id, webhookId: delivery.webhookId, url, payload: payload as Prisma.JsonValue, attempts: 0, createdAt: at }, secret);
          log?.info({ event: "callback_attempt", deliveryId: delivery.id, state, inline: true }, "callback attempted");
        },
        (error) => log?.error({ err: error, deliveryId: delivery.id }, "callback attempt failed; the queue attempts it again"),
      );
    }
  }
  return outcome.status;
}

class SupersededRun extends Error {}

/**
 * Runs one claimed scrape job (the worker's slots take and claim in one statement, job-claim.ts):
 * scrapes with the routed version under the job timeout, and records the outcome with its callbacks
 * in one transaction. A transient failure with runs left goes back to queued and is thrown to the
 * queue (RetryLater), which runs it again after its backoff. Returns what happened, for logs and tests.
 */
export async function runClaimedRun(deps: ReviewDeps, run: ClaimedRun, log?: Logger, queueJobId?: string): Promise<string> {
  try {
    return await runClaimed(deps, run, log, queueJobId);
  } catch (error) {
    if (error instanceof SupersededRun) return "superseded";
    throw error;
  }
}

async function runClaimed(deps: ReviewDeps, run: ClaimedRun, log?: Logger, queueJobId?: string): Promise<string> {
  const s = deps.settings;
  const jobId = run.job.id;
  const job = run.job;
  const toEnd = { ...run, ...(queueJobId ? { queueJobId } : {}) };
  const started = Date.now();
  const fail = (errorClass: JobOutcome["errorClass"], errorMessage: string) =>
    finish(deps, toEnd, { status: "failed", errorClass, errorMessage, durationMs: Date.now() - started }, undefined, log);
  if (run.attempt > s.JOB_MAX_ATTEMPTS) return fail("timeout", "attempts_exhausted");
  const scraper = run.implementation ? getScraper(run.implementation) : undefined;
  if (!scraper) return fail("internal", "scraper_unavailable");
  const config = (run.config ?? {}) as { platformUrl?: unknown };
  let result: ScrapeResult;
  try {
    result = await scraper.scrape(
      {
        ...(job.placeUrl ? { placeUrl: job.placeUrl } : {}),
        ...(job.placeId ? { platformId: job.placeId } : {}),
        limit: job.reviewLimit,
        sort: SORT[job.sort],
        ...(job.sinceDate ? { since: job.sinceDate } : {}),
        ...(job.language ? { language: job.language } : {}),
      },
      { signal: AbortSignal.timeout(s.JOB_TIMEOUT_MS), platformUrl: typeof config.platformUrl === "string" ? config.platformUrl : s.DEMO_PLATFORM_URL },
    );
  } catch (error) {
    if (!(error instanceof ScrapeError)) {
      log?.error({ err: error, jobId }, "scraper failed unexpectedly");
      return fail("internal", "internal_error");
    }
    if (error.transient && run.attempt < s.JOB_MAX_ATTEMPTS) {
      const detail = { error_class: error.errorClass, message: error.message.slice(0, 500) };
      if (await deps.db.$transaction((tx) => requeueJob(tx, jobId, run.attempt, detail))) throw new RetryLater(error.errorClass);
      return "superseded";
    }
    return fail(error.errorClass, error.message.slice(0, 500));
  }
  return finish(deps, toEnd, { status: "succeeded", durationMs: Date.now() - started }, result, log);
}

/** Dead-letter handler: the queue gave up on a job (its last run was lost), so it ends as failed (timeout). */
export async function failAbandonedJob(deps: ReviewDeps, jobId: string, log?: Logger): Promise<string> {
  const job = await deps.db.job.findUnique({ where: { id: jobId } });
  if (!job || (job.status !== "queued" && job.status !== "running")) return "skipped";
  const run = job.status === "queued" ? await claimJob(deps.db, jobId, { dead_letter: true }) : { job, attempt: job.attempts };
  if (!run) return "skipped";
  try {
    return await finish(deps, run, { status: "failed", errorClass: "timeout", errorMessage: "worker_lost", durationMs: 0 }, undefined, log);
  } catch (error) {
    if (error instanceof SupersededRun) return "superseded";
    throw error;
  }
}
