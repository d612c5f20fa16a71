import { z } from "zod";
import { envInt, envPort, ZDatabaseUrl } from "../server/core/config";

/** Worker settings; every name and default is listed in the README (queue settings: src/server/queue/settings.ts). */
export const ZWorkerConfig = z.object({
  DATABASE_URL: ZDatabaseUrl,
  WORKER_PORT: envPort(4100),
  WORKER_HOST: z.string().default("0.0.0.0"),
  /** Scrape jobs run at once by this process. */
  WORKER_CONCURRENCY: envInt(4, 1, 256),
  /** Callback deliveries attempted at once by this process. */
  CALLBACK_CONCURRENCY: envInt(4, 1, 256),
  /** Key ring that opens sealed callback secrets (the web app's SECRETS_KEYS). */
  SECRETS_KEYS: z.string().min(1, { error: "is required (see docs/secrets.md)" }),
  GIT_SHA: z.string().optional(),
  DB_PING_INTERVAL_MS: envInt(5_000, 100, 600_000),
});
export type TWorkerConfig = z.output<typeof ZWorkerConfig>;
