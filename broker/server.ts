import http from "node:http";
import type { Duplex } from "node:stream";
import pg from "pg";
import type { Registry } from "prom-client";
import { WebSocketServer } from "ws";
import type { Db } from "../src/server/core/db";
import { DbMonitor } from "../src/server/core/db-monitor";
import { Semaphore } from "../src/server/core/semaphore";
import { uuidv7 } from "../src/server/core/ids";
import type { Logger } from "../src/server/core/logger";
import { Readiness } from "../src/server/core/readiness";
import { SharedLimiter } from "../src/server/core/shared-limit";
import { isProductionEnv, metricsAccess } from "../src/server/core/metrics-http";
import { totalQueueDepth, sweepExpired } from "./store/message-sweep";
import { sweepUsedNonces } from "../src/server/services/broker/used-nonces";
import { expireIdleSessions } from "../src/server/services/sessions/expire-idle-sessions";
import { SYSTEM } from "../src/server/services/actor";
import {
  closeNodePresences,
  closePresence,
  lapseStatusLeases,
  reservePresence,
  touchNodePresences,
  closeStalePresences,
} from "../src/server/services/broker/peer-connection";
import { EVENTS_CHANNEL, MeshEvents } from "./cluster/events";
import { CLUSTER_PATH, linksOf, type ClusterLinks } from "./cluster/links";
import { reconcileMembership } from "./cluster/membership-sweep";
import { NotificationListener } from "./cluster/listener";
import { brokerNodeId, type TBrokerConfig } from "./config";
import { brokerContext, peerActor } from "./context";
import { requestClientAddress, requestTarget, safeErrorFields } from "./http/request";
import { createHttpHandler } from "./http/routes";
import { MemberCache } from "./messages/member-cache";
import { MESSAGES_CHANNEL, MessageHub } from "./messages/hub";
import { createBrokerMetrics } from "./metrics";
import { closeWith } from "./protocol/close";
import { NonceCache } from "./protocol/ws-auth";
import { closeSockets } from "./ws/close-sockets";
import { attachConnection } from "./ws/connection";
import { FlowControl } from "./ws/flow";
import { FrameLimits } from "./ws/frame-limits";
import { startHeartbeat } from "./ws/heartbeat";
import { ConnectionRegistry } from "./ws/registry";
import { busy, createUpgradeHandler, refuse, upgradeRefusal, type AcceptedPeer } from "./ws/upgrade";
import { WS_SUBPROTOCOL } from "./protocol/ws-subprotocol";

export interface BrokerServer {
  server: http.Server;
  monitor: DbMonitor;
  registry: Registry;
  /** GET /ready: database answering, LISTEN connection up, not shutting down. */
  readiness: Readiness;
  connections: ConnectionRegistry;
  hub: MessageHub;
  /** The links with the other nodes on the database (broker/cluster/links.ts). */
  links: ClusterLinks;
  hookLimiter: SharedLimiter;
  /** The status hook's limit per member (HOOK_MEMBER_RATE_*). */
  hookMemberLimiter: SharedLimiter;
  /** One pass of the periodic sweep of idle rate_limits rows (bounded); how many rows it dropped. */
  sweepRateLimits(): Promise<number>;
  nodeId: string;
  /** Pings the database, closes presences this node left open, starts listening and the timers. */
  start(): Promise<void>;
  /** Graceful stop: no new connections, sockets closed with 1001, pending writes finished. */
  close(): Promise<void>;
}

export interface BrokerDeps {
  log: Logger;
  version: string;
  gitSha: string;
  db: Db;
  /** The rate limiters' clock in milliseconds (default Date.now); tests of time-based rules control it. */
  now?: () => number;
  /** Whether this is a production start (default NODE_ENV=production): /metrics is then closed without METRICS_TOKEN. */
  production?: boolean;
}

/** Builds the broker: /health, /ready, /metrics, POST /join, /leave, /session, /hook/set-status and WebSocket upgrades on /ws. */
export function createBrokerServer(config: TBrokerConfig, deps: BrokerDeps): BrokerServer {
  const startedAt = Date.now();
  const { log, db } = deps;
  const nodeId = brokerNodeId(config);
  const connections = new ConnectionRegistry();
  // The node's own work (sweeps, presence refreshes, the member cache) acts as the system.
  const system = brokerContext(db, SYSTEM);
  // Plain pg for the message queue (multi-row statements, NOTIFY); Prisma for everything else.
  const pgPool = (max: number, idleTimeoutMillis: number) =>
    new pg.Pool({ connectionString: config.DATABASE_URL, max, idleTimeoutMillis, connectionTimeoutMillis: 5_000 }).on(
      "error",
      () => {},
    );
  const pool = pgPool(config.BROKER_DB_POOL_MAX, 30_000);
  // The stores on a connection of their own that never idles out: one runs at a time (the batcher's
  // order), it never waits behind the pool's other work (a reconnect storm's replays and presences),
  // and one backend keeps the call's plan and caches warm.
  const storePool = pgPool(1, 0);
  // Limits per client or script are counted in PostgreSQL, shared with every node (docs/security.md, "Shared limits").
  const limiter = (name: string, capacity: number, perMinute: number) =>
    new SharedLimiter({
      name,
      capacity,
      refillPerMinute: perMinute,
      db,
      sweepAfterMs: config.RATE_LIMIT_SWEEP_AFTER_MS,
      ...(deps.now ? { now: deps.now } : {}),
      onFallback: (error) =>
        log.warn(
          { event: "rate_limit_fallback", limit: name, ...safeErrorFields(error) },
          "database unreachable: limit counted per node",
        ),
    });
  const joinLimiter = limiter("join", config.JOIN_RATE_PER_MINUTE, config.JOIN_RATE_PER_MINUTE);
  const wsLimiter = limiter("ws-auth", config.WS_AUTH_RATE_PER_MINUTE, config.WS_AUTH_RATE_PER_MINUTE);
  const hookLimiter = limiter("hook", config.HOOK_RATE_CAPACITY, config.HOOK_RATE_PER_MINUTE);
  const hookMemberLimiter = limiter(
    "hook-member",
    config.HOOK_MEMBER_RATE_CAPACITY,
    config.HOOK_MEMBER_RATE_PER_MINUTE,
  );
  const sessionLimiter = limiter(
    "session-parent",
    config.SESSION_CREATE_RATE_CAPACITY,
    config.SESSION_CREATE_RATE_PER_HOUR / 60,
  );
  const sharedLimiters = [hookLimiter, hookMemberLimiter, joinLimiter, wsLimiter, sessionLimiter];
  // Rows idle past RATE_LIMIT_SWEEP_AFTER_MS and full again (so nothing is lost), in batches of 1,000 and at
  // most 10 batches a pass. On the database's clock one limiter's sweep covers every limit's rows (the
  // others then find none); on a test's clock each sweeps its own.
  const sweepRateLimits = async (): Promise<number> => {
    let swept = 0;
    for (const l of sharedLimiters)
      for (let batch = 0; batch < 10; batch++) {
        const n = await l.sweep(1_000);
        swept += n;
        if (n < 1_000) break;
      }
    return swept;
  };
  // The links with the other nodes come first: the hub is made with them (it hands them its batches
  // and listens for theirs).
  const links = linksOf(config, { nodeId, pool, log });
  // The hub needs the metrics and the metrics read the hub: a holder breaks the cycle.
  const hubRef: { current?: MessageHub } = {};
  const metrics = createBrokerMetrics(() => connections.size, {
    queueDepth: () => totalQueueDepth(pool),
    pendingSends: () => hubRef.current?.pendingSends ?? 0,
    buckets: () => hookLimiter.count(),
    links: () => links.counts,
  });
  const monitor = new DbMonitor({
    url: config.DATABASE_URL,
    intervalMs: config.DB_PING_INTERVAL_MS,
    initialBackoffMs: config.DB_BACKOFF_INITIAL_MS,
    maxBackoffMs: config.DB_BACKOFF_MAX_MS,
    onChange: (up) => {
      metrics.dbUp.set(up ? 1 : 0);
      log[up ? "info" : "warn"](
        { event: up ? "db_up" : "db_down" },
        up ? "database reachable" : "database unreachable",
      );
    },
  });
  const members = new MemberCache(system, config.MEMBER_CACHE_TTL_MS);
  const flow = new FlowControl(
    {
      maxBuffered: config.WS_MAX_BUFFERED_BYTES,
      maxBufferedPerMember: config.WS_MAX_BUFFERED_BYTES_PER_MEMBER,
      slowConsumerMs: config.WS_SLOW_CONSUMER_MS,
    },
    { registry: connections, metrics, log },
  );
  const messages = new MessageHub(
    { pool, storePool, log, metrics, registry: connections, members, nodeId, flow, links },
    {
      ttlMs: config.MESSAGE_TTL_MS,
      ackTimeoutMs: config.MESSAGE_ACK_TIMEOUT_MS,
      batchWaitMs: config.MESSAGE_BATCH_WAIT_MS,
      batchMax: config.MESSAGE_BATCH_MAX,
      ackBatchWaitMs: config.MESSAGE_ACK_BATCH_WAIT_MS,
      holdMaxMs: config.PRIORITY_HOLD_MAX_MS,
    },
  );
  hubRef.current = messages;
  const onStatus = (meshId: string, memberId: string, status: string) => messages.noteStatus(meshId, memberId, status);
  const events = new MeshEvents({
    pool,
    registry: connections,
    nodeId,
    log,
    onMembershipChange: (meshId) => members.invalidate(meshId),
    onStatus,
  });
  const reconcile = () =>
    reconcileMembership(pool, connections, events, nodeId).then(
      (closed) =>
        closed > 0 && log.info({ event: "membership_reconciled", closed }, "closed connections whose membership ended"),
      (error: unknown) =>
        log.warn({ event: "membership_reconcile_failed", ...safeErrorFields(error) }, "membership not checked"),
    );
  const listener = new NotificationListener({
    url: config.DATABASE_URL,
    channels: [MESSAGES_CHANNEL, EVENTS_CHANNEL],
    log,
    initialBackoffMs: config.DB_BACKOFF_INITIAL_MS,
    maxBackoffMs: config.DB_BACKOFF_MAX_MS,
    onNotification: (channel, payload) =>
      channel === MESSAGES_CHANNEL ? messages.onNotification(payload) : events.onNotification(payload),
    // Changes announced while this node was not listening are read from the rows.
    onConnected: () => void reconcile(),
  });
  const nonces = new NonceCache(config.WS_AUTH_MAX_SKEW_MS);
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const readiness = new Readiness({ database: () => monitor.isUp, listener: () => listener.connected });

  const server = http.createServer(
    createHttpHandler({
      monitor,
      metrics,
      metricsAccess: metricsAccess({
        token: config.METRICS_TOKEN,
        production: deps.production ?? isProductionEnv(),
        host: config.BROKER_HOST,
      }),
      readiness,
      about: { version: deps.version, gitSha: deps.gitSha, startedAt },
      join: {
        db,
        log,
        metrics,
        limiter: joinLimiter,
        trustProxy: config.TRUST_PROXY,
        maxBodyBytes: config.MAX_MESSAGE_BYTES,
      },
      hook: {
        db,
        log,
        metrics,
        limiter: hookLimiter,
        memberLimiter: hookMemberLimiter,
        nonces,
        maxSkewMs: config.WS_AUTH_MAX_SKEW_MS,
        maxBodyBytes: config.MAX_MESSAGE_BYTES,
        events,
        statusLeaseMs: config.STATUS_LEASE_MS,
      },
      leave: {
        db,
        log,
        nonces,
        maxSkewMs: config.WS_AUTH_MAX_SKEW_MS,
        maxBodyBytes: 4_096,
        limiter: joinLimiter,
        trustProxy: config.TRUST_PROXY,
      },
      session: {
        db,
        log,
        nonces,
        maxSkewMs: config.WS_AUTH_MAX_SKEW_MS,
        maxBodyBytes: 4_096,
        limiter: joinLimiter,
        parentLimiter: sessionLimiter,
        trustProxy: config.TRUST_PROXY,
        // A session idle past a minute (or a tenth of SESSION_IDLE_MS, when shorter) may make room for a new one.
        limits: {
          perParent: config.SESSION_MEMBERS_PER_PARENT,
          evictAfterMs: Math.min(60_000, Math.floor(config.SESSION_IDLE_MS / 10)),
        },
      },
    }),
  );

  const frameLimits = new FrameLimits({
    sendPerSecond: config.WS_SEND_RATE_PER_SECOND,
    statusPerMinute: config.WS_STATUS_RATE_PER_MINUTE,
    peersPerMinute: config.WS_PEERS_RATE_PER_MINUTE,
    strikesPerMinute: config.WS_MAX_LIMITED_FRAMES,
    sweepAfterMs: config.RATE_LIMIT_SWEEP_AFTER_MS,
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.MAX_MESSAGE_BYTES,
    // A browser offers `mesh.v1` beside its proof (ws-subprotocol.ts): select `mesh.v1`, never echo the
    // proof (ws would otherwise select the first offered). A client that offers none gets none.
    handleProtocols: (offered) => (offered.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
  });
  const connectionDeps = {
    db,
    log,
    metrics,
    registry: connections,
    hub: messages,
    events,
    maxMessageBytes: config.MAX_MESSAGE_BYTES,
    heartbeatMs: config.WS_PING_INTERVAL_MS,
    maxBadFrames: config.WS_MAX_BAD_FRAMES,
    frameLimits,
    track,
    statusLeaseMs: config.STATUS_LEASE_MS,
  };
  // A node refreshes its presences every ping interval; three missed refreshes mean it is gone.
  const staleMs = 3 * config.WS_PING_INTERVAL_MS;

  /** Records the presence under the cross-node cap, then completes the upgrade (or closes 1008). */
  async function admit(req: http.IncomingMessage, socket: Duplex, head: Buffer, peer: AcceptedPeer): Promise<void> {
    // Going away, not busy: back in 1 s, to another node or to this one restarted (docs/protocol.md, "Reconnecting").
    if (readiness.isDraining)
      return refuse(socket, upgradeRefusal("SERVICE_UNAVAILABLE", "broker shutting down", "closing", 1));
    const connectionId = uuidv7();
    const ctx = brokerContext(db, peerActor(peer));
    // Closes the presence of a connection that ended before its own close handler was attached.
    const closeNodeConnection = () => closePresence(ctx, { connectionId }).catch(() => {});
    let reserved;
    try {
      // The presence lock waits on the plain pg pool, not in a Prisma transaction (peer-connection.ts).
      reserved = await reservePresence(
        { ...ctx, pool },
        {
          nodeId,
          connectionId,
          cap: config.MAX_CONNECTIONS_PER_MESH,
          memberCap: config.MAX_CONNECTIONS_PER_MEMBER,
          inviteCap: config.MAX_CONNECTIONS_PER_INVITE,
          staleMs,
          receives: peer.receives,
        },
      );
    } catch (error) {
      log.warn({ event: "presence_open_failed", ...safeErrorFields(error) }, "presence not recorded");
      return refuse(socket, busy("error", "try again later"));
    }
    if (socket.destroyed) {
      if (reserved.ok) track(closeNodeConnection());
      return;
    }
    // `ws` drops a socket that closed during the handshake without calling back: the presence just
    // recorded would then stay open for ever (and hold a slot of the mesh's cap).
    const dropped = () => track(closeNodeConnection());
    if (reserved.ok) socket.once("close", dropped);
    wss.handleUpgrade(req, socket, head, (ws) => {
      // From here the connection's own close handler ends the presence.
      socket.removeListener("close", dropped);
      if (!reserved.ok) {
        const reason = reserved.reason;
        if (reason === "ended") {
          closeWith(ws, "removed");
          return;
        }
        metrics.capacityRejections.inc();
        const [limit, whose] = {
          capacity: [config.MAX_CONNECTIONS_PER_MESH, "mesh"],
          member_capacity: [config.MAX_CONNECTIONS_PER_MEMBER, "member"],
          invite_capacity: [config.MAX_CONNECTIONS_PER_INVITE, "invite"],
        }[reason];
        log.warn({ event: "ws_capacity", meshId: peer.meshId, reason, limit }, `${whose} at connection cap`);
        closeWith(ws, reason);
        return;
      }
      attachConnection(
        ws,
        peer,
        { connectionId, firstForMember: reserved.firstForMember, firstReceiving: reserved.firstReceiving },
        connectionDeps,
      );
    });
  }

  const peerUpgrade = createUpgradeHandler({
    db,
    log,
    metrics,
    limiter: wsLimiter,
    trustProxy: config.TRUST_PROXY,
    nonces,
    maxSkewMs: config.WS_AUTH_MAX_SKEW_MS,
    gate: new Semaphore(config.WS_CONNECT_CONCURRENCY, config.WS_CONNECT_QUEUE),
    maxWaitMs: config.WS_CONNECT_MAX_WAIT_MS,
    accept: admit,
  });
  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (requestTarget(req)?.pathname === CLUSTER_PATH)
      links.handleUpgrade(req, socket, head, requestClientAddress(req, config.TRUST_PROXY));
    else peerUpgrade(req, socket, head);
  });

  let stopHeartbeat = () => {};
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, fn: () => Promise<unknown> | void) => {
    const t = setInterval(() => void Promise.resolve(fn()).catch(() => {}), ms);
    t.unref();
    timers.push(t);
  };

  return {
    server,
    monitor,
    registry: metrics.registry,
    readiness,
    connections,
    hub: messages,
    links,
    hookLimiter,
    hookMemberLimiter,
    sweepRateLimits,
    nodeId,
    async start() {
      await monitor.start();
      try {
        const closed = await closeNodePresences(system, { nodeId });
        if (closed > 0)
          log.info({ event: "presences_recovered", count: closed, nodeId }, "closed presences left open by this node");
      } catch (error) {
        log.warn(
          { event: "presences_recover_failed", ...safeErrorFields(error) },
          "could not close leftover presences",
        );
      }
      await listener.start();
      await links.start();
      messages.start();
      flow.start();
      stopHeartbeat = startHeartbeat(connections, config.WS_PING_INTERVAL_MS, log);
      every(config.WS_PING_INTERVAL_MS, () => touchNodePresences(system, { nodeId }));
      every(config.MEMBERSHIP_SWEEP_MS, reconcile);
      // Presences of a node that died for good: closed by whichever node is alive (the pages read them).
      // Ten refreshes missed, five minutes at least: a closed presence is never opened again, so a node
      // that only stalled must not lose the presences of connections it still holds.
      const deadAfterMs = Math.max(10 * config.WS_PING_INTERVAL_MS, 300_000);
      every(60_000, () => closeStalePresences(system, { staleMs: deadAfterMs }));
      every(60_000, () => {
        // One bounded sweep drops full buckets of every shared limit (the rows of other nodes too: lossless).
        void sweepRateLimits().catch(() => {});
        frameLimits.sweep();
        members.prune((meshId) => connections.countInMesh(meshId) > 0);
        return sweepUsedNonces(system);
      });
      // Lapsed status leases: a quarter of the lease at most between looks (so a status ends within 1.25 leases), 30 s at most.
      every(Math.max(50, Math.min(Math.floor(config.STATUS_LEASE_MS / 4), 30_000)), async () => {
        for (const l of await lapseStatusLeases(system))
          events.publish({
            t: "status",
            meshId: l.meshId,
            memberId: l.memberId,
            status: l.status,
            text: null,
            at: l.at.toISOString(),
          });
      });
      // Session members whose assistant session went away without a word (docs/protocol.md, "Session members").
      every(Math.max(50, Math.min(Math.floor(config.SESSION_IDLE_MS / 4), 60_000)), async () => {
        const ended = await expireIdleSessions(system, { idleMs: config.SESSION_IDLE_MS });
        if (ended.length > 0)
          log.info({ event: "sessions_expired", count: ended.length }, "idle session members ended");
      });
      every(config.MESSAGE_SWEEP_INTERVAL_MS, async () => {
        const swept = await sweepExpired(pool);
        if (!swept.swept) return;
        metrics.sweeps.inc();
        metrics.expired.inc(swept.dropped);
        if (swept.envelopes > 0)
          log.info(
            { event: "ttl_sweep", envelopes: swept.envelopes, dropped: swept.dropped },
            "expired messages dropped",
          );
      });
    },
    async close() {
      // From here /ready answers 503 while the node drains (docs/observability.md).
      readiness.drain();
      stopHeartbeat();
      for (const t of timers) clearInterval(t);
      await closeSockets(connections);
      flow.stop();
      // Sends received before the close are stored, then every write still in flight finishes.
      await messages.drain();
      await links.stop();
      await Promise.allSettled([...pending]);
      wss.close();
      await listener.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await monitor.stop();
      await Promise.all([pool.end().catch(() => {}), storePool.end().catch(() => {})]);
    },
  };
}
