import http from "node:http";
import { loadConfigOrExit } from "../server/core/config";
import { PROJECT_ROOT } from "../server/core/database/ensure";
import { DbMonitor, healthDocument } from "../server/core/db-monitor";
import { resolveGitSha } from "../server/core/git-sha";
import { onShutdown, sendJson, sendNotFound } from "../server/core/lifecycle";
import { createLogger } from "../server/core/logger";
import { APP_VERSION } from "../server/core/version";
import { ZWorkerConfig } from "./config";
import { startPipelineWorker } from "./pipelines";

const config = loadConfigOrExit(ZWorkerConfig, "worker");
const log = createLogger("worker");
const gitSha = resolveGitSha(PROJECT_ROOT);
const startedAt = Date.now();
const monitor = new DbMonitor({
  url: config.DATABASE_URL,
  intervalMs: config.DB_PING_INTERVAL_MS,
  onChange: (up) => log[up ? "info" : "warn"]({ event: up ? "db_up" : "db_down" }, "database state changed"),
});
await monitor.start();
// The pipeline consumer starts in the background and retries while the database is away, so the
// health endpoint answers (503) meanwhile instead of the process exiting.
let pipelines: { stop(): Promise<void> } | null = null;
let stopping = false;
void (async () => {
  while (!stopping && !pipelines) {
    try {
      pipelines = await startPipelineWorker({
        databaseUrl: config.DATABASE_URL,
        log,
        concurrency: config.PIPELINE_CONCURRENCY,
        staleAfterMs: config.PIPELINE_STALE_AFTER_MS,
        llm: config.PIPELINE_LLM_BASE_URL
          ? { baseUrl: config.PIPELINE_LLM_BASE_URL, apiKey: config.PIPELINE_LLM_API_KEY, model: config.PIPELINE_LLM_MODEL, timeoutMs: config.PIPELINE_LLM_TIMEOUT_MS }
          : null,
      });
    } catch (err) {
      log.warn({ event: "pipelines_start_failed", err: (err as Error).message }, "pipeline worker could not start; retrying");
      await new Promise((r) => setTimeout(r, 5_000));
    }
  }
})();

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/health") {
    const body = { ...healthDocument({ dbUp: monitor.isUp, version: APP_VERSION, gitSha, startedAt }), concurrency: config.WORKER_CONCURRENCY };
    sendJson(res, monitor.isUp ? 200 : 503, body);
    return;
  }
  sendNotFound(res);
});
server.listen(config.WORKER_PORT, config.WORKER_HOST, () =>
  log.info({ event: "listening", port: config.WORKER_PORT }, "worker health listening"),
);

onShutdown(log, async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  stopping = true;
  await pipelines?.stop();
  await monitor.stop();
});
