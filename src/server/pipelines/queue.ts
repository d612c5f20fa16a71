import type PgBoss from "pg-boss";
import { QUEUES } from "@/server/queue/queues";

/** The pg-boss queue the worker takes pipeline executions from (the review engine's instance). */
export const PIPELINE_QUEUE = QUEUES.pipeline;

/** How an execution gets to a worker; the execute service only knows this. */
export interface ExecutionQueue {
  enqueueExecution(executionId: string): Promise<void>;
}

/** A sender on the process's pg-boss instance (the same one that carries scrape jobs and callbacks). */
export function bossExecutionQueue(boss: () => Promise<PgBoss>): ExecutionQueue {
  return {
    async enqueueExecution(executionId) {
      // The singleton key keeps a double submit from queueing the same execution twice.
      await (await boss()).send(PIPELINE_QUEUE, { executionId }, { singletonKey: executionId });
    },
  };
}
