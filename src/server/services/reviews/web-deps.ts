import type PgBoss from "pg-boss";
import { logger } from "@/server/core/logger";
import { startBoss } from "@/server/queue/boss";
import { reviewSettings } from "@/server/queue/settings";

const globalForBoss = globalThis as unknown as { __reviewBoss?: Promise<PgBoss> };

/** The web app's pg-boss handle (pipeline executions): inserts only (the worker supervises), started on first use. */
export function webBoss(): Promise<PgBoss> {
  if (!globalForBoss.__reviewBoss) {
    const url = process.env.DATABASE_URL ?? "";
    const started = startBoss({ url, settings: reviewSettings(), supervise: false, max: 2, log: logger() });
    started.catch(() => (globalForBoss.__reviewBoss = undefined));
    globalForBoss.__reviewBoss = started;
  }
  return globalForBoss.__reviewBoss;
}
