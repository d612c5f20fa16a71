import { z } from "zod";
import { envInt, envPort, ZDatabaseUrl } from "../server/core/config";

/** Worker settings; every name and default is listed in the README. */
export const ZWorkerConfig = z.object({
  DATABASE_URL: ZDatabaseUrl,
  WORKER_PORT: envPort(4100),
  WORKER_HOST: z.string().default("0.0.0.0"),
  WORKER_CONCURRENCY: envInt(4, 1, 256),
  GIT_SHA: z.string().optional(),
  DB_PING_INTERVAL_MS: envInt(5_000, 100, 600_000),
});
export type TWorkerConfig = z.output<typeof ZWorkerConfig>;
