import type PgBoss from "pg-boss";
import { waitAtMost } from "../server/core/lifecycle";
import type { Logger } from "../server/core/logger";
import { workDraining } from "../server/queue/drain";
import { QUEUES, type CallbackQueueData, type ScrapeQueueData } from "../server/queue/queues";
import { attemptDelivery } from "../server/services/reviews/callbacks/deliver";
import { InlineDeliveries } from "../server/services/reviews/callbacks/inline";
import type { ReviewDeps } from "../server/services/reviews/deps";
import { failAbandonedJob } from "../server/services/reviews/run-job";
import { DEFAULT_CALLBACK_INLINE_MAX } from "./config";
import { startScrapeLoops } from "./scrape-loops";

/** Concurrency of the worker's queue subscriptions. */
export interface WorkerCounts {
  scrape: number;
  callbacks: number;
  /** First callback attempts made at once by the scrape loops (CALLBACK_INLINE_MAX; 0: all go through the queue). */
  inline?: number;
}

/** The running queue subscriptions. */
export interface QueueWorkers {
  /**
   * Shuts them down in order: the scrape loops take no more jobs and finish the ones they hold, then
   * the boss stops gracefully (its subscriptions finish their jobs), each for up to `graceMs`; then
   * the callback attempts made at once get up to `drainMs` (default CALLBACK_TIMEOUT_MS; a cut one is
   * attempted again from its queue row). Stop other subscriptions on the same boss first.
   */
  close: (opts: { graceMs: number; drainMs?: number }) => Promise<void>;
}

/**
 * Subscribes the worker to its queues: `scrape` slots for scrape jobs (highest priority first;
 * scrape-loops.ts), `callbacks` loops for delivery attempts, one loop for each dead-letter
 * queue. A handler that throws hands the job back to pg-boss, which retries it with its backoff.
 * A job's first callback attempt is made at once by the loop that ended it, up to `inline` attempts
 * at a time (callbacks/inline.ts); the callback loops take the rest and every retry.
 */
export async function startQueueWorkers(boss: PgBoss, base: ReviewDeps, counts: WorkerCounts, log: Logger): Promise<QueueWorkers> {
  const inline = new InlineDeliveries(counts.inline ?? DEFAULT_CALLBACK_INLINE_MAX);
  const deps: ReviewDeps = { ...base, inlineCallbacks: inline };
  const opts = { pollingIntervalSeconds: deps.settings.WORKER_POLL_MS / 1000, priority: true };
  const scrapeLoops = startScrapeLoops(boss, deps, counts.scrape, log);
  for (let i = 0; i < counts.callbacks; i += 1) {
    await workDraining<CallbackQueueData>(boss, QUEUES.callback, opts, async (job) => {
      const state = await attemptDelivery(deps, job.data.deliveryId);
      log.info({ event: "callback_attempt", deliveryId: job.data.deliveryId, state }, "callback attempted");
    });
  }
  await workDraining<ScrapeQueueData>(boss, QUEUES.scrapeDead, opts, async (job) => {
    const outcome = await failAbandonedJob(deps, job.data.jobId, log);
    log.warn({ event: "job_abandoned", jobId: job.data.jobId, outcome }, "queue gave up on a job");
  });
  await workDraining<CallbackQueueData>(boss, QUEUES.callbackDead, opts, async (job) => {
    // The attempt's queue job failed repeatedly (worker lost each time): try the delivery once more.
    const state = await attemptDelivery(deps, job.data.deliveryId);
    log.warn({ event: "callback_dead_letter", deliveryId: job.data.deliveryId, state }, "callback attempt from dead letter");
  });
  return {
    close: async ({ graceMs, drainMs = deps.settings.CALLBACK_TIMEOUT_MS }) => {
      await scrapeLoops.stop(graceMs);
      await boss.stop({ graceful: true, wait: true, timeout: graceMs });
      await waitAtMost(inline.drain(), drainMs);
    },
  };
}
