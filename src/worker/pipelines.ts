import PgBoss from "pg-boss";
import type { Logger } from "pino";
import { createDb } from "../server/core/db";
import { PIPELINE_QUEUE } from "../server/pipelines/queue";
import { llmWriter, type LlmConfig } from "../server/pipelines/review-analytics/synthesis/llm-writer";
import { failStaleExecutions } from "../server/services/pipelines/fail-stale";
import { runExecution } from "../server/services/pipelines/run-execution";

export interface PipelineWorkerOptions {
  databaseUrl: string;
  log: Logger;
  /** Executions run at once by this process (they are CPU-bound: keep it at the core count or less). */
  concurrency: number;
  /** The language-model writer's endpoint, or null for the deterministic writer only. */
  llm: LlmConfig | null;
  /** A run `running` longer than this is taken as lost with its worker and marked failed. */
  staleAfterMs?: number;
}

/**
 * Takes pipeline executions from the pg-boss queue and runs them. A small pg-boss instance of its
 * own for now; the job queue of the collection engine will share one instance at merge time.
 */
export async function startPipelineWorker(opts: PipelineWorkerOptions): Promise<{ stop(): Promise<void> }> {
  const db = createDb(opts.databaseUrl, { max: 4 });
  const boss = new PgBoss({ connectionString: opts.databaseUrl, max: 4 });
  boss.on("error", (err) => opts.log.warn({ event: "queue_error", err: err.message }, "pipeline queue error"));
  await boss.start();
  await boss.createQueue(PIPELINE_QUEUE);
  const writer = opts.llm ? llmWriter(opts.llm) : null;
  const staleAfterMs = opts.staleAfterMs ?? 30 * 60_000;
  const sweep = async () => {
    try {
      const lost = await failStaleExecutions(db, staleAfterMs);
      if (lost) opts.log.warn({ event: "executions_lost", count: lost }, "running executions of a lost worker marked failed");
    } catch (err) {
      opts.log.warn({ event: "stale_sweep_failed", err: (err as Error).message }, "stale execution sweep failed");
    }
  };
  // The first sweep waits a minute: loading the Prisma query engine blocks the event loop for a
  // moment, which must not happen while the process may be asked to stop right after it started.
  const first = setTimeout(() => void sweep(), 60_000);
  const sweeper = setInterval(() => void sweep(), Math.min(staleAfterMs, 5 * 60_000));
  first.unref();
  sweeper.unref();
  for (let i = 0; i < opts.concurrency; i++) {
    // expireInMinutes of the job (30) matches the default stale time: pg-boss gives up on it then too.
    await boss.work<{ executionId: string }>(PIPELINE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
      if (!job) return;
      const outcome = await runExecution({ db, writer }, job.data.executionId);
      opts.log.info({ event: "execution_done", executionId: job.data.executionId, outcome }, "pipeline execution handled");
    });
  }
  opts.log.info({ event: "pipelines_ready", queue: PIPELINE_QUEUE, concurrency: opts.concurrency, writer: writer ? "llm" : "deterministic" }, "pipeline worker ready");
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(sweeper);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      await db.$disconnect();
    },
  };
}
