import { loadConfigOrExit } from "../server/core/config";
import { PROJECT_ROOT } from "../server/core/project-root";
import { DbMonitor } from "../server/core/db-monitor";
import { resolveGitSha } from "../server/core/git-sha";
import { onShutdown } from "../server/core/lifecycle";
import { createLogger } from "../server/core/logger";
import { isProductionEnv, metricsAccess } from "../server/core/metrics-http";
import { Readiness } from "../server/core/readiness";
import { APP_VERSION } from "../server/core/version";
import { createDb } from "../server/core/db";
import { jobLeaseMs, ZReviewSettings } from "../server/queue/settings";
import { mailer } from "../server/mail/transport";
import { reviewBotSender } from "../server/services/alerts/mesh-sender";
import { closeScrapers } from "../server/scrapers";
import { sealerOf } from "../server/services/context";
import { executionsWaiting } from "../server/services/pipelines/take-executions";
import { queueStats } from "../server/services/reviews/queue-stats";
import { reviewSystemContext } from "../server/services/reviews/system-context";
import { workerBrokerUrl, ZWorkerConfig } from "./config";
import { createWorkerHttp } from "./http";
import { createWorkerMetrics, executionObserver } from "./metrics";
import { startQueueWorkers } from "./queue-workers";
import { startPipelineWorker } from "./pipelines";

const config = loadConfigOrExit(ZWorkerConfig, "worker");
const settings = loadConfigOrExit(ZReviewSettings, "worker");
const log = createLogger("worker");
const gitSha = resolveGitSha(PROJECT_ROOT);
const startedAt = Date.now();
// The gauges read the queue tables at scrape time (they exist by the time the port listens).
const metrics = createWorkerMetrics({
  queue: () => queueStats(ctx, { queue: settings.JOB_QUEUE }),
  pipelinesWaiting: () => executionsWaiting(ctx),
});
const monitor = new DbMonitor({
  url: config.DATABASE_URL,
  intervalMs: config.DB_PING_INTERVAL_MS,
  onChange: (up) => {
    metrics.dbUp.set(up ? 1 : 0);
    log[up ? "info" : "warn"]({ event: up ? "db_up" : "db_down" }, "database state changed");
  },
});
await monitor.start();
// Jobs, callbacks and pipeline executions: the product's own tables are the queue (docs/review-engine.md,
// "Queue"; docs/pipelines.md, "Queue").
// A transaction of this worker cut off by the network (its locks would hide its job from the takeover,
// which skips locked rows) is ended by PostgreSQL once idle for a lease (docs/review-engine.md, "Leases").
const db = createDb(config.DATABASE_URL, {
  max: config.WORKER_CONCURRENCY + config.CALLBACK_CONCURRENCY + config.PIPELINE_CONCURRENCY + 2,
  idleInTransactionMs: jobLeaseMs(settings),
});
// The system's context of every service the worker's loops call (jobs, callbacks, pipeline executions).
const ctx = reviewSystemContext({
  db,
  sealer: sealerOf(config.SECRETS_KEYS),
  review: settings,
  brokerUrl: workerBrokerUrl(config),
});
const queueWorkers = startQueueWorkers(
  ctx,
  { scrape: config.WORKER_CONCURRENCY, callbacks: config.CALLBACK_CONCURRENCY, inline: config.CALLBACK_INLINE_MAX },
  log,
  metrics,
  // Alerts: e-mail through SMTP_URL (or the development mailbox), mesh messages as the mesh's review bot.
  { publicBaseUrl: config.PUBLIC_BASE_URL, mailer: mailer(), sendToMesh: reviewBotSender(ctx) },
);
const pipelines = startPipelineWorker(ctx, {
  log,
  concurrency: config.PIPELINE_CONCURRENCY,
  leaseMs: config.PIPELINE_STALE_AFTER_MS,
  llm: config.PIPELINE_LLM_BASE_URL
    ? {
        baseUrl: config.PIPELINE_LLM_BASE_URL,
        apiKey: config.PIPELINE_LLM_API_KEY,
        model: config.PIPELINE_LLM_MODEL,
        timeoutMs: config.PIPELINE_LLM_TIMEOUT_MS,
        allowPrivate: config.PIPELINE_LLM_ALLOW_PRIVATE,
      }
    : null,
  llmClassify: config.PIPELINE_LLM_CLASSIFY ? { batchSize: config.PIPELINE_LLM_BATCH } : null,
  llmReplies: config.PIPELINE_LLM_REPLIES ? { max: config.PIPELINE_LLM_REPLIES_MAX } : null,
  observer: executionObserver(metrics),
});
log.info({ event: "queue_started", concurrency: config.WORKER_CONCURRENCY }, "worker takes jobs");

// Ready while the database answers and the queue loops look for work; not ready from the first signal on.
const readiness = new Readiness({
  database: () => monitor.isUp,
  queues: () => queueWorkers.running && pipelines.running,
});
const server = createWorkerHttp({
  monitor,
  about: { version: APP_VERSION, gitSha, startedAt },
  concurrency: config.WORKER_CONCURRENCY,
  ops: {
    registry: metrics.registry,
    metrics: metricsAccess({ token: config.METRICS_TOKEN, production: isProductionEnv(), host: config.WORKER_HOST }),
    readiness,
  },
});
server.listen(config.WORKER_PORT, config.WORKER_HOST, () =>
  log.info({ event: "listening", port: config.WORKER_PORT }, "worker health listening"),
);

onShutdown(log, async () => {
  // /ready answers 503 from here while running jobs finish (docs/observability.md).
  readiness.drain();
  // Graceful: running jobs get until their timeout (at most 8 s) to finish; anything left is taken over once its lease passes.
  // Callback attempts made at once end within CALLBACK_TIMEOUT_MS; a cut one is attempted again from its queue row.
  // A pipeline run cut here is taken over by another worker once its lease (PIPELINE_STALE_AFTER_MS) passes.
  await Promise.all([
    queueWorkers.close({
      graceMs: Math.min(settings.JOB_TIMEOUT_MS, 8_000),
      drainMs: Math.min(settings.CALLBACK_TIMEOUT_MS + 1_000, 8_000),
    }),
    pipelines.stop(5_000),
  ]);
  await closeScrapers();
  await db.$disconnect();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await monitor.stop();
});
