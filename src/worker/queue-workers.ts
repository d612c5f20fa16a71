import { Batcher } from "../server/core/batcher";
import { waitAtMost } from "../server/core/lifecycle";
import type { Logger } from "../server/core/logger";
import { callbackLeaseMs, jobLeaseMs } from "../server/queue/settings";
import type { SystemActor } from "../server/services/actor";
import type { ServiceContext } from "../server/services/context";
import type { AttemptRecord } from "../server/services/reviews/callbacks/attempt-record";
import { attemptLoaded, recordAttempts } from "../server/services/reviews/callbacks/deliver";
import { HostSlots, InlineDeliveries } from "../server/services/reviews/callbacks/inline";
import { giveBackDelivery, takeDeliveries, type TakenDelivery } from "../server/services/reviews/callbacks/take";
import {
  attemptAlertDelivery,
  takeAlertDeliveries,
  type AlertDeliveryDeps,
  type TakenAlertDelivery,
} from "../server/services/alerts/deliver-alerts";
import { takeAndClaim, type ClaimedRun } from "../server/services/reviews/job-claim";
import { runClaimedRun } from "../server/services/reviews/run-job";
import { runDueSchedules, type ScheduleRun } from "../server/services/reviews/schedule-runner";
import type { RunHooks } from "../server/services/reviews/worker-hooks";
import { DEFAULT_CALLBACK_INLINE_MAX } from "./config";
import { observeCallbackAttempt, observeJobRun, reviewObserver, type WorkerMetrics } from "./metrics";
import { startSlots } from "./slots";

/** Concurrency of the worker's queues. */
export interface WorkerCounts {
  scrape: number;
  callbacks: number;
  /** First callback attempts made at once by the scrape slots (CALLBACK_INLINE_MAX; 0: all go through the delivery slots). */
  inline?: number;
}

/** Alert deliveries (webhook, e-mail, mesh) attempted at once by this process. */
const ALERT_SLOTS = 2;

/** The running slots of the worker. */
export interface QueueWorkers {
  /**
   * Shuts them down in order: the scrape slots take no more jobs and finish the ones they hold (up to
   * `graceMs`), then the delivery slots and the first attempts made at once get up to `drainMs`
   * (default CALLBACK_TIMEOUT_MS and a second to record). Anything cut is taken again once its lease passes.
   */
  close: (opts: { graceMs: number; drainMs?: number }) => Promise<void>;
  /** Whether every queue loop still looks for work (readiness). */
  readonly running: boolean;
}

/**
 * Starts the worker's queues on the product's own tables (docs/review-engine.md, "Queue"):
 * `scrape` slots for jobs (highest priority first) and `callbacks` slots for delivery attempts (at
 * most CALLBACK_MAX_PER_HOST at once per host). A job's first callback attempt is made at once by the
 * slot that ended it, up to `inline` attempts at a time; the delivery slots take the rest and every retry.
 * One `schedules` slot turns due monitoring slots into batches. With `metrics`, runs, finished jobs and
 * callback attempts are counted and timed there. Every service is called with `ctx` (the system's).
 */
export function startQueueWorkers(
  ctx: ServiceContext<SystemActor>,
  counts: WorkerCounts,
  log: Logger,
  metrics?: WorkerMetrics,
  /** How alerts go out; without it this process delivers none (other workers of the queue do). */
  alertDeps?: AlertDeliveryDeps,
): QueueWorkers {
  const s = ctx.settings.review;
  const hosts = new HostSlots(s.CALLBACK_MAX_PER_HOST);
  const inline = new InlineDeliveries(counts.inline ?? DEFAULT_CALLBACK_INLINE_MAX, hosts);
  // Attempts that end while a record is being written are recorded together by the next statement.
  const records = new Batcher<AttemptRecord, void>(
    async (items) => {
      await recordAttempts(ctx, items);
      return items.map(() => undefined);
    },
    { waitMs: 1, max: 500 },
  );
  const recordAttempt = (r: AttemptRecord) => {
    if (metrics) observeCallbackAttempt(metrics, r);
    return records.add(r);
  };
  const hooks: RunHooks = {
    inlineCallbacks: inline,
    recordAttempt,
    observer: metrics ? reviewObserver(metrics) : null,
  };
  const scrape = startSlots<ClaimedRun>(
    {
      name: "scrape",
      take: (n) => takeAndClaim(ctx, { queue: s.JOB_QUEUE, leaseMs: jobLeaseMs(s), limit: n }),
      run: async (run) => {
        const started = performance.now();
        let outcome = "error";
        try {
          outcome = await runClaimedRun(ctx, run, hooks, log);
        } finally {
          if (metrics) observeJobRun(metrics, outcome, (performance.now() - started) / 1000);
        }
        log.info({ event: "job_run", jobId: run.job.id, attempt: run.attempt, outcome }, "scrape job ran");
      },
    },
    counts.scrape,
    s.WORKER_POLL_MS,
    log,
  );
  // Monitoring schedules: a due slot becomes a batch of jobs (one slot, one batch, whichever worker takes it).
  const schedules = startSlots<ScheduleRun>(
    {
      name: "schedules",
      take: (n) => runDueSchedules(ctx, { max: n }),
      run: async (r) => {
        if (r.error)
          log.warn(
            { event: "schedule_run", scheduleId: r.scheduleId, slot: r.slot, error: r.error },
            "schedule slot made no batch",
          );
        else
          log.info(
            { event: "schedule_run", scheduleId: r.scheduleId, slot: r.slot, batchId: r.batchId },
            "schedule ran",
          );
      },
    },
    1,
    s.WORKER_POLL_MS,
    log,
  );
  // Whether the last take left out a full host: only then may a freed slot have due deliveries waiting.
  let fullHostsAtTake = false;
  const callbacks = startSlots<TakenDelivery>(
    {
      name: "callbacks",
      take: (n) => {
        const free = hosts.free();
        fullHostsAtTake = Object.values(free).some((f) => f === 0);
        return takeDeliveries(ctx, {
          queue: s.JOB_QUEUE,
          leaseMs: callbackLeaseMs(s),
          perHost: hosts.perHost,
          free,
          limit: n,
        });
      },
      run: async ({ delivery, host, secret }) => {
        // A first attempt made at once may have filled the host since the take: hand the delivery back.
        if (!hosts.tryAcquire(host)) return giveBackDelivery(ctx, delivery);
        let held = true;
        const answered = () => {
          if (held) hosts.release(host);
          held = false;
        };
        try {
          const state = await attemptLoaded(ctx, delivery, secret, recordAttempt, answered);
          log.info(
            { event: "callback_attempt", deliveryId: delivery.id, attempt: delivery.attempts + 1, state },
            "callback attempted",
          );
        } finally {
          answered();
        }
      },
    },
    counts.callbacks,
    s.WORKER_POLL_MS,
    log,
  );
  // Alerts of the alert rules (docs/review-engine.md, "Alerts"): their delivery rows are their queue.
  const alerts = alertDeps
    ? startSlots<TakenAlertDelivery>(
        {
          name: "alerts",
          take: (n) => takeAlertDeliveries(ctx, { queue: s.JOB_QUEUE, leaseMs: callbackLeaseMs(s), limit: n }),
          run: async (d) => {
            const state = await attemptAlertDelivery(ctx, d, alertDeps);
            log.info(
              { event: "alert_attempt", deliveryId: d.id, channel: d.channel, attempt: d.attempts + 1, state },
              "alert delivery attempted",
            );
          },
        },
        ALERT_SLOTS,
        s.WORKER_POLL_MS,
        log,
      )
    : null;
  // A host with a free slot again may have due deliveries the last take left for it.
  hosts.onRelease = () => {
    if (fullHostsAtTake) callbacks.wake();
  };
  return {
    get running() {
      return scrape.running && schedules.running && callbacks.running && (alerts?.running ?? true);
    },
    close: async ({ graceMs, drainMs = s.CALLBACK_TIMEOUT_MS + 1_000 }) => {
      await Promise.all([schedules.stop(graceMs), scrape.stop(graceMs)]);
      await Promise.all([
        callbacks.stop(drainMs),
        alerts?.stop(drainMs) ?? Promise.resolve(),
        waitAtMost(inline.drain(), drainMs),
      ]);
      await waitAtMost(records.drain(), 2_000);
    },
  };
}
