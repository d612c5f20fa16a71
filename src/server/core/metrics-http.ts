// GET /metrics and GET /ready of every process (web, broker, worker): the one place that serves a
// prom-client registry as Prometheus text behind METRICS_TOKEN (closed without it, but on a development
// start that listens on loopback only), and a readiness state as JSON (docs/observability.md).
import type http from "node:http";
import net from "node:net";
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

/** METRICS_TOKEN: set (≥ 16 characters), a scrape needs `Authorization: Bearer <token>`; unset, see metricsAccess. */
export const ZMetricsToken = z.string().trim().min(16, { error: "must be at least 16 characters" }).optional();

/**
 * Who may read a process's /metrics: the holders of METRICS_TOKEN; anyone (`open`); or nobody (`closed`,
 * answered 404 as if the route did not exist: there is no credential to ask for).
 */
export type MetricsAccess = { token: string } | "open" | "closed";

/** Whether a listening address reaches this machine only: 127.0.0.0/8, ::1 or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (h === "localhost") return true;
  if (net.isIPv4(h)) return h.startsWith("127.");
  if (net.isIPv6(h)) return h === "::1" || /^::ffff:127\./.test(h);
  return false;
}

/**
 * The access of /metrics (issue 41): with METRICS_TOKEN, the bearer only. Without it, open only on a
 * development start (not `production`) that listens on loopback only, where nobody else can reach it;
 * closed (404) on a production start or one listening on another interface.
 */
export function metricsAccess(options: {
  token: string | undefined;
  production: boolean;
  host: string;
}): MetricsAccess {
  if (options.token) return { token: options.token };
  return !options.production && isLoopbackHost(options.host) ? "open" : "closed";
}

/** Whether this process runs as production: NODE_ENV=production (the deploy image; the web app without --dev). */
export const isProductionEnv = (env: Readonly<Record<string, string | undefined>> = process.env): boolean =>
  env.NODE_ENV === "production";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** Whether an Authorization header carries the token (compared in constant time); always true without a token. */
export function metricsAuthorized(authorization: string | string[] | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const header = Array.isArray(authorization) ? "" : (authorization ?? "");
  const given = BEARER.exec(header)?.[1] ?? "";
  // Compared whatever was sent (an empty or malformed header too), so the time taken tells nothing.
  return secretsEqual(given, token);
}

/**
 * Writes the registry as Prometheus text; 404 when closed; 401 with `WWW-Authenticate: Bearer` when the
 * token is missing or wrong.
 */
export async function serveMetrics(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  registry: Registry,
  access: MetricsAccess,
): Promise<void> {
  if (access === "closed")
    return sendJson(res, 404, { error: { code: "NOT_FOUND", message: "not found (set METRICS_TOKEN to scrape)" } });
  if (access !== "open" && !metricsAuthorized(req.headers.authorization, access.token)) {
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
  /** Who may read /metrics (metricsAccess). */
  metrics: MetricsAccess;
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
    void serveMetrics(req, res, ops.registry, ops.metrics);
    return true;
  }
  if (pathname === "/ready") {
    serveReadiness(res, ops.readiness);
    return true;
  }
  return false;
}
