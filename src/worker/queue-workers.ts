import type PgBoss from "pg-boss";
import type { Logger } from "../server/core/logger";
import { workDraining } from "../server/queue/drain";
import { QUEUES, type CallbackQueueData, type ScrapeQueueData } from "../server/queue/queues";
import { attemptDelivery } from "../server/services/reviews/callbacks/deliver";
import { InlineDeliveries } from "../server/services/reviews/callbacks/inline";
import type { ReviewDeps } from "../server/services/reviews/deps";
import { failAbandonedJob, runScrapeJob } from "../server/services/reviews/run-job";

/** Concurrency of the worker's queue subscriptions. */
export interface WorkerCounts {
  scrape: number;
  callbacks: number;
}

/** The running queue subscriptions: `drain()` waits for callback attempts made at once (shutdown). */
export interface QueueWorkers {
  drain: () => Promise<void>;
}

/**
 * Subscribes the worker to its queues: `scrape` loops for scrape jobs (each takes one job at a time,
 * highest priority first), `callbacks` loops for delivery attempts, one loop for each dead-letter
 * queue. A handler that throws hands the job back to pg-boss, which retries it with its backoff.
 * A job's first callback attempt is made at once by the loop that ended it, up to `callbacks`
 * attempts at a time (callbacks/inline.ts); the callback loops take the rest and every retry.
 */
export async function startQueueWorkers(boss: PgBoss, base: ReviewDeps, counts: WorkerCounts, log: Logger): Promise<QueueWorkers> {
  const inline = new InlineDeliveries(counts.callbacks);
  const deps: ReviewDeps = { ...base, inlineCallbacks: inline };
  const opts = { pollingIntervalSeconds: deps.settings.WORKER_POLL_MS / 1000, priority: true };
  for (let i = 0; i < counts.scrape; i += 1) {
    await workDraining<ScrapeQueueData>(boss, QUEUES.scrape, opts, async (job) => {
      const outcome = await runScrapeJob(deps, job.data.jobId, log, job.id);
      log.info({ event: "job_run", jobId: job.data.jobId, outcome }, "scrape job ran");
    });
  }
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
  return { drain: () => inline.drain() };
}
