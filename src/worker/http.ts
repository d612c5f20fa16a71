import http from "node:http";
import { healthDocument, type DbMonitor } from "../server/core/db-monitor";
import { sendJson, sendNotFound } from "../server/core/lifecycle";
import { handleOpsRoute, type OpsRoutes } from "../server/core/metrics-http";

export interface WorkerHttpDeps {
  monitor: DbMonitor;
  about: { version: string; gitSha: string; startedAt: number };
  concurrency: number;
  /** GET /metrics (behind METRICS_TOKEN when set) and GET /ready. */
  ops: OpsRoutes;
}

/** The worker's HTTP server on WORKER_PORT: /health (liveness and the database), /ready, /metrics. */
export function createWorkerHttp(deps: WorkerHttpDeps): http.Server {
  return http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "GET" && pathname === "/health") {
      const body = { ...healthDocument({ dbUp: deps.monitor.isUp, ...deps.about }), concurrency: deps.concurrency };
      sendJson(res, deps.monitor.isUp ? 200 : 503, body);
      return;
    }
    if (handleOpsRoute(req, res, pathname, deps.ops)) return;
    sendNotFound(res);
  });
}
