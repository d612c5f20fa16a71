import type PgBoss from "pg-boss";
import { db } from "@/server/core/db";
import { logger } from "@/server/core/logger";
import { startBoss } from "@/server/queue/boss";
import { reviewSettings } from "@/server/queue/settings";
import { configuredSealer } from "../context";
import type { ReviewDeps } from "./deps";

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

/** Dependencies of the review-engine use cases in the web app. */
export function reviewDeps(): ReviewDeps {
  return { db: db(), sealer: configuredSealer(), settings: reviewSettings() };
}
