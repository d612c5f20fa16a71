/** Queue names on pg-boss (one instance per process): only the pipeline executions run there. */
export const QUEUES = {
  pipeline: "pipeline-execution",
} as const;

export type TQueueName = (typeof QUEUES)[keyof typeof QUEUES];
