import PgBoss from "pg-boss";

/** The pg-boss queue the worker takes pipeline executions from. */
export const PIPELINE_QUEUE = "pipeline-execution";

/** How an execution gets to a worker; the execute service only knows this. */
export interface ExecutionQueue {
  enqueueExecution(executionId: string): Promise<void>;
}

/** A sender on pg-boss: starts its own small instance on first use (no maintenance, no cron). */
export function pgBossExecutionQueue(connectionString: string): ExecutionQueue & { stop(): Promise<void> } {
  let started: Promise<PgBoss> | undefined;
  const boss = () =>
    (started ??= (async () => {
      const instance = new PgBoss({ connectionString, max: 2, supervise: false, schedule: false });
      instance.on("error", () => {}); // connection errors surface on send; the instance reconnects
      await instance.start();
      await instance.createQueue(PIPELINE_QUEUE);
      return instance;
    })().catch((error: unknown) => {
      started = undefined;
      throw error;
    }));
  return {
    async enqueueExecution(executionId) {
      // The singleton key keeps a double submit from queueing the same execution twice.
      await (await boss()).send(PIPELINE_QUEUE, { executionId }, { singletonKey: executionId, retryLimit: 0, expireInMinutes: 30 });
    },
    async stop() {
      if (started) await (await started).stop({ graceful: false, wait: true });
    },
  };
}
