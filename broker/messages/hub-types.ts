import type pg from "pg";
import type { Logger } from "../../src/server/core/logger";
import type { ClusterLinks } from "../cluster/links";
import type { BrokerMetrics } from "../metrics";
import type { FlowControl } from "../ws/flow";
import type { ConnectionRegistry } from "../ws/registry";
import type { MemberCache } from "./member-cache";

/** Channel of "messages stored" notifications between nodes. */
export const MESSAGES_CHANNEL = "broker_messages";

export interface HubOptions {
  ttlMs: number;
  ackTimeoutMs: number;
  batchWaitMs: number;
  batchMax: number;
  /** How long the first ack of a batch waits for others (MESSAGE_ACK_BATCH_WAIT_MS). */
  ackBatchWaitMs: number;
  /** Longest hold of a normal or low message for a busy recipient (PRIORITY_HOLD_MAX_MS). */
  holdMaxMs?: number;
}

export interface HubDeps {
  pool: pg.Pool;
  /** The stores' own connection (a pool of one). */
  storePool: pg.Pool;
  log: Logger;
  metrics: BrokerMetrics;
  registry: ConnectionRegistry;
  members: MemberCache;
  nodeId: string;
  flow: FlowControl;
  /** The links with the other nodes: this node hands them its batches and takes theirs (cross-node.ts). */
  links: ClusterLinks;
}

export /** What a batch notification carries: the node that stored it, its seq range and its meshes. */
interface StoredNotice {
  n: string;
  a: string;
  b: string;
  m: string[];
}
