import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";

/** The broker's metrics; names and labels are listed in docs/protocol.md ("Metrics"). */
export function createBrokerMetrics(connectionCount: () => number) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "broker_" });
  const registers = [registry];
  return {
    registry,
    dbUp: new Gauge({ name: "broker_db_up", help: "1 while the database answers pings", registers }),
    connections: new Gauge({
      name: "broker_connections",
      help: "Open authenticated WebSocket connections on this node",
      registers,
      collect() {
        this.set(connectionCount());
      },
    }),
    capacityRejections: new Counter({
      name: "broker_capacity_rejections_total",
      help: "Connections closed with 1008 capacity because their mesh was at MAX_CONNECTIONS_PER_MESH",
      registers,
    }),
    joinResults: new Counter({
      name: "broker_join_results_total",
      help: "POST /join answers by result: ok, a refusal reason, bad_request, too_large, rate_limited, error",
      labelNames: ["result"] as const,
      registers,
    }),
    wsAuthFailures: new Counter({
      name: "broker_ws_auth_failures_total",
      help: "WebSocket upgrades refused before acceptance, by reason",
      labelNames: ["reason"] as const,
      registers,
    }),
    badFrames: new Counter({ name: "broker_bad_frames_total", help: "Frames refused by validation", registers }),
    rateLimited: new Counter({
      name: "broker_rate_limited_total",
      help: "Requests denied by a token bucket, by limit",
      labelNames: ["limit"] as const,
      registers,
    }),
  };
}
export type BrokerMetrics = ReturnType<typeof createBrokerMetrics>;
