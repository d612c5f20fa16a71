import { bossExecutionQueue, type ExecutionQueue } from "@/server/pipelines/queue";
import { webBoss } from "../reviews/web-deps";

const holder = globalThis as unknown as { __pipelineQueue?: ExecutionQueue };

/** The queue of this process: set by tests (an in-process runner), the web app's pg-boss otherwise. */
export function executionQueue(): ExecutionQueue {
  holder.__pipelineQueue ??= bossExecutionQueue(webBoss);
  return holder.__pipelineQueue;
}

/** Replaces the queue of this process (tests, or a worker that runs executions itself). */
export function setExecutionQueue(queue: ExecutionQueue | undefined): void {
  holder.__pipelineQueue = queue;
}
