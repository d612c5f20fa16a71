// GET /metrics and GET /ready of every process (web, broker, worker): the one place that serves a
// prom-client registry as Prometheus text behind the optional METRICS_TOKEN, and a readiness state as
// JSON (docs/observability.md).
import type http from "node:http";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { z } from "zod";
import { secretsEqual } from "./crypto/equal";
import { sendJson } from "./lifecycle";
import type { Readiness } from "./readiness";

/**
 * A process's registry with Node's default metrics under its prefix (`web_`, `broker_`, `worker_`) and
 * its `<prefix>db_up` gauge (set by the process's database monitor); `registers` for its own metrics.
 */
export function processRegistry(prefix: "web_" | "broker_" | "worker_") {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix });
  const registers = [registry];
  const dbUp = new Gauge({ name: `${prefix}db_up`, help: "1 while the database answers pings", registers });
  return { registry, registers, dbUp };
}

/** METRICS_TOKEN: unset, /metrics is open; set (≥ 16 characters), a scrape needs `Authorization: Bearer <token>`. */
export const ZMetricsToken = z.string().trim().min(16, { error: "must be at least 16 characters" }).optional();

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Whether an Authorization header carries the token (compared in constant time); always true without a token. */
export function metricsAuthorized(authorization: string | string[] | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const header = Array.isArray(authorization) ? "" : (authorization ?? "");
  const given = BEARER.exec(header)?.[1] ?? "";
  // Compared whatever was sent (an empty or malformed header too), so the time taken tells nothing.
  return secretsEqual(given, token);
}

/** Writes the registry as Prometheus text, or 401 with `WWW-Authenticate: Bearer` when the token is missing or wrong. */
export async function serveMetrics(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  registry: Registry,
  token: string | undefined,
): Promise<void> {
  if (!metricsAuthorized(req.headers.authorization, token)) {
    res.setHeader("www-authenticate", 'Bearer realm="metrics"');
    return sendJson(res, 401, { error: { code: "UNAUTHORIZED", message: "metrics need the bearer token" } });
  }
  let text: string;
  try {
    text = await registry.metrics();
  } catch {
    // A collect callback failed (they catch their own errors; this is the last guard).
    return sendJson(res, 500, { error: { code: "INTERNAL", message: "metrics unavailable" } });
  }
  res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
  res.end(text);
}

/** Writes the readiness document: 200 when ready, else 503. */
export function serveReadiness(res: http.ServerResponse, readiness: Readiness): void {
  const state = readiness.state();
  sendJson(res, state.ready ? 200 : 503, state);
}

export interface OpsRoutes {
  registry: Registry;
  metricsToken: string | undefined;
  readiness: Readiness;
}

/**
 * Answers GET /metrics and GET /ready (query strings ignored); returns false for any other request,
 * which the caller handles as before.
 */
export function handleOpsRoute(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
  ops: OpsRoutes,
): boolean {
  if (req.method !== "GET") return false;
  if (pathname === "/metrics") {
    void serveMetrics(req, res, ops.registry, ops.metricsToken);
    return true;
  }
  if (pathname === "/ready") {
    serveReadiness(res, ops.readiness);
    return true;
  }
  return false;
}
