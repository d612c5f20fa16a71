// The web process's own settings (src/web/server.ts), apart from the app's (src/server/env.ts): a
// module of its own so the deployment kit's tests can read them without starting the server.
import { z } from "zod";
import { ZTrustProxy } from "../server/core/client-address";
import { envInt, envPort, ZDatabaseUrl } from "../server/core/config";
import { ZMetricsToken } from "../server/core/metrics-http";
import { DEFAULT_MAX_REQUEST_BYTES } from "../server/http/body-limit";

export const ZWebServerConfig = z.object({
  PORT: envPort(3000),
  HOST: z.string().default("0.0.0.0"),
  MAX_REQUEST_BYTES: envInt(DEFAULT_MAX_REQUEST_BYTES, 1024, 64 * 1024 * 1024),
  TRUST_PROXY: ZTrustProxy,
  DATABASE_URL: ZDatabaseUrl,
  DB_PING_INTERVAL_MS: envInt(5_000, 100, 600_000),
  METRICS_TOKEN: ZMetricsToken,
  /** The broker the chat page connects to (the app's PUBLIC_BROKER_URL): allowed by the pages' connect-src. */
  PUBLIC_BROKER_URL: z
    .string()
    .regex(/^wss?:\/\/[^|\s]+$/, { error: "must be a ws:// or wss:// URL" })
    .default("ws://localhost:4000"),
});
