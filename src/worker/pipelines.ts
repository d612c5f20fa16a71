import type { Logger } from "../server/core/logger";
import type { PipelineDefinition } from "../server/pipelines/types";
import { llmClassifier } from "../server/pipelines/review-analytics/model-classifier";
import type { LlmConfig } from "../server/pipelines/review-analytics/llm-chat";
import { llmReplyWriter } from "../server/pipelines/review-analytics/replies/llm-replies";
import { llmWriter } from "../server/pipelines/review-analytics/synthesis/llm-writer";
import type { SystemActor } from "../server/services/actor";
import type { ServiceContext } from "../server/services/context";
import {
  runClaimedExecution,
  type ExecutionObserver,
  type ExecutionRunner,
} from "../server/services/pipelines/run-execution";
import {
  DEFAULT_EXECUTION_LEASE_MS,
  renewExecutionLease,
  takeExecutions,
  type ClaimedExecution,
} from "../server/services/pipelines/take-executions";
import { keepLease } from "../server/queue/lease";
import { startSlots, type Slots } from "./slots";

export interface PipelineWorkerOptions {
  log: Logger;
  /** Executions run at once by this process (they are CPU-bound: keep it at the core count or less). */
  concurrency: number;
  /** The language-model writer's endpoint, or null for the deterministic writer only. */
  llm: LlmConfig | null;
  /** Whether the classify stage asks the language model too (PIPELINE_LLM_CLASSIFY), and its batch size. */
  llmClassify?: { batchSize: number } | null;
  /** Whether reply drafts are written by the language model (PIPELINE_LLM_REPLIES), and how many per run. */
  llmReplies?: { max: number } | null;
  /** How long a claim or a renewal holds an execution (PIPELINE_STALE_AFTER_MS): past this unrenewed its worker counts as lost. */
  leaseMs?: number;
  /** Told when an execution ends (the worker's metrics). */
  observer?: ExecutionObserver;
  /** The pipelines it runs (tests; the product's registry by default). */
  registry?: readonly PipelineDefinition[];
}

/**
 * Takes pipeline executions from the product's own queue (the settings' JOB_QUEUE, as jobs and
 * callbacks; docs/pipelines.md, "Queue") in `concurrency` slots and runs them. A run whose worker died
 * is taken over once its lease passes, up to JOB_MAX_ATTEMPTS runs, then failed (`worker_lost`).
 */
export function startPipelineWorker(ctx: ServiceContext<SystemActor>, opts: PipelineWorkerOptions): Slots {
  const { log } = opts;
  const s = ctx.settings.review;
  const writer = opts.llm ? llmWriter(opts.llm) : null;
  // One classifier per process: its cache of answers by text hash serves every run.
  const classifier =
    opts.llm && opts.llmClassify ? llmClassifier(opts.llm, { batchSize: opts.llmClassify.batchSize }) : null;
  const replyModel =
    opts.llm && opts.llmReplies ? { writer: llmReplyWriter(opts.llm), max: opts.llmReplies.max } : null;
  const runner: ExecutionRunner = {
    writer,
    classifier,
    replyModel,
    ...(opts.observer ? { observer: opts.observer } : {}),
    ...(opts.registry ? { registry: opts.registry } : {}),
  };
  const leaseMs = opts.leaseMs ?? DEFAULT_EXECUTION_LEASE_MS;
  // Renewed as a job's lease is (docs/pipelines.md, "Queue"), at most three times a lease.
  const heartbeatMs = Math.max(1, Math.min(s.JOB_HEARTBEAT_MS, Math.floor(leaseMs / 3)));
  const slots = startSlots<ClaimedExecution & { claimedAt: number }>(
    {
      name: "pipelines",
      take: async (n) => {
        const claimedAt = performance.now();
        const taken = await takeExecutions(ctx, { limit: n, leaseMs });
        if (taken.givenUp)
          log.warn(
            { event: "executions_lost", count: taken.givenUp },
            "running executions of a lost worker marked failed",
          );
        return taken.claimed.map((c) => ({ ...c, claimedAt }));
      },
      run: async ({ claimedAt, ...claimed }) => {
        // The stages take no signal: a run that lost its lease goes on, but its writes are refused (fenced on its run).
        const lease = keepLease({
          renew: () => renewExecutionLease(ctx, { run: claimed, leaseMs }),
          leaseMs,
          heartbeatMs,
          claimedAt,
          onRenewError: (error) =>
            log.warn({ err: error, executionId: claimed.id }, "renewing an execution's lease failed"),
        });
        let outcome: Awaited<ReturnType<typeof runClaimedExecution>>;
        try {
          outcome = await runClaimedExecution(ctx, claimed, runner);
        } finally {
          lease.stop();
        }
        log.info(
          {
            event: "execution_done",
            executionId: claimed.id,
            run: claimed.runs,
            recovered: claimed.recovered,
            outcome,
            leaseLost: lease.lost,
          },
          "pipeline execution handled",
        );
      },
    },
    opts.concurrency,
    s.WORKER_POLL_MS,
    log,
  );
  log.info(
    {
      event: "pipelines_ready",
      queue: s.JOB_QUEUE,
      concurrency: opts.concurrency,
      writer: writer ? "llm" : "deterministic",
      classifier: classifier ? "llm" : "rules",
    },
    "pipeline worker ready",
  );
  return slots;
}
