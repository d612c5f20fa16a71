import http from "node:http";
import type { Registry } from "prom-client";
import { WebSocketServer } from "ws";
import type { Db } from "../src/server/core/db";
import { DbMonitor, healthDocument } from "../src/server/core/db-monitor";
import { sendJson, sendNotFound } from "../src/server/core/lifecycle";
import type { Logger } from "../src/server/core/logger";
import { TokenBucketLimiter } from "../src/server/core/token-bucket";
import { brokerNodeId, type TBrokerConfig } from "./config";
import { handleJoin } from "./http/join-route";
import { errorBody, safeErrorFields } from "./http/request";
import { createBrokerMetrics } from "./metrics";
import { NonceCache } from "./protocol/ws-auth";
import { closeNodePresences } from "../src/server/services/broker/peer-connection";
import { attachConnection } from "./ws/connection";
import { startHeartbeat } from "./ws/heartbeat";
import { ConnectionRegistry } from "./ws/registry";
import { createUpgradeHandler } from "./ws/upgrade";

export interface BrokerServer {
  server: http.Server;
  monitor: DbMonitor;
  registry: Registry;
  connections: ConnectionRegistry;
  nodeId: string;
  /** Pings the database, closes presences this node left open, starts the heartbeat. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface BrokerDeps {
  log: Logger;
  version: string;
  gitSha: string;
  db: Db;
}

/** Builds the broker: /health, /metrics, POST /join and authenticated WebSocket upgrades on /ws. */
export function createBrokerServer(config: TBrokerConfig, deps: BrokerDeps): BrokerServer {
  const startedAt = Date.now();
  const { log, db } = deps;
  const nodeId = brokerNodeId(config);
  const connections = new ConnectionRegistry();
  const metrics = createBrokerMetrics(() => connections.size);
  const monitor = new DbMonitor({
    url: config.DATABASE_URL,
    intervalMs: config.DB_PING_INTERVAL_MS,
    initialBackoffMs: config.DB_BACKOFF_INITIAL_MS,
    maxBackoffMs: config.DB_BACKOFF_MAX_MS,
    onChange: (up) => {
      metrics.dbUp.set(up ? 1 : 0);
      log[up ? "info" : "warn"]({ event: up ? "db_up" : "db_down" }, up ? "database reachable" : "database unreachable");
    },
  });
  const limiter = (perMinute: number) => new TokenBucketLimiter({ capacity: perMinute, refillPerMinute: perMinute, sweepAfterMs: config.RATE_LIMIT_SWEEP_AFTER_MS });
  const joinLimiter = limiter(config.JOIN_RATE_PER_MINUTE);
  const wsLimiter = limiter(config.WS_AUTH_RATE_PER_MINUTE);
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://broker");
    if (req.method === "GET" && url.pathname === "/health") {
      sendJson(res, monitor.isUp ? 200 : 503, healthDocument({ dbUp: monitor.isUp, version: deps.version, gitSha: deps.gitSha, startedAt }));
    } else if (req.method === "GET" && url.pathname === "/metrics") {
      void metrics.registry.metrics().then((text) => {
        res.writeHead(200, { "content-type": metrics.registry.contentType });
        res.end(text);
      });
    } else if (url.pathname === "/join") {
      if (req.method === "POST") {
        void handleJoin(req, res, { db, log, metrics, limiter: joinLimiter, maxBodyBytes: config.MAX_MESSAGE_BYTES });
      } else {
        res.setHeader("allow", "POST");
        sendJson(res, 405, errorBody("BAD_REQUEST", "use POST"));
      }
    } else {
      sendNotFound(res);
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: config.MAX_MESSAGE_BYTES });
  const connectionDeps = {
    db,
    log,
    metrics,
    registry: connections,
    nodeId,
    maxConnectionsPerMesh: config.MAX_CONNECTIONS_PER_MESH,
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    heartbeatMs: config.WS_PING_INTERVAL_MS,
    maxBadFrames: config.WS_MAX_BAD_FRAMES,
    track,
  };
  server.on(
    "upgrade",
    createUpgradeHandler({
      db,
      log,
      metrics,
      limiter: wsLimiter,
      nonces: new NonceCache(config.WS_AUTH_MAX_SKEW_MS),
      maxSkewMs: config.WS_AUTH_MAX_SKEW_MS,
      accept: (req, socket, head, peer) => wss.handleUpgrade(req, socket, head, (ws) => attachConnection(ws, peer, connectionDeps)),
    }),
  );

  let stopHeartbeat = () => {};
  const sweeper = setInterval(() => (joinLimiter.sweep(), wsLimiter.sweep()), 60_000);
  sweeper.unref();

  return {
    server,
    monitor,
    registry: metrics.registry,
    connections,
    nodeId,
    async start() {
      await monitor.start();
      try {
        const closed = await closeNodePresences(db, nodeId);
        if (closed > 0) log.info({ event: "presences_recovered", count: closed, nodeId }, "closed presences left open by this node");
      } catch (error) {
        log.warn({ event: "presences_recover_failed", ...safeErrorFields(error) }, "could not close leftover presences");
      }
      stopHeartbeat = startHeartbeat(connections, config.WS_PING_INTERVAL_MS, log);
    },
    async close() {
      stopHeartbeat();
      clearInterval(sweeper);
      await closeSockets(connections);
      // Presence writes of the closes above (and any still in flight) finish before the pool goes.
      await Promise.allSettled([...pending]);
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await monitor.stop();
    },
  };
}

/** Closes every socket with 1001 (going away); sockets that do not finish the handshake in 2 s are cut. */
async function closeSockets(connections: ConnectionRegistry): Promise<void> {
  const all = [...connections.all()];
  const closed = all.map((c) => new Promise<void>((resolve) => (c.ws.readyState === c.ws.CLOSED ? resolve() : c.ws.once("close", () => resolve()))));
  for (const c of all) c.ws.close(1001, "server shutting down");
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, 2_000).unref());
  await Promise.race([Promise.all(closed), timeout]);
  for (const c of connections.all()) c.ws.terminate();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
