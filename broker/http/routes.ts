// The broker's plain HTTP routes: /health, /ready, /metrics (behind METRICS_TOKEN), POST /join,
// POST /leave, POST /session and POST /hook/set-status. WebSocket upgrades on /ws are handled apart (ws/upgrade.ts).
import type http from "node:http";
import { healthDocument, type DbMonitor } from "../../src/server/core/db-monitor";
import { sendJson, sendNotFound } from "../../src/server/core/lifecycle";
import { handleOpsRoute, type MetricsAccess } from "../../src/server/core/metrics-http";
import type { Readiness } from "../../src/server/core/readiness";
import type { BrokerMetrics } from "../metrics";
import { handleHook, type HookDeps } from "./hook-route";
import { handleJoin, type JoinRouteDeps } from "./join-route";
import { handleLeave, type LeaveDeps } from "./leave-route";
import { handleSession, type SessionDeps } from "./session-route";
import { errorBody, requestTarget } from "./request";

export interface RoutesDeps {
  monitor: DbMonitor;
  metrics: BrokerMetrics;
  /** Who may read /metrics (METRICS_TOKEN; closed without it but on a loopback development start). */
  metricsAccess: MetricsAccess;
  /** GET /ready: database answering, LISTEN connection up, not shutting down. */
  readiness: Readiness;
  about: { version: string; gitSha: string; startedAt: number };
  join: JoinRouteDeps;
  hook: HookDeps;
  leave: LeaveDeps;
  session: SessionDeps;
}

export function createHttpHandler(deps: RoutesDeps): http.RequestListener {
  return (req, res) => {
    const url = requestTarget(req);
    if (!url) return sendJson(res, 400, errorBody("BAD_REQUEST", "malformed request target"));
    const post = (handle: () => Promise<void>) => {
      if (req.method === "POST") void handle();
      else {
        res.setHeader("allow", "POST");
        sendJson(res, 405, errorBody("BAD_REQUEST", "use POST"));
      }
    };
    if (req.method === "GET" && url.pathname === "/health") {
      sendJson(res, deps.monitor.isUp ? 200 : 503, healthDocument({ dbUp: deps.monitor.isUp, ...deps.about }));
    } else if (
      handleOpsRoute(req, res, url.pathname, {
        registry: deps.metrics.registry,
        metrics: deps.metricsAccess,
        readiness: deps.readiness,
      })
    ) {
      // GET /metrics or GET /ready, answered.
    } else if (url.pathname === "/join") {
      post(() => handleJoin(req, res, deps.join));
    } else if (url.pathname === "/leave") {
      post(() => handleLeave(req, res, deps.leave));
    } else if (url.pathname === "/session") {
      post(() => handleSession(req, res, deps.session));
    } else if (url.pathname === "/hook/set-status") {
      post(() => handleHook(req, res, deps.hook));
    } else {
      sendNotFound(res);
    }
  };
}
