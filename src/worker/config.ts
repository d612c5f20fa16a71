import { z } from "zod";
import { envBool, envInt, envPort, ZDatabaseUrl } from "../server/core/config";
import { ZMetricsToken } from "../server/core/metrics-http";

/** CALLBACK_INLINE_MAX's default. */
export const DEFAULT_CALLBACK_INLINE_MAX = 64;

/** Worker settings; every name and default is listed in the README (queue settings: src/server/queue/settings.ts). */
export const ZWorkerConfig = z.object({
  DATABASE_URL: ZDatabaseUrl,
  WORKER_PORT: envPort(4100),
  WORKER_HOST: z.string().default("0.0.0.0"),
  /** Scrape jobs run at once by this process. */
  WORKER_CONCURRENCY: envInt(4, 1, 256),
  /** Callback deliveries attempted at once by this process. */
  CALLBACK_CONCURRENCY: envInt(4, 1, 256),
  /** First callback attempts made at once by the loops that end jobs, beside the delivery loops (docs/review-engine.md). */
  CALLBACK_INLINE_MAX: envInt(DEFAULT_CALLBACK_INLINE_MAX, 0, 4_096),
  /** Key ring that opens sealed callback secrets and review bot keys (the web app's SECRETS_KEYS). */
  SECRETS_KEYS: z.string().min(1, { error: "is required (see docs/secrets.md)" }),
  /**
   * The broker the review bots connect to as peers to send alerts into meshes (docs/mesh-api.md, "Review
   * bot"); unset: the broker on this machine, `ws://127.0.0.1:<BROKER_PORT>` (workerBrokerUrl).
   */
  BROKER_URL: z
    .string()
    .trim()
    .regex(/^wss?:\/\/[^\s]+$/, { error: "must be a ws:// or wss:// URL" })
    .optional(),
  /** The port of the broker on this machine, for BROKER_URL's default (the broker's own setting). */
  BROKER_PORT: envPort(4000),
  GIT_SHA: z.string().optional(),
  /** The web app's public address: alerts link to their evidence there (the web app's PUBLIC_BASE_URL). */
  PUBLIC_BASE_URL: z.url({ error: "must be an absolute URL" }).default("http://localhost:3000"),
  DB_PING_INTERVAL_MS: envInt(5_000, 100, 600_000),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>` (docs/observability.md). */
  METRICS_TOKEN: ZMetricsToken,
  // Pipeline executions (docs/pipelines.md): how many at once, and the optional language-model writer.
  PIPELINE_CONCURRENCY: envInt(1, 1, 16),
  /**
   * How long a claim or a renewal (every JOB_HEARTBEAT_MS) holds an execution: past this unrenewed its worker
   * counts as lost and another worker takes the run over. Longer than a job's lease: a stage's synchronous
   * work holds up the renewals (DEFAULT_EXECUTION_LEASE_MS).
   */
  PIPELINE_STALE_AFTER_MS: envInt(30_000, 1_000, 24 * 3_600_000),
  PIPELINE_LLM_BASE_URL: z.url({ error: "must be a URL like https://api.openai.com/v1" }).optional(),
  PIPELINE_LLM_API_KEY: z.string().optional(),
  PIPELINE_LLM_MODEL: z.string().min(1).default("gpt-4o-mini"),
  PIPELINE_LLM_TIMEOUT_MS: envInt(20_000, 1_000, 300_000),
  /** The model endpoint may be on a loopback or private address (a model on the operator's own network). */
  PIPELINE_LLM_ALLOW_PRIVATE: envBool(false),
  PIPELINE_LLM_CLASSIFY: envBool(false),
  PIPELINE_LLM_BATCH: envInt(20, 1, 100),
  PIPELINE_LLM_REPLIES: envBool(false),
  PIPELINE_LLM_REPLIES_MAX: envInt(50, 1, 1_000),
});
export type TWorkerConfig = z.output<typeof ZWorkerConfig>;

/** The broker the worker's review bots connect to: BROKER_URL, else the broker on this machine. */
export function workerBrokerUrl(config: Pick<TWorkerConfig, "BROKER_URL" | "BROKER_PORT">): string {
  return config.BROKER_URL ?? `ws://127.0.0.1:${config.BROKER_PORT}`;
}
