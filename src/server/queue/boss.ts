import PgBoss from "pg-boss";
import type { Logger } from "../core/logger";
import { QUEUES } from "./queues";
import { jobExpireSeconds, type TReviewSettings } from "./settings";

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

/** Creates and starts pg-boss on DATABASE_URL (its schema `pgboss` is created on first start) and makes the queues. */
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
  await ensureQueues(boss, options.settings);
  return boss;
}

/**
 * The index the scrape loops take rows by (`takeQueueRowCtes`): due rows in the order they are taken,
 * highest priority first, then oldest. pg-boss's own index (name, start_after) makes every take sort all
 * queued rows of the queue, which grows with the queue's depth; this one lets a take read the first row.
 * On the partitioned job table, so every queue's partition has it.
 */
async function ensureTakeIndex(boss: PgBoss, schema: string): Promise<void> {
  const db = boss.getDb();
  try {
    await db.executeSql(`CREATE INDEX IF NOT EXISTS job_take_order ON "${schema}".job (name, priority DESC, created_on, id) WHERE state < 'active'`, []);
  } catch (error) {
    // Another process created it at the same moment.
    const { rows } = await db.executeSql("SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = 'job_take_order'", [schema]);
    if (rows.length === 0) throw error;
  }
}

/** Creates the queues, or updates their retry and expiry settings to the current configuration. */
export async function ensureQueues(boss: PgBoss, s: TReviewSettings): Promise<void> {
  await ensureTakeIndex(boss, s.QUEUE_SCHEMA);
  const expireInSeconds = jobExpireSeconds(s);
  const defs: PgBoss.Queue[] = [
    { name: QUEUES.scrapeDead, retryLimit: 5, retryDelay: 5, retryBackoff: true },
    { name: QUEUES.callbackDead, retryLimit: 5, retryDelay: 5, retryBackoff: true },
    {
      name: QUEUES.scrape,
      // Runs of a job = first run + retries; a lost worker's job counts a run too.
      retryLimit: s.JOB_MAX_ATTEMPTS - 1,
      retryDelay: s.JOB_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      expireInSeconds,
      deadLetter: QUEUES.scrapeDead,
    },
    {
      // One queue job = one delivery attempt; its own retries only cover a worker lost mid-attempt.
      name: QUEUES.callback,
      retryLimit: 20,
      retryDelay: 1,
      retryBackoff: true,
      // A worker lost mid-attempt: the attempt is taken again once its time limit and the grace passed.
      expireInSeconds: Math.ceil(s.CALLBACK_TIMEOUT_MS / 1000) + s.JOB_EXPIRE_GRACE_SECONDS,
      deadLetter: QUEUES.callbackDead,
    },
    {
      // An execution is run once per queue job; a failed one is re-run by the user (a new execution).
      // A lost worker's execution is marked failed by the stale sweep (PIPELINE_STALE_AFTER_MS).
      name: QUEUES.pipeline,
      retryLimit: 0,
      expireInSeconds: 30 * 60,
    },
  ];
  for (const def of defs) {
    const { name } = def;
    const existing = await boss.getQueue(name);
    if (existing) {
      await boss.updateQueue(name, def);
      continue;
    }
    try {
      await boss.createQueue(name, def);
    } catch (error) {
      // Another process created it at the same moment: take its row and update the settings.
      if (!(await boss.getQueue(name))) throw error;
      await boss.updateQueue(name, def);
    }
  }
}
