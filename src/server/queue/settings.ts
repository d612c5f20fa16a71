import { z } from "zod";
import { envBool, envInt, parseConfig } from "../core/config";

/**
 * Settings of the review engine shared by the web app (which enqueues) and the worker (which runs):
 * both must agree on the queue's timeouts and retries. Every name and default is in the README.
 */
export const ZReviewSettings = z.object({
  /**
   * Work queue of jobs, callbacks and pipeline executions (the `queue` column): web processes write it
   * on new rows, workers take only its rows. Worker pools (or test runs) sharing a database keep apart with their own.
   */
  JOB_QUEUE: z
    .string()
    .regex(/^[a-z0-9_-]{1,50}$/, { error: "must be 1-50 lower-case letters, digits, - or _" })
    .default("default"),
  /** A scrape running longer than this is aborted (error class timeout). */
  JOB_TIMEOUT_MS: envInt(120_000, 100, 3_600_000),
  /**
   * How long a claim or a renewal holds a running job (docs/review-engine.md, "Leases"): the live worker
   * renews it every JOB_HEARTBEAT_MS; once it passes unrenewed (the worker died or lost the database),
   * another worker takes the run over. Independent of JOB_TIMEOUT_MS: a slow live run keeps its job.
   */
  JOB_LEASE_MS: envInt(10_000, 500, 600_000),
  /** How often a running job's worker renews its lease (at most a third of JOB_LEASE_MS: a larger value is lowered to it). */
  JOB_HEARTBEAT_MS: envInt(3_000, 50, 200_000),
  /** Added to CALLBACK_TIMEOUT_MS to form a callback attempt's lease: an attempt older than both is made again. */
  JOB_EXPIRE_GRACE_SECONDS: envInt(5, 1, 3_600),
  /** How often a running job's worker looks whether the job was asked to cancel (it aborts within this plus the scraper's next step). */
  JOB_CANCEL_POLL_MS: envInt(1_000, 50, 5_000),
  /** Runs of a job at most (first run plus retries of transient failures or lost workers); of a pipeline execution, runs taken over from lost workers included. */
  JOB_MAX_ATTEMPTS: envInt(3, 1, 20),
  /** Base delay of the queue's retry backoff (delay·2^n with jitter). */
  JOB_RETRY_DELAY_SECONDS: envInt(5, 1, 3_600),
  /** How long an idle worker waits before it looks for due jobs, callbacks and pipeline executions again. */
  WORKER_POLL_MS: envInt(500, 10, 60_000),
  /** Largest batch accepted by POST /api/scrape/platform-reviews/batch. */
  BATCH_MAX_JOBS: envInt(1_000, 1, 100_000),
  /** Shortest interval between a schedule's runs (interval_seconds, and a cron expression's slots are not checked against it). */
  SCHEDULE_MIN_INTERVAL_SECONDS: envInt(60, 1, 86_400),
  /** Requests per minute per API key (token bucket; a key can carry its own value). */
  API_KEY_RATE_PER_MINUTE: envInt(600, 1, 1_000_000),
  /** One callback attempt's time limit, from the lookup to the last byte of the answer. */
  CALLBACK_TIMEOUT_MS: envInt(10_000, 100, 120_000),
  /** Callback attempts at once against one host (host and port) per worker process. */
  CALLBACK_MAX_PER_HOST: envInt(4, 1, 1_000),
  /** First retry delay of a callback; doubles per attempt (with jitter) up to CALLBACK_BACKOFF_MAX_MS. */
  CALLBACK_BACKOFF_BASE_MS: envInt(10_000, 10, 3_600_000),
  CALLBACK_BACKOFF_MAX_MS: envInt(3_600_000, 10, 86_400_000),
  /** A callback not delivered this long after it was created is given up (state failed). */
  CALLBACK_MAX_AGE_MS: envInt(86_400_000, 1_000, 30 * 86_400_000),
  /** Allow callbacks to loopback and private addresses (dev and tests; never in production). */
  CALLBACK_ALLOW_PRIVATE: envBool(false),
  /** A review export whose reader takes nothing for this long (its socket not draining) is cut and its slot freed (web). */
  EXPORT_IDLE_TIMEOUT_MS: envInt(30_000, 100, 600_000),
  /** Base URL of the reviews platform the scrapers talk to (the demo platform locally). */
  DEMO_PLATFORM_URL: z.string().url().default("http://127.0.0.1:4200"),
});
export type TReviewSettings = z.output<typeof ZReviewSettings>;

let cached: TReviewSettings | undefined;

/** The review engine's settings from the environment, parsed once (throws ConfigError naming the variable). */
export function reviewSettings(): TReviewSettings {
  cached ??= parseConfig(ZReviewSettings);
  return cached;
}

/** How long a claim or a renewal holds a job: past this unrenewed the worker counts as lost and another takes the job. */
export function jobLeaseMs(s: TReviewSettings): number {
  return s.JOB_LEASE_MS;
}

/** How often the worker of a running job renews its lease: JOB_HEARTBEAT_MS, at most a third of the lease. */
export function jobHeartbeatMs(s: TReviewSettings): number {
  return Math.max(1, Math.min(s.JOB_HEARTBEAT_MS, Math.floor(s.JOB_LEASE_MS / 3)));
}

/** How long an attempt holds its callback delivery: past this another worker makes the attempt again. */
export function callbackLeaseMs(s: TReviewSettings): number {
  return s.CALLBACK_TIMEOUT_MS + s.JOB_EXPIRE_GRACE_SECONDS * 1000;
}
