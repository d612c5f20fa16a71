import http from "node:http";
import { loadConfigOrExit } from "../server/core/config";
import { PROJECT_ROOT } from "../server/core/database/ensure";
import { DbMonitor, healthDocument } from "../server/core/db-monitor";
import { resolveGitSha } from "../server/core/git-sha";
import { createLogger } from "../server/core/logger";
import { APP_VERSION } from "../server/core/version";
import { ZWorkerConfig } from "./config";

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

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/health") {
    const body = { ...healthDocument({ dbUp: monitor.isUp, version: APP_VERSION, gitSha, startedAt }), concurrency: config.WORKER_CONCURRENCY };
    res.writeHead(monitor.isUp ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
    return;
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: "NOT_FOUND", message: "no such path" } }));
});
server.listen(config.WORKER_PORT, config.WORKER_HOST, () =>
  log.info({ event: "listening", port: config.WORKER_PORT }, "worker health listening"),
);

let closing = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    log.info({ event: "shutdown", signal }, "worker stopping");
    server.close();
    void monitor.stop().then(() => process.exit(0));
    setTimeout(() => process.exit(1), 10_000).unref();
  });
}
