import { pgBossExecutionQueue, type ExecutionQueue } from "@/server/pipelines/queue";

const holder = globalThis as unknown as { __pipelineQueue?: ExecutionQueue };

/** The queue of this process: set by tests (an in-process runner), pg-boss on DATABASE_URL otherwise. */
export function executionQueue(): ExecutionQueue {
  if (!holder.__pipelineQueue) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is required to queue pipeline executions");
    holder.__pipelineQueue = pgBossExecutionQueue(url);
  }
  return holder.__pipelineQueue;
}

/** Replaces the queue of this process (tests, or a worker that runs executions itself). */
export function setExecutionQueue(queue: ExecutionQueue | undefined): void {
  holder.__pipelineQueue = queue;
}
