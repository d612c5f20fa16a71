import os from "node:os";
import { z } from "zod";
import { ZTrustProxy } from "../src/server/core/client-address";
import { envInt, envPort, ZDatabaseUrl } from "../src/server/core/config";
import { ZMetricsToken } from "../src/server/core/metrics-http";
import { peerBase } from "./cluster/peer-url";

/** Broker settings (Document 2, "Configuration"); every name and default is listed in the README. */
export const ZBrokerConfig = z.object({
  DATABASE_URL: ZDatabaseUrl,
  BROKER_PORT: envPort(4000),
  BROKER_HOST: z.string().default("0.0.0.0"),
  // Stable across restarts (host and port by default) so a restarted node can close its own
  // presences left open by a crash; two nodes on one database need distinct ids.
  BROKER_NODE_ID: z.string().trim().max(200).optional(),
  /** Where the other nodes reach this one for their links (ws:// or wss://); unset: the listening address, loopback for 0.0.0.0. */
  BROKER_PEER_URL: z
    .string()
    .trim()
    .refine((v) => peerBase(v) !== null, {
      error: "must be a ws:// or wss:// URL without credentials, query or fragment",
    })
    .optional(),
  MAX_CONNECTIONS_PER_MESH: envInt(100, 1, 1_000_000),
  MAX_MESSAGE_BYTES: envInt(65_536, 256, 16 * 1024 * 1024),
  GIT_SHA: z.string().optional(),
  DB_PING_INTERVAL_MS: envInt(5_000, 100, 600_000),
  DB_BACKOFF_INITIAL_MS: envInt(250, 10, 60_000),
  DB_BACKOFF_MAX_MS: envInt(10_000, 100, 600_000),
  JOIN_RATE_PER_MINUTE: envInt(30, 1, 1_000_000),
  WS_AUTH_RATE_PER_MINUTE: envInt(120, 1, 1_000_000),
  WS_CONNECT_CONCURRENCY: envInt(16, 1, 1_000),
  WS_CONNECT_QUEUE: envInt(1_000, 0, 100_000),
  WS_CONNECT_MAX_WAIT_MS: envInt(3_000, 100, 60_000),
  RATE_LIMIT_SWEEP_AFTER_MS: envInt(600_000, 1_000, 86_400_000),
  /** Which X-Forwarded-For hops to believe for the per-client limits: unset (none), a proxy count, or proxy addresses. */
  TRUST_PROXY: ZTrustProxy,
  WS_PING_INTERVAL_MS: envInt(30_000, 50, 600_000),
  WS_AUTH_MAX_SKEW_MS: envInt(60_000, 1_000, 600_000),
  WS_MAX_BAD_FRAMES: envInt(10, 1, 1_000_000),
  // Flow control (docs/protocol.md, "Flow control").
  WS_MAX_BUFFERED_BYTES: envInt(1024 * 1024, 16 * 1024, 256 * 1024 * 1024),
  /** Outbound bytes all of one member's connections on a node may hold together (docs/protocol.md, "Flow control"). */
  WS_MAX_BUFFERED_BYTES_PER_MEMBER: envInt(2 * 1024 * 1024, 16 * 1024, 1024 * 1024 * 1024),
  WS_SLOW_CONSUMER_MS: envInt(30_000, 100, 3_600_000),
  // Frame limits per connection (a member's connections together get twice as much; docs/protocol.md, "Frame limits").
  WS_SEND_RATE_PER_SECOND: envInt(100, 1, 1_000_000),
  WS_STATUS_RATE_PER_MINUTE: envInt(30, 1, 1_000_000),
  WS_PEERS_RATE_PER_MINUTE: envInt(60, 1, 1_000_000),
  WS_MAX_LIMITED_FRAMES: envInt(50, 1, 1_000_000),
  MAX_CONNECTIONS_PER_MEMBER: envInt(5, 1, 1_000_000),
  /** Connections all the members who joined through one invite may hold together (issue 41; docs/protocol.md). */
  MAX_CONNECTIONS_PER_INVITE: envInt(25, 1, 1_000_000),
  /** Longest a normal or low message waits while its recipient is working or dnd (docs/protocol.md, "Priorities"). */
  PRIORITY_HOLD_MAX_MS: envInt(1_800_000, 100, 7 * 24 * 3_600_000),
  /** How long a status set by a hook holds without a later hook or activity of the peer (docs/protocol.md). */
  STATUS_LEASE_MS: envInt(600_000, 100, 7 * 24 * 3_600_000),
  // Messages (docs/protocol.md, "Messages").
  MESSAGE_TTL_MS: envInt(7 * 24 * 3_600_000, 1_000, 365 * 24 * 3_600_000),
  MESSAGE_ACK_TIMEOUT_MS: envInt(30_000, 100, 3_600_000),
  MESSAGE_SWEEP_INTERVAL_MS: envInt(60_000, 100, 86_400_000),
  MESSAGE_BATCH_WAIT_MS: envInt(2, 0, 1_000),
  MESSAGE_BATCH_MAX: envInt(500, 1, 10_000),
  /** Acks arriving within this wait are stored in one call (docs/protocol.md, "Messages", point 4). */
  MESSAGE_ACK_BATCH_WAIT_MS: envInt(20, 0, 1_000),
  MEMBER_CACHE_TTL_MS: envInt(5_000, 0, 600_000),
  MEMBERSHIP_SWEEP_MS: envInt(15_000, 100, 600_000),
  BROKER_DB_POOL_MAX: envInt(10, 2, 200),
  // Status hook: token bucket per (pid, cwd) of the calling script (Document 2: 30 per minute).
  HOOK_RATE_CAPACITY: envInt(30, 1, 1_000_000),
  HOOK_RATE_PER_MINUTE: envInt(30, 1, 1_000_000),
  // ...and per member (its peer key), whatever pid and cwd its requests claim (issue 41, attack 7).
  HOOK_MEMBER_RATE_CAPACITY: envInt(60, 1, 1_000_000),
  HOOK_MEMBER_RATE_PER_MINUTE: envInt(60, 1, 1_000_000),
  // Session members (docs/protocol.md, "Session members"): live ones per parent, and new ones per parent.
  SESSION_MEMBERS_PER_PARENT: envInt(8, 1, 1_000),
  SESSION_CREATE_RATE_CAPACITY: envInt(20, 1, 1_000_000),
  SESSION_CREATE_RATE_PER_HOUR: envInt(60, 1, 1_000_000),
  /** A session member without a connection for this long ends (its assistant session is gone). */
  SESSION_IDLE_MS: envInt(24 * 3_600_000, 1_000, 365 * 24 * 3_600_000),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: ZMetricsToken,
});
export type TBrokerConfig = z.output<typeof ZBrokerConfig>;

/** The id this node writes into presence rows: BROKER_NODE_ID, else `<hostname>:<BROKER_PORT>`. */
export function brokerNodeId(config: Pick<TBrokerConfig, "BROKER_NODE_ID" | "BROKER_PORT">): string {
  return config.BROKER_NODE_ID || `${os.hostname()}:${config.BROKER_PORT}`;
}
