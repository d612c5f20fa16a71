import type { Logger } from "@/server/core/logger";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";
import { getScraper, ScrapeError, STOP_REASONS, type ScrapeResult, type TScrapeSort } from "@/server/scrapers";
import { platformOrigin } from "@/server/scrapers/platform-origin";
import type { Job } from "@/generated/prisma/client";
import { Prisma, sqlRows } from "@/server/core/db";
import { keepLease, type LeaseKeeper } from "@/server/queue/lease";
import { callbackLeaseMs, jobHeartbeatMs, jobLeaseMs } from "@/server/queue/settings";
import { attemptLoaded } from "./callbacks/deliver";
import { queueScheduleAnalysis } from "../pipelines/schedule-analysis";
import { callbackHost, enqueueBatchCallback, firstJobDelivery } from "./callbacks/enqueue";
import { jobCallbackSecret } from "./callbacks/secrets";
import { backoffMs } from "./callbacks/schedule";
import { renewJobLease, type ClaimedRun } from "./job-claim";
import type { RunHooks } from "./worker-hooks";
import { endBatch, finishedRow, finishJob, requeueJob, type JobOutcome, type Tx } from "./job-states";
import { placeIdOf, type PlaceSeen } from "./place-store";
import { classifyReviews, countChanges, DEFAULT_STOP_AFTER_KNOWN, knownReviews } from "./review-changes";
import { storeJobReviews, uniqueReviews } from "./review-store";

const SORT: Record<Job["sort"], TScrapeSort> = {
  newest: "newest",
  most_relevant: "relevant",
  highest_rating: "highest",
  lowest_rating: "lowest",
};

/** The run being ended: its job as claimed, its attempt, and the API key's sealed callback secret. */
interface RunToEnd {
  job: Job;
  attempt: number;
  apiKeySecretEnc: string | null;
}

/**
 * Ends a run: its reviews, its terminal state, the first delivery of its callback and (for a batch's
 * last job) the batch's end with batch.completed, all or nothing. Without reviews and batch that is
 * one statement. Then the callback's first attempt is made at once when this process has a free slot.
 */
async function finish(
  ctx: ServiceContext<SystemActor>,
  hooks: RunHooks,
  run: RunToEnd,
  outcome: JobOutcome,
  result?: ScrapeResult,
  log?: Logger,
): Promise<string> {
  const s = ctx.settings.review;
  const reviews = result?.reviews ?? [];
  let place: PlaceSeen | null = null;
  if (result) {
    outcome.reviewCount = new Set(reviews.map((r) => r.externalId)).size;
    if (result.placeName) outcome.placeName = result.placeName;
    const source = { platform: run.job.platform, origin: result.origin, placeKey: result.placeKey };
    place = {
      source,
      facts: {
        ...result.facts,
        ...(result.placeName && !result.facts?.name ? { name: result.placeName } : {}),
        platformId: result.platformId,
      },
    };
  }
  outcome.coverage = coverageOf(outcome, result, place);
  const at = ctx.now();
  // The first attempt is made at once when this process has a slot for it and its host has one free.
  const host = run.job.callbackUrl ? callbackHost(run.job.callbackUrl) : "";
  const inline = run.job.callbackUrl ? (hooks.inlineCallbacks?.tryAcquire(host) ?? false) : false;
  const firstDue = inline ? new Date(at.getTime() + callbackLeaseMs(s)) : at;
  const row = finishedRow(run.job, outcome, at);
  const delivery = firstJobDelivery(row, firstDue);
  const write = async (tx: Tx) => {
    if (result && reviews.length > 0) {
      const source = { platform: run.job.platform, origin: result.origin, placeKey: result.placeKey };
      // Compared with the key's earlier jobs before this one's versions are stored.
      outcome.changes = countChanges(
        await classifyReviews(tx, { apiKeyId: run.job.apiKeyId, jobId: run.job.id }, source, uniqueReviews(reviews)),
      );
      await storeJobReviews(tx, run.job.id, source, reviews);
    } else if (result) outcome.changes = { new: 0, updated: 0, unchanged: 0 };
    const done = await finishJob(tx, run, outcome, at, delivery, place);
    // Another run holds the job now: nothing was written (a transaction rolls the reviews back).
    if (!done) throw new SupersededRun();
    if (done.batch && done.batch.open === 0 && !done.batch.completed) {
      const ended = await endBatch(tx, done.batch);
      if (ended) await enqueueBatchCallback(tx, ended.id);
      if (ended?.status === "completed") await queueScheduleAnalysis(tx, ended.id);
    }
    return done.payload;
  };
  let payload: unknown;
  try {
    payload =
      reviews.length > 0 || run.job.batchId
        ? await ctx.db.$transaction(write, { timeout: 60_000 })
        : await write(ctx.db);
  } catch (error) {
    if (inline) hooks.inlineCallbacks?.release();
    throw error;
  }
  hooks.observer?.jobFinished?.({
    status: outcome.status,
    errorClass: outcome.errorClass ?? null,
    durationMs: outcome.durationMs,
  });
  if (inline && hooks.inlineCallbacks) {
    if (!delivery || !row.callbackUrl) hooks.inlineCallbacks.release();
    else {
      const url = row.callbackUrl;
      hooks.inlineCallbacks.run(
        host,
        async (answered) => {
          const secret = jobCallbackSecret(ctx.sealer, run.job, run.apiKeySecretEnc);
          const first = {
            id: delivery.id,
            webhookId: delivery.webhookId,
            url,
            payload: payload as Prisma.JsonValue,
            attempts: 0,
            createdAt: at,
          };
          const state = await attemptLoaded(ctx, first, secret, hooks.recordAttempt, answered);
          log?.info({ event: "callback_attempt", deliveryId: delivery.id, state, inline: true }, "callback attempted");
        },
        (error) =>
          log?.error({ err: error, deliveryId: delivery.id }, "callback attempt failed; the queue attempts it again"),
      );
    }
  }
  return outcome.status;
}

class SupersededRun extends Error {}

/**
 * A job's coverage (docs/review-engine.md, "Places and coverage"): its place, the platform's total,
 * the oldest review reached, and why it stopped: the read's own reason when it ended normally,
 * `cancelled`, or the error class when it is one of the stop reasons (blocked, layout_changed, timeout).
 */
function coverageOf(
  outcome: JobOutcome,
  result: ScrapeResult | undefined,
  place: PlaceSeen | null,
): NonNullable<JobOutcome["coverage"]> {
  let oldest: Date | null = null;
  for (const r of result?.reviews ?? [])
    if (r.publishedAt && (!oldest || r.publishedAt < oldest)) oldest = r.publishedAt;
  const errorClass = outcome.errorClass as string | undefined;
  const stopReason =
    outcome.status === "succeeded"
      ? (result?.stopReason ?? null)
      : outcome.status === "cancelled"
        ? "cancelled"
        : (STOP_REASONS.find((r) => r === errorClass) ?? null);
  return {
    placeRefId: place ? placeIdOf(place.source) : null,
    platformTotal: result?.facts?.reviewCount ?? null,
    oldestReviewAt: oldest,
    stopReason,
  };
}

/**
 * Runs one claimed scrape job (the worker's slots take and claim in one statement, job-claim.ts):
 * scrapes with the routed version under the job timeout, on the version's platform origin only, and
 * records the outcome with its callbacks in one transaction. A transient failure with runs left goes
 * back to queued, due after its backoff. Returns what happened, for logs and tests. `hooks` are what
 * only the worker adds: its first callback attempts made at once, its attempt recorder, its metrics.
 */
export async function runClaimedRun(
  ctx: ServiceContext<SystemActor>,
  run: ClaimedRun,
  hooks: RunHooks,
  log?: Logger,
): Promise<string> {
  const s = ctx.settings.review;
  // The run's lease, renewed while it lives (docs/review-engine.md, "Leases"); once lost, the run stops
  // and writes nothing (its writes are fenced on its attempt besides): another worker takes it over.
  const lease = keepLease({
    renew: () => renewJobLease(ctx, run, jobLeaseMs(s)),
    leaseMs: jobLeaseMs(s),
    heartbeatMs: jobHeartbeatMs(s),
    claimedAt: run.claimedAt,
    onRenewError: (error) => log?.warn({ err: error, jobId: run.job.id }, "renewing a run's lease failed"),
  });
  try {
    return await runClaimed(ctx, hooks, run, lease, log);
  } catch (error) {
    // Its end reached the database and was refused (fenced): another run holds the job.
    if (error instanceof SupersededRun) return "superseded";
    // A run cut off from the database: its writes failed or never left, and another worker takes it over.
    if (lease.lost) return "lease_lost";
    throw error;
  } finally {
    lease.stop();
  }
}

async function runClaimed(
  ctx: ServiceContext<SystemActor>,
  hooks: RunHooks,
  run: ClaimedRun,
  lease: LeaseKeeper,
  log?: Logger,
): Promise<string> {
  const s = ctx.settings.review;
  const jobId = run.job.id;
  const job = run.job;
  const started = Date.now();
  const fail = (errorClass: JobOutcome["errorClass"], errorMessage: string) =>
    finish(
      ctx,
      hooks,
      run,
      { status: "failed", errorClass, errorMessage, durationMs: Date.now() - started },
      undefined,
      log,
    );
  // Runs allowed: JOB_MAX_ATTEMPTS, raised by each retry (attempt_limit).
  const limit = job.attemptLimit ?? s.JOB_MAX_ATTEMPTS;
  // Past the last run: a run that was lost (its worker died each time) or otherwise exhausted.
  if (run.attempt > limit) return fail("timeout", run.from === "running" ? "worker_lost" : "attempts_exhausted");
  const scraper = run.implementation ? getScraper(run.implementation) : undefined;
  if (!scraper) return fail("internal", "scraper_unavailable");
  // A cancel request (POST /api/jobs/{id}/cancel) aborts the scrape: the run polls for it.
  const cancel = new AbortController();
  const poll = setInterval(() => {
    sqlRows<{ asked: boolean }>(
      ctx.db,
      Prisma.sql`SELECT cancel_requested_at IS NOT NULL AS asked FROM jobs WHERE id = ${jobId}::uuid AND attempts = ${run.attempt}::int`,
    ).then(
      (rows) => {
        if (rows[0]?.asked) cancel.abort(new ScrapeError("cancelled", "cancelled_by_client"));
      },
      () => undefined, // the database blinked: asked again at the next tick
    );
  }, s.JOB_CANCEL_POLL_MS);
  let sofar: ScrapeResult | undefined;
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
      {
        signal: AbortSignal.any([cancel.signal, lease.signal, AbortSignal.timeout(s.JOB_TIMEOUT_MS)]),
        platformUrl: platformOrigin(run.config, s.DEMO_PLATFORM_URL),
        onReviews: (read) => (sofar = read),
        ...(job.mode === "new_only"
          ? {
              known: knownReviews(
                ctx.db,
                { apiKeyId: job.apiKeyId, jobId },
                job.platform,
                job.stopAfterKnown ?? DEFAULT_STOP_AFTER_KNOWN,
              ),
            }
          : {}),
      },
    );
  } catch (error) {
    // The lease was lost (the run was stopped, or another worker holds it): nothing is written.
    if (lease.lost) return "lease_lost";
    if (!(error instanceof ScrapeError)) {
      log?.error({ err: error, jobId }, "scraper failed unexpectedly");
      return fail("internal", "internal_error");
    }
    // Cancelled: the run ends cancelled with the reviews it had read.
    if (error.errorClass === "cancelled") {
      return finish(
        ctx,
        hooks,
        run,
        {
          status: "cancelled",
          errorClass: "cancelled",
          errorMessage: "cancelled_by_client",
          durationMs: Date.now() - started,
        },
        sofar,
        log,
      );
    }
    if (error.transient && run.attempt < limit) {
      const detail = { error_class: error.errorClass, message: error.message.slice(0, 500) };
      // The backoff, or longer when the platform said when to come back (Retry-After).
      const delay = Math.max(
        backoffMs(run.attempt, s.JOB_RETRY_DELAY_SECONDS * 1000, 3_600_000, ctx.random),
        (error.retryAfterSeconds ?? 0) * 1000,
      );
      const runAfter = new Date(Date.now() + delay);
      if (await ctx.db.$transaction((tx) => requeueJob(tx, jobId, run.attempt, runAfter, detail))) return "retry_later";
      // Not requeued: another run holds the job, or a cancel was asked meanwhile (this run ends it cancelled).
      const now = await ctx.db.job.findUnique({
        where: { id: jobId },
        select: { status: true, attempts: true, cancelRequestedAt: true },
      });
      if (now?.status !== "running" || now.attempts !== run.attempt || !now.cancelRequestedAt) return "superseded";
      return finish(
        ctx,
        hooks,
        run,
        {
          status: "cancelled",
          errorClass: "cancelled",
          errorMessage: "cancelled_by_client",
          durationMs: Date.now() - started,
        },
        sofar,
        log,
      );
    }
    return fail(error.errorClass, error.message.slice(0, 500));
  } finally {
    clearInterval(poll);
  }
  if (lease.lost) return "lease_lost";
  return finish(ctx, hooks, run, { status: "succeeded", durationMs: Date.now() - started }, result, log);
}
