import type { RawData, WebSocket } from "ws";
import type { Db } from "../../src/server/core/db";
import { ERROR_MAP } from "../../src/server/core/errors";
import { uuidv7 } from "../../src/server/core/ids";
import type { Logger } from "../../src/server/core/logger";
import { safeErrorFields } from "../http/request";
import type { BrokerMetrics } from "../metrics";
import { parseClientFrame, PROTOCOL_VERSION, type TClientFrame } from "../protocol/frames";
import { closePresence, openPresence, type ConnectingPeer } from "../../src/server/services/broker/peer-connection";
import { sendFrame, type ConnectionRegistry, type PeerConnection } from "./registry";

export interface ConnectionDeps {
  db: Db;
  log: Logger;
  metrics: BrokerMetrics;
  registry: ConnectionRegistry;
  nodeId: string;
  maxConnectionsPerMesh: number;
  maxMessageBytes: number;
  heartbeatMs: number;
  maxBadFrames: number;
  /** Keeps database writes in flight visible to shutdown, which waits for them. */
  track(work: Promise<unknown>): void;
}

/** Takes an accepted socket of an authenticated peer: capacity check, registry, presence, frames. */
export function attachConnection(ws: WebSocket, peer: ConnectingPeer, deps: ConnectionDeps): void {
  const connectionId = uuidv7();
  const log = deps.log.child({ connectionId, meshId: peer.meshId, memberId: peer.memberId });
  ws.on("error", (error) => log.warn({ event: "ws_error", ...safeErrorFields(error) }, "socket error"));
  // Checked here, synchronously with registration, so concurrent upgrades cannot both take the last slot.
  if (deps.registry.countInMesh(peer.meshId) >= deps.maxConnectionsPerMesh) {
    deps.metrics.capacityRejections.inc();
    log.warn({ event: "ws_capacity", limit: deps.maxConnectionsPerMesh }, "mesh at connection cap");
    ws.close(1008, "capacity");
    return;
  }
  const conn: PeerConnection = {
    id: connectionId,
    meshId: peer.meshId,
    memberId: peer.memberId,
    role: peer.role,
    displayName: peer.displayName,
    ws,
    connectedAt: new Date(),
    alive: true,
    badFrames: 0,
  };
  deps.registry.add(conn);
  const opened = openPresence(deps.db, { meshId: peer.meshId, memberId: peer.memberId, nodeId: deps.nodeId, connectionId }).catch((error: unknown) =>
    log.error({ event: "presence_open_failed", ...safeErrorFields(error) }, "presence not recorded"),
  );
  deps.track(opened);
  log.info({ event: "ws_connected" }, "peer connected");
  sendFrame(conn, {
    v: PROTOCOL_VERSION,
    type: "welcome",
    connectionId,
    meshId: peer.meshId,
    memberId: peer.memberId,
    maxMessageBytes: deps.maxMessageBytes,
    heartbeatMs: deps.heartbeatMs,
    queued: 0,
  });

  ws.on("pong", () => (conn.alive = true));
  ws.on("message", (data, isBinary) => onMessage(conn, data, isBinary, deps));
  ws.on("close", (code) => {
    deps.registry.remove(conn);
    log.info({ event: "ws_closed", code }, "peer disconnected");
    // After the insert, or a fast disconnect would update nothing and leave the row "connected".
    const closed = opened.then(() => closePresence(deps.db, connectionId)).catch((error: unknown) =>
      log.error({ event: "presence_close_failed", ...safeErrorFields(error) }, "presence not closed"),
    );
    deps.track(closed);
  });
}

function onMessage(conn: PeerConnection, data: RawData, isBinary: boolean, deps: ConnectionDeps): void {
  // Frames carry JSON text; ciphertext travels base64-encoded inside it.
  if (isBinary) return badFrame(conn, deps, "binary frames are not part of the protocol");
  const parsed = parseClientFrame(rawText(data));
  if (!parsed.ok) return badFrame(conn, deps, parsed.message, parsed.id);
  handleFrame(conn, parsed.frame);
}

function handleFrame(conn: PeerConnection, frame: TClientFrame): void {
  switch (frame.type) {
    case "ping":
      sendFrame(conn, { v: PROTOCOL_VERSION, type: "pong", ts: Date.now(), ...(frame.id ? { id: frame.id } : {}) });
      return;
  }
}

function badFrame(conn: PeerConnection, deps: ConnectionDeps, message: string, id?: string): void {
  deps.metrics.badFrames.inc();
  conn.badFrames += 1;
  sendFrame(conn, { v: PROTOCOL_VERSION, type: "error", code: "BAD_REQUEST", message, ...(id ? { id } : {}) });
  // A peer that keeps sending garbage is broken or hostile; an error frame each time would serve it.
  if (conn.badFrames >= deps.maxBadFrames) conn.ws.close(ERROR_MAP.BAD_REQUEST.ws, "too many bad frames");
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data).toString("utf8");
}
