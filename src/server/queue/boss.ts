import PgBoss from "pg-boss";
import type { Logger } from "../core/logger";
import { QUEUES } from "./queues";
import type { TReviewSettings } from "./settings";

export type { PgBoss };

/** Options of one process's queue handle. */
export interface BossOptions {
  url: string;
  settings: TReviewSettings;
  /** Only workers supervise (expire lost jobs, archive); the web app only inserts. */
  supervise: boolean;
  log?: Logger;
  max?: number;
}

/** Creates and starts pg-boss on DATABASE_URL (its schema `pgboss` is created on first start) and makes the pipeline queue. */
export async function startBoss(options: BossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: options.url,
    schema: options.settings.QUEUE_SCHEMA,
    max: options.max ?? 4,
    supervise: options.supervise,
    schedule: false,
    maintenanceIntervalSeconds: options.settings.QUEUE_MAINTENANCE_SECONDS,
  });
  boss.on("error", (err: Error) => options.log?.error({ err }, "queue error"));
  await boss.start();
  await ensureQueues(boss);
  return boss;
}

/** Queues of earlier versions, when jobs and callbacks still ran on pg-boss; dropped with their rows on start. */
const LEGACY_QUEUES = ["scrape-job", "scrape-job-dead", "callback-delivery", "callback-delivery-dead"];

/**
 * Creates the pipeline executions' queue, or updates its settings; drops the queues earlier versions
 * used for jobs and callbacks (those run on the product's own tables now: docs/review-engine.md).
 */
export async function ensureQueues(boss: PgBoss): Promise<void> {
  for (const name of LEGACY_QUEUES) {
    if (await boss.getQueue(name)) await boss.deleteQueue(name).catch(() => {});
  }
  // An execution is run once per queue job; a failed one is re-run by the user (a new execution).
  // A lost worker's execution is marked failed by the stale sweep (PIPELINE_STALE_AFTER_MS).
  const def: PgBoss.Queue = { name: QUEUES.pipeline, retryLimit: 0, expireInSeconds: 30 * 60 };
  if (await boss.getQueue(def.name)) return void (await boss.updateQueue(def.name, def));
  try {
    await boss.createQueue(def.name, def);
  } catch (error) {
    // Another process created it at the same moment: take its row and update the settings.
    if (!(await boss.getQueue(def.name))) throw error;
    await boss.updateQueue(def.name, def);
  }
}
