import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type http from "node:http";
import type { Duplex } from "node:stream";
import type pg from "pg";
import WebSocket, { WebSocketServer } from "ws";
import { sha256Hex } from "../../src/server/core/crypto/hash";
import type { Logger } from "../../src/server/core/logger";
import { TokenBucketLimiter } from "../../src/server/core/token-bucket";
import { safeErrorFields } from "../http/request";
import { refuse, upgradeRefusal } from "../ws/upgrade";
import type { TBrokerConfig } from "../config";
import { defaultPeerUrl, peerBase } from "./peer-url";
import { relayMaxPayload } from "./relay-format";

// Links between the broker nodes of one database (docs/protocol.md, "Several nodes"): each node opens a
// WebSocket to every other node it finds in `broker_nodes`, and the other sends it every batch it
// stores, as it stored it (broker/cluster/relay-format.ts). The receiving node delivers from the link
// instead of reading the batch back from the database when the batch's notification comes; without a
// link (not yet open, cut, the other node gone) it reads it back as before.

export const CLUSTER_PATH = "/cluster";
export const LINK_NODE_HEADER = "x-broker-node";
export const LINK_TICKET_HEADER = "x-broker-link-ticket";

/** How often a node writes its row and looks for the others (and checks its links are alive). */
const REFRESH_MS = 5_000;
/** A node not seen for this long is gone: no link is opened to it. */
const SEEN_WITHIN_MS = 20_000;
/** A ticket not used within this long is void. */
const TICKET_TTL_MS = 30_000;
/** Link requests a client address may make a minute (a ticket costs a database look-up). */
const LINK_ATTEMPTS_PER_MINUTE = 60;

const UTC_NOW = "(now() AT TIME ZONE 'UTC')";

export interface LinksOptions {
  nodeId: string;
  /** Where the other nodes reach this one (ws:// or wss://, BROKER_PEER_URL). */
  peerUrl: string;
  pool: pg.Pool;
  log: Logger;
  /** Largest message on a link (relay-format.ts, relayMaxPayload). */
  maxPayload: number;
  /** Bytes a link may hold unsent before it is cut (its node then reads what it misses from the database). */
  maxBuffered: number;
  refreshMs?: number;
}

/** What the links hand on: the message hub, made with the links, listens (messages/cross-node.ts). */
export interface LinkEvents {
  /** A batch part from `fromNode`. */
  relay: [fromNode: string, data: Buffer];
  /** The link on which `fromNode` sent its batches closed. */
  linkDown: [fromNode: string];
}

interface Upstream {
  url: string;
  ws?: WebSocket;
  open: boolean;
  lastPong: number;
}

export class ClusterLinks extends EventEmitter<LinkEvents> {
  /** Nodes this one sends its batches to (they opened links to it). */
  private readonly subscribers = new Map<string, WebSocket>();
  /** Nodes this one receives batches from (it opened links to them). */
  private readonly upstreams = new Map<string, Upstream>();
  private readonly wss: WebSocketServer;
  private readonly attempts = new TokenBucketLimiter({
    capacity: LINK_ATTEMPTS_PER_MINUTE,
    refillPerMinute: LINK_ATTEMPTS_PER_MINUTE,
    maxKeys: 10_000,
  });
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: LinksOptions) {
    super();
    this.wss = new WebSocketServer({ noServer: true, maxPayload: 1_024, perMessageDeflate: false });
  }

  /** Writes this node's row and opens links to the nodes seen lately, then again every few seconds. */
  async start(): Promise<void> {
    await this.refresh().catch((error: unknown) =>
      this.options.log.warn(
        { event: "links_refresh_failed", ...safeErrorFields(error) },
        "cluster links not refreshed",
      ),
    );
    this.timer = setInterval(() => {
      void this.refresh().catch((error: unknown) =>
        this.options.log.warn(
          { event: "links_refresh_failed", ...safeErrorFields(error) },
          "cluster links not refreshed",
        ),
      );
    }, this.options.refreshMs ?? REFRESH_MS);
    this.timer.unref();
  }

  /** Whether `nodeId` sends this node its batches on an open link. */
  receivesFrom(nodeId: string): boolean {
    return this.upstreams.get(nodeId)?.open === true;
  }

  /** Whether any node takes this node's batches (else there is nothing to prepare for them). */
  get hasSubscribers(): boolean {
    return this.subscribers.size > 0;
  }

  /** Links up, each way. */
  get counts(): { sending: number; receiving: number } {
    let receiving = 0;
    for (const u of this.upstreams.values()) if (u.open) receiving += 1;
    return { sending: this.subscribers.size, receiving };
  }

  /** Sends a batch's parts on every link; a link that cannot keep up is cut (its node reads the database instead). */
  publish(parts: readonly Buffer[]): void {
    for (const [node, ws] of this.subscribers) {
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > this.options.maxBuffered) {
        this.options.log.warn(
          { event: "link_cut", node, buffered: ws.bufferedAmount },
          "cluster link too far behind: cut",
        );
        this.subscribers.delete(node);
        ws.terminate();
        continue;
      }
      for (const part of parts) ws.send(part, { binary: true });
    }
  }

  /** An upgrade on CLUSTER_PATH: another node opening its link, with a ticket it wrote to the database. */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, clientAddress: string): void {
    socket.on("error", () => {});
    const unauthorized = () => refuse(socket, upgradeRefusal("UNAUTHORIZED", "authentication failed", "link"));
    if (!this.attempts.take(clientAddress).allowed)
      return refuse(socket, upgradeRefusal("TOO_MANY_REQUESTS", "too many link attempts", "link", 1));
    const node = req.headers[LINK_NODE_HEADER];
    const ticket = req.headers[LINK_TICKET_HEADER];
    if (
      typeof node !== "string" ||
      node.length === 0 ||
      node.length > 200 ||
      typeof ticket !== "string" ||
      !/^[A-Za-z0-9_-]{43}$/.test(ticket)
    )
      return unauthorized();
    // Single use: the ticket is taken (deleted) by the first request that shows it.
    this.options.pool
      .query<{ node_id: string }>(
        `DELETE FROM broker_link_tickets WHERE ticket_hash = $1 AND expires_at > ${UTC_NOW} RETURNING node_id`,
        [sha256Hex(ticket)],
      )
      .then(({ rows }) => {
        if (this.stopped || rows[0]?.node_id !== node || node === this.options.nodeId) return unauthorized();
        if (socket.destroyed) return;
        this.wss.handleUpgrade(req, socket, head, (ws) => this.addSubscriber(node, ws));
      })
      .catch((error: unknown) => {
        this.options.log.warn({ event: "link_check_failed", ...safeErrorFields(error) }, "cluster link not checked");
        refuse(socket, upgradeRefusal("SERVICE_UNAVAILABLE", "try again later", "link", 1));
      });
  }

  /** Closes the links with `node`, both ways; they are opened again at the next refresh (tests, operators). */
  cut(node: string): void {
    this.subscribers.get(node)?.terminate();
    this.upstreams.get(node)?.ws?.terminate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const ws of this.subscribers.values()) ws.terminate();
    this.subscribers.clear();
    for (const u of this.upstreams.values()) u.ws?.terminate();
    this.upstreams.clear();
    this.wss.close();
    await this.options.pool.query("DELETE FROM broker_nodes WHERE node_id = $1", [this.options.nodeId]).catch(() => {});
  }

  private addSubscriber(node: string, ws: WebSocket): void {
    this.subscribers.get(node)?.terminate();
    this.subscribers.set(node, ws);
    this.options.log.info({ event: "link_in", node }, "cluster link opened by another node");
    ws.on("error", () => {});
    // The other node only listens on its link.
    ws.on("message", () => ws.terminate());
    ws.on("close", () => {
      if (this.subscribers.get(node) === ws) this.subscribers.delete(node);
    });
  }

  private async refresh(): Promise<void> {
    if (this.stopped) return;
    const { pool, nodeId } = this.options;
    await pool.query(
      `INSERT INTO broker_nodes (node_id, peer_url, seen_at) VALUES ($1, $2, ${UTC_NOW})
       ON CONFLICT (node_id) DO UPDATE SET peer_url = EXCLUDED.peer_url, seen_at = EXCLUDED.seen_at`,
      [nodeId, this.options.peerUrl],
    );
    await pool.query(`DELETE FROM broker_link_tickets WHERE expires_at <= ${UTC_NOW}`);
    const { rows } = await pool.query<{ node_id: string; peer_url: string }>(
      `SELECT node_id, peer_url FROM broker_nodes WHERE node_id <> $1 AND seen_at > ${UTC_NOW} - $2 * interval '1 millisecond' ORDER BY node_id LIMIT 100`,
      [nodeId, SEEN_WITHIN_MS],
    );
    const seen = new Set<string>();
    const now = Date.now();
    for (const row of rows) {
      const url = peerBase(row.peer_url);
      if (!url) continue;
      seen.add(row.node_id);
      const up = this.upstreams.get(row.node_id);
      if (up && up.url === url && up.ws && up.ws.readyState !== up.ws.CLOSED) {
        // A link whose other end stopped answering pings is cut (its notices then go to the database).
        if (up.open && now - up.lastPong > 3 * (this.options.refreshMs ?? REFRESH_MS)) up.ws.terminate();
        else if (up.open) up.ws.ping();
        continue;
      }
      up?.ws?.terminate();
      void this.connect(row.node_id, url);
    }
    for (const [node, up] of this.upstreams) {
      if (seen.has(node)) continue;
      up.ws?.terminate();
      this.upstreams.delete(node);
    }
  }

  private async connect(node: string, url: string): Promise<void> {
    const upstream: Upstream = { url, open: false, lastPong: Date.now() };
    this.upstreams.set(node, upstream);
    const ticket = randomBytes(32).toString("base64url");
    try {
      await this.options.pool.query(
        `INSERT INTO broker_link_tickets (ticket_hash, node_id, expires_at) VALUES ($1, $2, ${UTC_NOW} + $3 * interval '1 millisecond')`,
        [sha256Hex(ticket), this.options.nodeId, TICKET_TTL_MS],
      );
    } catch (error) {
      this.options.log.warn(
        { event: "link_ticket_failed", node, ...safeErrorFields(error) },
        "cluster link not opened",
      );
      if (this.upstreams.get(node) === upstream) this.upstreams.delete(node);
      return;
    }
    if (this.stopped || this.upstreams.get(node) !== upstream) return;
    const ws = new WebSocket(`${url}${CLUSTER_PATH}`, {
      headers: { [LINK_NODE_HEADER]: this.options.nodeId, [LINK_TICKET_HEADER]: ticket },
      maxPayload: this.options.maxPayload,
      perMessageDeflate: false,
      handshakeTimeout: 5_000,
    });
    upstream.ws = ws;
    ws.on("open", () => {
      upstream.open = true;
      upstream.lastPong = Date.now();
      this.options.log.info({ event: "link_out", node }, "cluster link opened");
    });
    ws.on("pong", () => (upstream.lastPong = Date.now()));
    ws.on("message", (data, isBinary) => {
      if (isBinary) this.emit("relay", node, data as Buffer);
    });
    ws.on("unexpected-response", (_req, res) => {
      res.resume();
      ws.terminate();
    });
    ws.on("error", () => {});
    ws.on("close", () => {
      const wasOpen = upstream.open;
      upstream.open = false;
      if (this.upstreams.get(node) === upstream) this.upstreams.delete(node);
      if (wasOpen) {
        this.options.log.info({ event: "link_down", node }, "cluster link closed");
        this.emit("linkDown", node);
      }
    });
  }
}

/**
 * The links of a broker node, handing its hub the batches of the others: each node hands the others its
 * batches as it stores them (docs/protocol.md, "Several nodes"); the notifications remain, read back
 * when no link carried them.
 */
export function linksOf(
  config: Pick<TBrokerConfig, "BROKER_PEER_URL" | "BROKER_HOST" | "BROKER_PORT" | "MAX_MESSAGE_BYTES">,
  deps: { nodeId: string; pool: pg.Pool; log: Logger },
): ClusterLinks {
  return new ClusterLinks({
    nodeId: deps.nodeId,
    peerUrl:
      peerBase(config.BROKER_PEER_URL ?? defaultPeerUrl(config.BROKER_HOST, config.BROKER_PORT)) ??
      defaultPeerUrl("", config.BROKER_PORT),
    pool: deps.pool,
    log: deps.log,
    maxPayload: relayMaxPayload(config.MAX_MESSAGE_BYTES),
    // A link behind by this much is cut: the node on its other end reads the database instead.
    maxBuffered: 64 * 1024 * 1024,
  });
}
