import type http from "node:http";
import { processRegistry } from "../server/core/metrics-http";
import { Counter, Gauge, Histogram } from "prom-client";
import { routeOf, type RouteMatcher } from "../server/http/route-templates";

/** Buckets (seconds) of the request duration: 5 ms to 30 s (exports stream for longer: they land in +Inf). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** The status of a request whose client went away before any answer began (nginx's convention). */
export const CLIENT_CLOSED = 499;

/** The web app's metrics (docs/observability.md): requests by route template, method and status, Node's defaults. */
export function createWebMetrics() {
  const { registry, registers, dbUp } = processRegistry("web_");
  return {
    registry,
    dbUp,
    requests: new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by route template (never the raw path), method and status code (499: the client left before the answer began)",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    duration: new Histogram({
      name: "http_request_duration_seconds",
      help: "From a request's arrival to the last byte of its answer, by route template, method and status class (2xx..5xx)",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: BUCKETS,
      registers,
    }),
    inFlight: new Gauge({ name: "http_requests_in_flight", help: "Requests being answered now", registers }),
  };
}
export type WebMetrics = ReturnType<typeof createWebMetrics>;

/** The method label: the common methods as they are, any other `OTHER`. */
export const methodLabel = (method: string | undefined) => (method && METHODS.has(method) ? method : "OTHER");

/**
 * Counts and times one request once its answer is over (or its connection closed): the route is the
 * template of `pathname` (the REST API's own templates inside `/api/[...rest]` once Next.js loaded it).
 */
export function observeRequest(
  m: WebMetrics,
  matcher: RouteMatcher,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
): void {
  const started = performance.now();
  m.inFlight.inc();
  res.once("close", () => {
    m.inFlight.dec();
    const code = res.headersSent ? res.statusCode : CLIENT_CLOSED;
    const status = code >= 100 && code <= 599 ? String(code) : "other";
    const route = routeOf(matcher, pathname);
    const method = methodLabel(req.method);
    m.requests.inc({ route, method, status });
    m.duration.observe(
      { route, method, status_class: status === "other" ? "other" : `${status[0]}xx` },
      (performance.now() - started) / 1000,
    );
  });
}
