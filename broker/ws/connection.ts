import type { RawData, WebSocket } from "ws";
import type { Db } from "../../src/server/core/db";
import type { Logger } from "../../src/server/core/logger";
import type { PeerActor } from "../../src/server/services/actor";
import type { ServiceContext } from "../../src/server/services/context";
import {
  closePresence,
  listPeers,
  liveConnectionsOf,
  renewStatusLease,
  setMemberStatus,
  type ConnectingPeer,
} from "../../src/server/services/broker/peer-connection";
import { messageStatus } from "../../src/server/services/broker/message-status";
import type { MeshEvents } from "../cluster/events";
import { brokerContext, peerActor } from "../context";
import { safeErrorFields } from "../http/request";
import type { MessageHub } from "../messages/hub";
import type { BrokerMetrics } from "../metrics";
import { closeWith } from "../protocol/close";
import { MAX_STATUS_RECIPIENTS, parseClientFrame, PROTOCOL_VERSION, type TClientFrame } from "../protocol/frames";
import { FrameLimits, type LimitedFrame } from "./frame-limits";
import { sendFrame, type ConnectionRegistry, type PeerConnection } from "./registry";

export interface ConnectionDeps {
  db: Db;
  log: Logger;
  metrics: BrokerMetrics;
  registry: ConnectionRegistry;
  hub: MessageHub;
  events: MeshEvents;
  maxMessageBytes: number;
  heartbeatMs: number;
  maxBadFrames: number;
  frameLimits: FrameLimits;
  /** Keeps database writes in flight visible to shutdown, which waits for them. */
  track(work: Promise<unknown>): void;
  /** A hook's status lease, renewed by the peer's activity (at most every quarter lease per connection). */
  statusLeaseMs: number;
}

/** When each connection last renewed its member's status lease. */
const leaseRenewedAt = new WeakMap<PeerConnection, number>();

/** The peer is active: its member's status lease (if any) holds on. One write per quarter lease at most. */
function renewLease(conn: PeerConnection, ctx: ServiceContext<PeerActor>, deps: ConnectionDeps): void {
  const now = Date.now();
  if (now - (leaseRenewedAt.get(conn) ?? 0) < deps.statusLeaseMs / 4) return;
  leaseRenewedAt.set(conn, now);
  deps.track(renewStatusLease(ctx, { leaseMs: deps.statusLeaseMs }).catch(() => undefined));
}

/**
 * Takes the accepted socket of an authenticated peer whose presence is already recorded (the cap was
 * checked then): registry, welcome, queue replay, frames, and the presence close at the end.
 */
export function attachConnection(
  ws: WebSocket,
  peer: ConnectingPeer & { receives?: boolean },
  presence: { connectionId: string; firstForMember: boolean; firstReceiving: boolean },
  deps: ConnectionDeps,
): void {
  const { connectionId } = presence;
  // The connection's frames act as its peer.
  const ctx = brokerContext(deps.db, peerActor(peer));
  const log = deps.log.child({ connectionId, meshId: peer.meshId, memberId: peer.memberId });
  ws.on("error", (error) => log.warn({ event: "ws_error", ...safeErrorFields(error) }, "socket error"));
  const conn: PeerConnection = {
    id: connectionId,
    meshId: peer.meshId,
    memberId: peer.memberId,
    receives: peer.receives !== false,
    role: peer.role,
    displayName: peer.displayName,
    keyEpoch: peer.keyEpoch,
    ws,
    connectedAt: new Date(),
    alive: true,
    badFrames: 0,
    inflight: new Map(),
    replaying: true,
    missed: false,
  };
  // Welcome first, then the queue: the count is read before the connection joins the registry, so
  // nothing reaches the peer ahead of its welcome (messages stored meanwhile come with the replay).
  const started = deps.hub
    .queued(peer.memberId)
    .catch(() => 0)
    .then((queued) => {
      if (ws.readyState !== ws.OPEN) return;
      deps.registry.add(conn);
      // Removed (or the mesh archived) while this connection was being admitted: the notification
      // found nothing to close then.
      const ended = deps.events.endedFor(conn);
      if (ended) return deps.events.endConnection(conn, ended);
      log.info({ event: "ws_connected" }, "peer connected");
      sendFrame(conn, {
        v: PROTOCOL_VERSION,
        type: "welcome",
        connectionId,
        meshId: peer.meshId,
        memberId: peer.memberId,
        maxMessageBytes: deps.maxMessageBytes,
        heartbeatMs: deps.heartbeatMs,
        queued,
        keyEpoch: conn.keyEpoch,
      });
      // The member came online, or (online already, sending only) can now receive.
      if (presence.firstForMember || presence.firstReceiving)
        deps.events.publish(
          {
            t: "presence",
            meshId: peer.meshId,
            memberId: peer.memberId,
            displayName: peer.displayName,
            online: true,
            receiving: conn.receives,
          },
          conn.id,
        );
      return deps.hub.replay(conn);
    });
  deps.track(started);

  ws.on("pong", () => (conn.alive = true));
  ws.on("message", (data, isBinary) => onMessage(conn, ctx, data, isBinary, deps, log));
  ws.on("close", (code) => {
    deps.registry.remove(conn);
    log.info({ event: "ws_closed", code }, "peer disconnected");
    const closed = closePresence(ctx, { connectionId })
      .then(() => liveConnectionsOf(ctx))
      .then((left) => {
        // The member went offline, or its last connection that received closed (it only sends now).
        if (left.live === 0 || (conn.receives && left.receiving === 0))
          deps.events.publish({
            t: "presence",
            meshId: peer.meshId,
            memberId: peer.memberId,
            displayName: peer.displayName,
            online: left.live > 0,
            receiving: false,
          });
      })
      .catch((error: unknown) =>
        log.error({ event: "presence_close_failed", ...safeErrorFields(error) }, "presence not closed"),
      );
    deps.track(closed);
  });
}

function onMessage(
  conn: PeerConnection,
  ctx: ServiceContext<PeerActor>,
  data: RawData,
  isBinary: boolean,
  deps: ConnectionDeps,
  log: Logger,
): void {
  // Frames carry JSON text; ciphertext travels base64url-encoded inside it.
  if (isBinary) return badFrame(conn, deps, "binary frames are not part of the protocol");
  const parsed = parseClientFrame(rawText(data));
  if (!parsed.ok) return badFrame(conn, deps, parsed.message, parsed.id);
  const work = handleFrame(conn, ctx, parsed.frame, deps);
  if (work) {
    deps.track(
      work.catch((error: unknown) => {
        log.error(
          { event: "frame_failed", type: parsed.frame.type, ...safeErrorFields(error) },
          "frame handling failed",
        );
        const id = "id" in parsed.frame ? parsed.frame.id : undefined;
        sendFrame(conn, {
          v: PROTOCOL_VERSION,
          type: "error",
          code: "SERVICE_UNAVAILABLE",
          message: "try again later",
          ...(id ? { id } : {}),
        });
      }),
    );
  }
}

/** Roles that only receive (docs/mesh-api.md): they may not send messages or set a status. */
const RECEIVE_ONLY = new Set(["observer"]);

function handleFrame(
  conn: PeerConnection,
  ctx: ServiceContext<PeerActor>,
  frame: TClientFrame,
  deps: ConnectionDeps,
): Promise<void> | undefined {
  if (frame.type !== "ping") renewLease(conn, ctx, deps);
  if (
    frame.type === "send" ||
    frame.type === "set_status" ||
    frame.type === "peers" ||
    frame.type === "message_status"
  ) {
    if ((frame.type === "send" || frame.type === "set_status") && RECEIVE_ONLY.has(conn.role)) {
      sendFrame(conn, {
        v: PROTOCOL_VERSION,
        type: "error",
        code: "FORBIDDEN",
        message: "forbidden_role",
        ...(frame.id ? { id: frame.id } : {}),
      });
      return undefined;
    }
    if (!admitFrame(conn, frame.type, frame.id, deps)) {
      // A send refused here is sent again later: the connection's later sends wait for it (hub.ts).
      if (frame.type === "send") deps.hub.refusedAtArrival(conn, frame.id, "TOO_MANY_REQUESTS");
      return undefined;
    }
  }
  switch (frame.type) {
    case "ping":
      sendFrame(conn, { v: PROTOCOL_VERSION, type: "pong", ts: Date.now(), ...(frame.id ? { id: frame.id } : {}) });
      return undefined;
    case "send":
      return deps.hub.send(conn, frame);
    case "ack":
      deps.hub.ack(conn, frame.messageIds);
      return undefined;
    case "peers":
      return listPeers(ctx).then((peers) =>
        sendFrame(conn, { v: PROTOCOL_VERSION, type: "peers", ...(frame.id ? { id: frame.id } : {}), peers }),
      );
    case "set_status":
      return setStatus(conn, ctx, frame, deps);
    case "message_status":
      return messageStatus(ctx, { messageIds: frame.messageIds, maxRecipients: MAX_STATUS_RECIPIENTS }).then(
        (messages) =>
          sendFrame(conn, {
            v: PROTOCOL_VERSION,
            type: "message_status",
            ...(frame.id ? { id: frame.id } : {}),
            messages,
          }),
      );
  }
}

async function setStatus(
  conn: PeerConnection,
  ctx: ServiceContext<PeerActor>,
  frame: Extract<TClientFrame, { type: "set_status" }>,
  deps: ConnectionDeps,
): Promise<void> {
  const text = frame.text ?? null;
  const saved = await setMemberStatus(ctx, {
    status: frame.status,
    text,
  });
  if (!saved) {
    closeWith(conn.ws, "FORBIDDEN", "membership ended");
    return;
  }
  const at = saved.at.toISOString();
  sendFrame(conn, {
    v: PROTOCOL_VERSION,
    type: "status",
    ...(frame.id ? { id: frame.id } : {}),
    memberId: conn.memberId,
    status: frame.status,
    text,
    at,
  });
  deps.events.publish(
    { t: "status", meshId: conn.meshId, memberId: conn.memberId, status: frame.status, text, at },
    conn.id,
  );
}

/** The frame limits: true when the frame may go on; else an error frame, or the close after repeated excess. */
function admitFrame(conn: PeerConnection, type: LimitedFrame, id: string | undefined, deps: ConnectionDeps): boolean {
  const verdict = deps.frameLimits.take(conn, type);
  if (verdict === "ok") return true;
  deps.metrics.rateLimited.inc({ limit: `frame_${type}` });
  if (verdict === "close") {
    closeWith(conn.ws, "rate_limited");
    return false;
  }
  sendFrame(conn, {
    v: PROTOCOL_VERSION,
    type: "error",
    code: "TOO_MANY_REQUESTS",
    message: `too many ${type} frames; slow down`,
    ...(id ? { id } : {}),
  });
  return false;
}

function badFrame(conn: PeerConnection, deps: ConnectionDeps, message: string, id?: string): void {
  deps.metrics.badFrames.inc();
  conn.badFrames += 1;
  sendFrame(conn, { v: PROTOCOL_VERSION, type: "error", code: "BAD_REQUEST", message, ...(id ? { id } : {}) });
  // A peer that keeps sending garbage is broken or hostile; an error frame each time would serve it.
  if (conn.badFrames >= deps.maxBadFrames) closeWith(conn.ws, "BAD_REQUEST", "too many bad frames");
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data).toString("utf8");
}
