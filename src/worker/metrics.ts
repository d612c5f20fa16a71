import { Counter, Gauge, Histogram } from "prom-client";
import { processRegistry } from "../server/core/metrics-http";
import { ScrapeErrorClass } from "../generated/prisma/enums";
import type { AttemptRecord } from "../server/services/reviews/callbacks/attempt-record";
import type { ReviewObserver } from "../server/services/reviews/worker-hooks";
import type { QueueStats } from "../server/services/reviews/queue-stats";
import type { ExecutionObserver } from "../server/services/pipelines/run-execution";

/** What the worker's gauges read at scrape time (each may fail: the gauge then reads -1). */
export interface WorkerGaugeSources {
  queue?: () => Promise<QueueStats>;
  /** Pipeline executions due and waiting for a worker. */
  pipelinesWaiting?: () => Promise<number>;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const RUN_OUTCOMES = new Set(["succeeded", "failed", "cancelled", "retry_later", "superseded", "lease_lost", "error"]);
const ERROR_CLASSES = new Set<string>(Object.values(ScrapeErrorClass));
/** Readings of the database at most this old are served again (many scrapers, one query). */
const GAUGE_TTL_MS = 1_000;

/** A reading that takes longer fails (the gauge reads -1): a scrape never waits on a stuck database. */
const GAUGE_TIMEOUT_MS = 2_000;

/** Reads `read()` at most once per GAUGE_TTL_MS, concurrent callers sharing one reading, each cut at GAUGE_TIMEOUT_MS. */
function memo<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > GAUGE_TTL_MS) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("gauge reading timed out")), GAUGE_TIMEOUT_MS);
        timer.unref();
      });
      const value = Promise.race([read(), late]).finally(() => clearTimeout(timer));
      value.catch(() => {});
      last = { at: Date.now(), value };
    }
    return last.value;
  };
}

/** The worker's metrics (docs/observability.md): jobs, queues, callbacks, pipeline stages. */
export function createWorkerMetrics(sources: WorkerGaugeSources = {}) {
  const { registry, registers, dbUp } = processRegistry("worker_");
  const queue = sources.queue ? memo(sources.queue) : undefined;
  const stats = () => (queue ? queue().catch(() => null) : Promise.resolve(undefined));
  return {
    registry,
    dbUp,
    jobs: new Gauge({
      name: "worker_jobs",
      help: "Jobs of this worker's queue (JOB_QUEUE) by state, queued or running, read at scrape time (counted up to 100000; -1 when unreadable)",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        const s = await stats();
        if (s === undefined) return;
        this.set({ state: "queued" }, s?.queued ?? -1);
        this.set({ state: "running" }, s?.running ?? -1);
      },
    }),
    queueDepth: new Gauge({
      name: "worker_queue_depth",
      help: "Work due now and waiting for a slot, by queue: jobs, callbacks (deliveries due), pipelines (executions due); -1 when unreadable",
      labelNames: ["queue"] as const,
      registers,
      async collect() {
        const s = await stats();
        if (s !== undefined) {
          this.set({ queue: "jobs" }, s?.dueJobs ?? -1);
          this.set({ queue: "callbacks" }, s?.dueCallbacks ?? -1);
        }
        if (sources.pipelinesWaiting)
          this.set({ queue: "pipelines" }, await sources.pipelinesWaiting().catch(() => -1));
      },
    }),
    callbacksPending: new Gauge({
      name: "worker_callbacks_pending",
      help: "Callback deliveries of this worker's queue not yet delivered or given up (retries waiting for their backoff included); -1 when unreadable",
      registers,
      async collect() {
        const s = await stats();
        if (s !== undefined) this.set(s?.pendingCallbacks ?? -1);
      },
    }),
    jobsFinished: new Counter({
      name: "worker_jobs_finished_total",
      help: "Jobs this worker ended, by terminal state and error class (none when succeeded)",
      labelNames: ["state", "error_class"] as const,
      registers,
    }),
    jobRuns: new Counter({
      name: "worker_job_runs_total",
      help: "Runs of jobs by outcome: succeeded, failed, cancelled, retry_later (a transient failure, queued again), superseded (another run holds the job), lease_lost (the run lost its lease and stopped, writing nothing), error (the run threw; logged)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    jobRunSeconds: new Histogram({
      name: "worker_job_run_duration_seconds",
      help: "One run of a job, from its claim to its outcome stored (the scrape and the writes), by outcome",
      labelNames: ["outcome"] as const,
      buckets: SECONDS,
      registers,
    }),
    callbackAttempts: new Counter({
      name: "worker_callback_attempts_total",
      help: "Callback attempts by result (delivered, retry, failed: the delivery's state after it) and response (2xx..5xx, timeout, network, refused, no_secret)",
      labelNames: ["result", "response"] as const,
      registers,
    }),
    callbackSeconds: new Histogram({
      name: "worker_callback_duration_seconds",
      help: "One callback attempt, from the address lookup to the answer's last byte, by result",
      labelNames: ["result"] as const,
      buckets: SECONDS,
      registers,
    }),
    executions: new Counter({
      name: "worker_pipeline_executions_total",
      help: "Pipeline executions this worker ended, by pipeline and status",
      labelNames: ["pipeline", "status"] as const,
      registers,
    }),
    executionSeconds: new Histogram({
      name: "worker_pipeline_execution_duration_seconds",
      help: "One pipeline execution, every stage, by pipeline and status",
      labelNames: ["pipeline", "status"] as const,
      buckets: SECONDS,
      registers,
    }),
    stageSeconds: new Histogram({
      name: "worker_pipeline_stage_duration_seconds",
      help: "One stage of a pipeline execution, by pipeline, stage and status (succeeded, failed)",
      labelNames: ["pipeline", "stage", "status"] as const,
      buckets: SECONDS,
      registers,
    }),
  };
}
export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/** The observer the review services tell of finished jobs (RunHooks.observer). */
export function reviewObserver(m: WorkerMetrics): ReviewObserver {
  return {
    jobFinished: ({ status, errorClass }) => {
      const error = errorClass === null ? "none" : ERROR_CLASSES.has(errorClass) ? errorClass : "other";
      m.jobsFinished.inc({ state: status, error_class: error });
    },
  };
}

/** Counts and times one run of a job (the outcome runClaimedRun returned). */
export function observeJobRun(m: WorkerMetrics, outcome: string, seconds: number): void {
  const label = RUN_OUTCOMES.has(outcome) ? outcome : "other";
  m.jobRuns.inc({ outcome: label });
  m.jobRunSeconds.observe({ outcome: label }, seconds);
}

const NO_ANSWER: Record<string, string> = { timeout: "timeout", network: "network", no_signing_secret: "no_secret" };

/** The answer class of a callback attempt: its status class (`2xx`), or why there was none. */
export function responseOf(record: Pick<AttemptRecord, "status" | "error">): string {
  if (record.status !== null)
    return record.status >= 100 && record.status < 600 ? `${Math.floor(record.status / 100)}xx` : "other";
  const error = record.error ?? "";
  return NO_ANSWER[error] ?? (error.startsWith("destination_refused") ? "refused" : "other");
}

/** Counts and times one callback attempt as recorded. */
export function observeCallbackAttempt(m: WorkerMetrics, record: AttemptRecord): void {
  const result = record.state === "pending" ? "retry" : record.state;
  m.callbackAttempts.inc({ result, response: responseOf(record) });
  m.callbackSeconds.observe({ result }, record.durationMs / 1000);
}

/** The observer pipeline executions tell of their end (RunDeps.observer): stage durations from the stored metrics. */
export function executionObserver(m: WorkerMetrics): ExecutionObserver {
  return {
    executionFinished: ({ pipelineId, status, metrics, totalDurationMs }) => {
      m.executions.inc({ pipeline: pipelineId, status });
      m.executionSeconds.observe({ pipeline: pipelineId, status }, totalDurationMs / 1000);
      for (const [stage, metric] of Object.entries(metrics ?? {})) {
        if ((metric.status === "succeeded" || metric.status === "failed") && metric.duration_ms !== null) {
          m.stageSeconds.observe({ pipeline: pipelineId, stage, status: metric.status }, metric.duration_ms / 1000);
        }
      }
    },
  };
}
