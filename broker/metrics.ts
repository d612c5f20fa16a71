import { Counter, Gauge, Histogram } from "prom-client";
import { processRegistry } from "../src/server/core/metrics-http";
import { TtlCache } from "../src/server/core/ttl-cache";

/** Buckets (seconds) of the broker's latency histograms: 0.5 ms to 10 s. */
export const BROKER_LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * How long a count of rate_limits rows serves the scrapes (issue 41): counting scans the table, and a
 * scrape must not cost the database a scan each time, however often Prometheus (or anyone) asks.
 */
export const BUCKETS_READ_TTL_MS = 30_000;

/** A read shared by every caller within `ttlMs` (one query in flight, its answer reused); a failure is not kept. */
export function cachedRead(read: () => Promise<number>, ttlMs: number, now: () => number = Date.now) {
  const cache = new TtlCache<"value", Promise<number>>({ maxEntries: 1, ttlMs, now });
  return (): Promise<number> => {
    const held = cache.get("value");
    if (held) return held;
    const fresh = read();
    cache.set("value", fresh);
    fresh.catch(() => cache.delete("value"));
    return fresh;
  };
}

/** The broker's metrics; names and labels are listed in docs/protocol.md ("Metrics"). */
export function createBrokerMetrics(
  connectionCount: () => number,
  gauges: {
    queueDepth?: () => Promise<number>;
    pendingSends?: () => number;
    buckets?: () => Promise<number>;
    links?: () => { sending: number; receiving: number };
  } = {},
) {
  const { registry, registers, dbUp } = processRegistry("broker_");
  const buckets = gauges.buckets ? cachedRead(gauges.buckets, BUCKETS_READ_TTL_MS) : undefined;
  return {
    registry,
    dbUp,
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
    messagesSent: new Counter({
      name: "broker_messages_sent_total",
      help: "Messages stored and acknowledged to their sender by this node",
      registers,
    }),
    messageBytes: new Counter({
      name: "broker_message_bytes_total",
      help: "Ciphertext bytes of the messages stored by this node",
      registers,
    }),
    messagesDelivered: new Counter({
      name: "broker_messages_delivered_total",
      help: "Message frames sent to recipients by this node (redeliveries included)",
      registers,
    }),
    redeliveries: new Counter({
      name: "broker_messages_redelivered_total",
      help: "Messages delivered again because no ack came within MESSAGE_ACK_TIMEOUT_MS",
      registers,
    }),
    acks: new Counter({ name: "broker_messages_acked_total", help: "Acknowledgements stored by this node", registers }),
    expired: new Counter({
      name: "broker_messages_expired_total",
      help: "Undelivered message copies dropped by the time-to-live sweep",
      registers,
    }),
    sweeps: new Counter({ name: "broker_ttl_sweeps_total", help: "Time-to-live sweeps run by this node", registers }),
    relayed: new Counter({
      name: "broker_relay_messages_total",
      help: "Messages handed to other nodes over their links (sent) and taken from them (received)",
      labelNames: ["direction"] as const,
      registers,
    }),
    noticeReads: new Counter({
      name: "broker_notice_reads_total",
      help: "Other nodes' batch notifications read back from the database (no link to the node, or its copy did not come)",
      registers,
    }),
    links: new Gauge({
      name: "broker_cluster_links",
      help: "Open links with other nodes: sending (they take this node's batches) and receiving (this node takes theirs)",
      labelNames: ["direction"] as const,
      registers,
      collect() {
        const counts = gauges.links?.() ?? { sending: 0, receiving: 0 };
        this.set({ direction: "sending" }, counts.sending);
        this.set({ direction: "receiving" }, counts.receiving);
      },
    }),
    queueDepth: new Gauge({
      name: "broker_queue_depth",
      help: "Message copies waiting for an ack, in all queues (PostgreSQL's live-row estimate, read at scrape time)",
      registers,
      async collect() {
        if (gauges.queueDepth) this.set(await gauges.queueDepth().catch(() => -1));
      },
    }),
    pendingSends: new Gauge({
      name: "broker_pending_sends",
      help: "Sends received and not yet stored (the open batch)",
      registers,
      collect() {
        this.set(gauges.pendingSends?.() ?? 0);
      },
    }),
    hookRequests: new Counter({
      name: "broker_hook_requests_total",
      help: "POST /hook/set-status answers by result: ok, bad_request, unauthorized, forbidden, too_large, rate_limited, unavailable, error",
      labelNames: ["result"] as const,
      registers,
    }),
    rateLimitBuckets: new Gauge({
      name: "broker_rate_limit_buckets",
      help: "Token buckets of the status-hook limit that are not full (rows of rate_limits, counted at most every 30 s; -1 when unreadable)",
      registers,
      async collect() {
        if (buckets) this.set(await buckets().catch(() => -1));
      },
    }),
    slowConsumers: new Counter({
      name: "broker_slow_consumers_total",
      help: "Connections closed with 4408 slow_consumer after WS_SLOW_CONSUMER_MS over their buffer budget",
      registers,
    }),
    deliveriesDeferred: new Counter({
      name: "broker_deliveries_deferred_total",
      help: "Live deliveries left in the queue because the connection was over WS_MAX_BUFFERED_BYTES (read again as it drains)",
      registers,
    }),
    badFrames: new Counter({ name: "broker_bad_frames_total", help: "Frames refused by validation", registers }),
    rateLimited: new Counter({
      name: "broker_rate_limited_total",
      help: "Requests denied by a token bucket, by limit",
      labelNames: ["limit"] as const,
      registers,
    }),
    sendStoreSeconds: new Histogram({
      name: "broker_send_store_duration_seconds",
      help: "From a send frame read to its sent answer: recipients resolved and the message stored (batch wait included)",
      buckets: BROKER_LATENCY_BUCKETS,
      registers,
    }),
    storeBatchSeconds: new Histogram({
      name: "broker_store_batch_duration_seconds",
      help: "One batch of sends stored: the multi-row insert of envelopes, queue rows and audit events",
      buckets: BROKER_LATENCY_BUCKETS,
      registers,
    }),
    storeBatchMessages: new Histogram({
      name: "broker_store_batch_messages",
      help: "Messages per stored batch",
      buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000],
      registers,
    }),
    ackBatchAcks: new Histogram({
      name: "broker_ack_batch_acks",
      help: "Acknowledgements per stored batch",
      buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2000],
      registers,
    }),
    deliverySeconds: new Histogram({
      name: "broker_delivery_latency_seconds",
      help: "From a message stored (the database's clock) to its frame written to a recipient on this node, live deliveries only; path: local (sender on this node) or notified (another node's)",
      labelNames: ["path"] as const,
      buckets: BROKER_LATENCY_BUCKETS,
      registers,
    }),
    joinSeconds: new Histogram({
      name: "broker_join_duration_seconds",
      help: "POST /join from the request to the answer, by result (the values of broker_join_results_total)",
      labelNames: ["result"] as const,
      buckets: BROKER_LATENCY_BUCKETS,
      registers,
    }),
  };
}
export type BrokerMetrics = ReturnType<typeof createBrokerMetrics>;
