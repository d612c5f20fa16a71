import http from "node:http";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { DbMonitor, healthDocument } from "../src/server/core/db-monitor";
import { sendJson, sendNotFound } from "../src/server/core/lifecycle";
import type { Logger } from "../src/server/core/logger";
import type { TBrokerConfig } from "./config";

export interface BrokerServer {
  server: http.Server;
  monitor: DbMonitor;
  registry: Registry;
  close(): Promise<void>;
}

/** Builds the broker's HTTP server: /health and /metrics (the WebSocket side arrives with the protocol). */
export function createBrokerServer(config: TBrokerConfig, deps: { log: Logger; version: string; gitSha: string }): BrokerServer {
  const startedAt = Date.now();
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "broker_" });
  const dbUp = new Gauge({ name: "broker_db_up", help: "1 while the database answers pings", registers: [registry] });
  const monitor = new DbMonitor({
    url: config.DATABASE_URL,
    intervalMs: config.DB_PING_INTERVAL_MS,
    initialBackoffMs: config.DB_BACKOFF_INITIAL_MS,
    maxBackoffMs: config.DB_BACKOFF_MAX_MS,
    onChange: (up) => {
      dbUp.set(up ? 1 : 0);
      deps.log[up ? "info" : "warn"]({ event: up ? "db_up" : "db_down" }, up ? "database reachable" : "database unreachable");
    },
  });

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://broker");
    if (req.method === "GET" && url.pathname === "/health") {
      const body = healthDocument({ dbUp: monitor.isUp, version: deps.version, gitSha: deps.gitSha, startedAt });
      sendJson(res, monitor.isUp ? 200 : 503, body);
      return;
    }
    if (req.method === "GET" && url.pathname === "/metrics") {
      void registry.metrics().then((text) => {
        res.writeHead(200, { "content-type": registry.contentType });
        res.end(text);
      });
      return;
    }
    sendNotFound(res);
  });

  return {
    server,
    monitor,
    registry,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await monitor.stop();
    },
  };
}
