import { z } from "zod";
import { envInt, envPort, ZDatabaseUrl } from "../src/server/core/config";

/** Broker settings (Document 2, "Configuration"); every name and default is listed in the README. */
export const ZBrokerConfig = z.object({
  DATABASE_URL: ZDatabaseUrl,
  BROKER_PORT: envPort(4000),
  BROKER_HOST: z.string().default("0.0.0.0"),
  MAX_CONNECTIONS_PER_MESH: envInt(100, 1, 1_000_000),
  MAX_MESSAGE_BYTES: envInt(65_536, 256, 16 * 1024 * 1024),
  GIT_SHA: z.string().optional(),
  DB_PING_INTERVAL_MS: envInt(5_000, 100, 600_000),
  DB_BACKOFF_INITIAL_MS: envInt(250, 10, 60_000),
  DB_BACKOFF_MAX_MS: envInt(10_000, 100, 600_000),
});
export type TBrokerConfig = z.output<typeof ZBrokerConfig>;
