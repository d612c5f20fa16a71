import type http from "node:http";
import { DbMonitor } from "../server/core/db-monitor";
import type { Logger } from "../server/core/logger";
import { handleOpsRoute, type MetricsAccess } from "../server/core/metrics-http";
import { Readiness } from "../server/core/readiness";
import { createWebMetrics, observeRequest } from "./metrics";
import { webRouteMatcher } from "./routes";

export interface WebOpsOptions {
  databaseUrl: string;
  dbPingIntervalMs: number;
  /** Who may read /metrics. */
  metrics: MetricsAccess;
  root: string;
  dev: boolean;
  log: Logger;
}

/** The web server's own routes before Next.js (GET /metrics, GET /ready) and the metrics of every other request. */
export interface WebOps {
  /** Answers GET /metrics and GET /ready; false for any other request. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): boolean;
  /** Counts and times a request handed on (http_requests_total, http_request_duration_seconds). */
  observe(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): void;
  /** Pings the database once, then keeps pinging. */
  start(): Promise<void>;
  /** Shutdown began: /ready answers 503 from now on. */
  drain(): void;
  stop(): Promise<void>;
}

/** Builds the web process's metrics, readiness (database answering, not shutting down) and their routes. */
export function createWebOps(options: WebOpsOptions): WebOps {
  const metrics = createWebMetrics();
  const matcher = webRouteMatcher(options.root, options.dev);
  const monitor = new DbMonitor({
    url: options.databaseUrl,
    intervalMs: options.dbPingIntervalMs,
    onChange: (up) => {
      metrics.dbUp.set(up ? 1 : 0);
      options.log[up ? "info" : "warn"](
        { event: up ? "db_up" : "db_down" },
        up ? "database reachable" : "database unreachable",
      );
    },
  });
  const readiness = new Readiness({ database: () => monitor.isUp });
  const ops = { registry: metrics.registry, metrics: options.metrics, readiness };
  return {
    handle: (req, res, pathname) => handleOpsRoute(req, res, pathname, ops),
    observe: (req, res, pathname) => observeRequest(metrics, matcher, req, res, pathname),
    start: async () => {
      await monitor.start();
    },
    drain: () => readiness.drain(),
    stop: () => monitor.stop(),
  };
}
