import type { Logger } from "@/server/core/logger";
import { getScraper, ScrapeError, type ScrapedReview, type ScrapeResult, type TScrapeSort } from "@/server/scrapers";
import { enqueueBatchCallback, enqueueJobCallback } from "./callbacks/enqueue";
import type { ReviewDeps } from "./deps";
import { claimJob, finishJob, requeueJob, type ClaimedRun, type JobOutcome, type Tx } from "./job-states";

const SORT: Record<ClaimedRun["target"]["sort"], TScrapeSort> = { newest: "newest", most_relevant: "relevant", highest_rating: "highest", lowest_rating: "lowest" };

/** Thrown to the queue so that it runs the job again after its backoff. */
export class RetryLater extends Error {}

/** Stores the collected reviews, deduplicated per place, and links them to the job. */
async function storeReviews(tx: Tx, jobId: string, platform: string, result: ScrapeResult): Promise<number> {
  const seen = new Map<string, ScrapedReview>();
  for (const r of result.reviews) seen.set(r.externalId, r);
  if (seen.size === 0) return 0;
  const rows = [...seen.values()].map((r) => ({
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
      SELECT gen_random_uuid(), ${platform}, ${result.placeKey}, external_id, author, rating, text, language, published_at, owner_reply FROM input
      ON CONFLICT (platform, place_key, external_id) DO UPDATE SET
        author = EXCLUDED.author, rating = EXCLUDED.rating, text = EXCLUDED.text, language = EXCLUDED.language,
        published_at = EXCLUDED.published_at, owner_reply = EXCLUDED.owner_reply, collected_at = now()
      RETURNING id
    )
    INSERT INTO job_reviews (job_id, review_id) SELECT ${jobId}::uuid, id FROM upserted ON CONFLICT DO NOTHING`;
  return seen.size;
}

async function finish(deps: ReviewDeps, jobId: string, attempt: number, outcome: JobOutcome, result?: ScrapeResult, platform = "platform") {
  const boss = await deps.boss();
  return deps.db.$transaction(
    async (tx) => {
      if (result) outcome.reviewCount = await storeReviews(tx, jobId, platform, result);
      const done = await finishJob(tx, jobId, attempt, outcome);
      // Another run holds the job now: roll back the reviews written above.
      if (!done) throw new SupersededRun();
      await enqueueJobCallback(tx, boss, done.job);
      if (done.endedBatch) await enqueueBatchCallback(tx, boss, done.endedBatch.id);
      return outcome.status;
    },
    { timeout: 60_000 },
  );
}

class SupersededRun extends Error {}

/**
 * Runs one scrape job (a scrape queue job): claims it, scrapes with the routed version under the job
 * timeout, and records the outcome with its callbacks in one transaction. A transient failure with
 * runs left goes back to queued and is thrown to the queue (RetryLater), which runs it again after
 * its backoff. Returns what happened, for logs and tests.
 */
export async function runScrapeJob(deps: ReviewDeps, jobId: string, log?: Logger): Promise<string> {
  try {
    return await runClaimed(deps, jobId, log);
  } catch (error) {
    if (error instanceof SupersededRun) return "superseded";
    throw error;
  }
}

async function runClaimed(deps: ReviewDeps, jobId: string, log?: Logger): Promise<string> {
  const s = deps.settings;
  const run = await claimJob(deps.db, jobId);
  if (!run) return "skipped";
  const job = run.target;
  const started = Date.now();
  const fail = (errorClass: JobOutcome["errorClass"], errorMessage: string) =>
    finish(deps, jobId, run.attempt, { status: "failed", errorClass, errorMessage, durationMs: Date.now() - started });
  if (run.attempt > s.JOB_MAX_ATTEMPTS) return fail("timeout", "attempts_exhausted");
  const scraper = job.implementation ? getScraper(job.implementation) : undefined;
  if (!scraper) return fail("internal", "scraper_unavailable");
  const config = (job.config ?? {}) as { platformUrl?: unknown };
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
  return finish(deps, jobId, run.attempt, { status: "succeeded", durationMs: Date.now() - started }, result, job.platform);
}

/** Dead-letter handler: the queue gave up on a job (its last run was lost), so it ends as failed (timeout). */
export async function failAbandonedJob(deps: ReviewDeps, jobId: string): Promise<string> {
  const job = await deps.db.job.findUnique({ where: { id: jobId }, select: { status: true, attempts: true } });
  if (!job || (job.status !== "queued" && job.status !== "running")) return "skipped";
  const attempt = job.status === "queued" ? (await claimJob(deps.db, jobId, { dead_letter: true }))?.attempt : job.attempts;
  if (attempt === undefined) return "skipped";
  try {
    return await finish(deps, jobId, attempt, { status: "failed", errorClass: "timeout", errorMessage: "worker_lost", durationMs: 0 });
  } catch (error) {
    if (error instanceof SupersededRun) return "superseded";
    throw error;
  }
}
