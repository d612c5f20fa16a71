/** Queue names of the review engine and the pipelines engine (pg-boss queues, one instance per process). */
export const QUEUES = {
  scrape: "scrape-job",
  scrapeDead: "scrape-job-dead",
  callback: "callback-delivery",
  callbackDead: "callback-delivery-dead",
  pipeline: "pipeline-execution",
} as const;

export type TQueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Payload of a scrape queue job: the job row is the truth, the queue only carries its id. */
export interface ScrapeQueueData {
  jobId: string;
}

/** Payload of a callback queue job: one delivery attempt of the named delivery row. */
export interface CallbackQueueData {
  deliveryId: string;
}
