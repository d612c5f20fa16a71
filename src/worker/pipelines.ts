import type PgBoss from "pg-boss";
import type { Db } from "../server/core/db";
import type { Logger } from "../server/core/logger";
import { PIPELINE_QUEUE } from "../server/pipelines/queue";
import { llmClassifier } from "../server/pipelines/review-analytics/model-classifier";
import type { LlmConfig } from "../server/pipelines/review-analytics/llm-chat";
import { llmWriter } from "../server/pipelines/review-analytics/synthesis/llm-writer";
import { failStaleExecutions } from "../server/services/pipelines/fail-stale";
import { runExecution, type ExecutionObserver } from "../server/services/pipelines/run-execution";

export interface PipelineWorkerOptions {
  /** The process's pg-boss instance, shared with scrape jobs and callbacks (its queues already made). */
  boss: PgBoss;
  db: Db;
  log: Logger;
  /** Executions run at once by this process (they are CPU-bound: keep it at the core count or less). */
  concurrency: number;
  /** The language-model writer's endpoint, or null for the deterministic writer only. */
  llm: LlmConfig | null;
  /** Whether the classify stage asks the language model too (PIPELINE_LLM_CLASSIFY), and its batch size. */
  llmClassify?: { batchSize: number } | null;
  /** A run `running` longer than this is taken as lost with its worker and marked failed. */
  staleAfterMs?: number;
  /** Told when an execution ends (the worker's metrics). */
  observer?: ExecutionObserver;
}

/** Takes pipeline executions from the shared pg-boss queue and runs them; sweeps runs of lost workers. */
export async function startPipelineWorker(opts: PipelineWorkerOptions): Promise<{ stop(): void }> {
  const { boss, db, log } = opts;
  const writer = opts.llm ? llmWriter(opts.llm) : null;
  // One classifier per process: its cache of answers by text hash serves every run.
  const classifier =
    opts.llm && opts.llmClassify ? llmClassifier(opts.llm, { batchSize: opts.llmClassify.batchSize }) : null;
  const staleAfterMs = opts.staleAfterMs ?? 30 * 60_000;
  const sweep = async () => {
    try {
      const lost = await failStaleExecutions(db, staleAfterMs);
      if (lost)
        log.warn({ event: "executions_lost", count: lost }, "running executions of a lost worker marked failed");
    } catch (err) {
      log.warn({ event: "stale_sweep_failed", err: (err as Error).message }, "stale execution sweep failed");
    }
  };
  // The first sweep waits a minute: loading the Prisma query engine blocks the event loop for a
  // moment, which must not happen while the process may be asked to stop right after it started.
  const first = setTimeout(() => void sweep(), 60_000);
  const sweeper = setInterval(() => void sweep(), Math.min(staleAfterMs, 5 * 60_000));
  first.unref();
  sweeper.unref();
  for (let i = 0; i < opts.concurrency; i++) {
    await boss.work<{ executionId: string }>(
      PIPELINE_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 1 },
      async ([job]) => {
        if (!job) return;
        const outcome = await runExecution(
          { db, writer, classifier, ...(opts.observer ? { observer: opts.observer } : {}) },
          job.data.executionId,
        );
        log.info({ event: "execution_done", executionId: job.data.executionId, outcome }, "pipeline execution handled");
      },
    );
  }
  log.info(
    {
      event: "pipelines_ready",
      queue: PIPELINE_QUEUE,
      concurrency: opts.concurrency,
      writer: writer ? "llm" : "deterministic",
      classifier: classifier ? "llm" : "rules",
    },
    "pipeline worker ready",
  );
  return {
    // The boss is stopped by its owner (graceful: running executions finish or expire).
    stop() {
      clearTimeout(first);
      clearInterval(sweeper);
    },
  };
}
