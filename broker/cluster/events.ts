import type pg from "pg";
import type { Logger } from "../../src/server/core/logger";
import {
  eventPayload,
  EVENTS_CHANNEL,
  isEndedReason,
  type EndedReason,
  type MeshEvent,
} from "../../src/server/services/broker/mesh-events";
import { safeErrorFields } from "../http/request";
import { closeWith } from "../protocol/close";
import { PROTOCOL_VERSION, type TServerFrame } from "../protocol/frames";
import { broadcastFrame, sendFrame, type ConnectionRegistry, type PeerConnection } from "../ws/registry";

export { EVENTS_CHANNEL, type MeshEvent };

/** How long a node remembers a membership that ended, for connections that were being admitted then. */
const ENDED_MEMORY_MS = 60_000;
const ENDED_MEMORY_MAX = 10_000;

/**
 * Mesh events reach every connected peer of the mesh: status and presence changes from this node's
 * connections directly, the other nodes' through one NOTIFY (docs/protocol.md, "Several nodes"); and
 * membership changes of the web app (removal, role, archive, key epoch), which every node applies to
 * its own connections the moment the change commits.
 */
export class MeshEvents {
  /** Member or mesh ids whose connections ended recently, with the reason and when to forget it. */
  private readonly ended = new Map<string, { reason: EndedReason; until: number }>();

  constructor(
    private readonly deps: {
      pool: pg.Pool;
      registry: ConnectionRegistry;
      nodeId: string;
      log: Logger;
      /** A mesh's members changed: cached member lists must be read again. */
      onMembershipChange?(meshId: string): void;
      /** A member's status changed (on any node): held messages may go out now. */
      onStatus?(meshId: string, memberId: string, status: string): void;
    },
  ) {}

  /** Delivers locally and tells the other nodes. */
  publish(event: MeshEvent, exceptConnectionId?: string): void {
    this.deliverLocal(event, exceptConnectionId);
    this.deps.pool
      .query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, eventPayload(this.deps.nodeId, event)])
      .catch((error: unknown) => {
        this.deps.log.warn(
          { event: "notify_failed", ...safeErrorFields(error) },
          "other nodes not told of a mesh event",
        );
      });
  }

  /** A notification of another node or of the web app. */
  onNotification(payload: string): void {
    let parsed: { n: string; e: MeshEvent };
    try {
      parsed = JSON.parse(payload) as { n: string; e: MeshEvent };
    } catch {
      return; // Not ours to read.
    }
    if (parsed.n !== this.deps.nodeId && parsed.e && typeof parsed.e === "object") this.deliverLocal(parsed.e);
  }

  /** Why this connection may no longer be open, when its membership ended lately (else undefined). */
  endedFor(conn: Pick<PeerConnection, "meshId" | "memberId">): EndedReason | undefined {
    const now = Date.now();
    for (const key of [conn.memberId, conn.meshId]) {
      const hit = this.ended.get(key);
      if (hit && hit.until > now) return hit.reason;
    }
    return undefined;
  }

  /** Closes a connection whose membership ended, with the reason's close code. */
  endConnection(conn: PeerConnection, reason: EndedReason): void {
    if (conn.ws.readyState === conn.ws.OPEN || conn.ws.readyState === conn.ws.CONNECTING) closeWith(conn.ws, reason);
  }

  private remember(key: string, reason: EndedReason): void {
    const now = Date.now();
    if (this.ended.size >= ENDED_MEMORY_MAX) {
      for (const [k, v] of this.ended) if (v.until <= now) this.ended.delete(k);
      if (this.ended.size >= ENDED_MEMORY_MAX) this.ended.delete(this.ended.keys().next().value as string);
    }
    this.ended.set(key, { reason, until: now + ENDED_MEMORY_MS });
  }

  private deliverLocal(event: MeshEvent, exceptConnectionId?: string): void {
    const { registry } = this.deps;
    switch (event.t) {
      case "status":
      case "presence": {
        if (event.t === "status") this.deps.onStatus?.(event.meshId, event.memberId, event.status);
        const frame: TServerFrame =
          event.t === "status"
            ? {
                v: PROTOCOL_VERSION,
                type: "status",
                memberId: event.memberId,
                status: event.status,
                text: event.text,
                at: event.at,
              }
            : {
                v: PROTOCOL_VERSION,
                type: "presence",
                memberId: event.memberId,
                displayName: event.displayName,
                online: event.online,
                receiving: event.receiving ?? event.online,
              };
        broadcastFrame(registry.inMesh(event.meshId), frame, exceptConnectionId);
        return;
      }
      case "ended": {
        if (!isEndedReason(event.reason)) return;
        this.remember(event.memberId ?? event.meshId, event.reason);
        this.deps.onMembershipChange?.(event.meshId);
        const conns = event.memberId ? registry.ofMember(event.meshId, event.memberId) : registry.inMesh(event.meshId);
        for (const conn of conns) this.endConnection(conn, event.reason);
        if (conns.length > 0)
          this.deps.log.info(
            { event: "membership_ended", meshId: event.meshId, reason: event.reason, connections: conns.length },
            "connections closed",
          );
        return;
      }
      case "joined":
        this.deps.onMembershipChange?.(event.meshId);
        return;
      case "role":
        this.deps.onMembershipChange?.(event.meshId);
        for (const conn of registry.ofMember(event.meshId, event.memberId)) conn.role = event.role;
        return;
      case "epoch":
        this.deps.onMembershipChange?.(event.meshId);
        for (const conn of registry.inMesh(event.meshId)) announceEpoch(conn, event.epoch);
        return;
    }
  }
}

/** Tells a connection of a newer key epoch (once per epoch). */
export function announceEpoch(conn: PeerConnection, epoch: number): void {
  if (!Number.isInteger(epoch) || epoch <= conn.keyEpoch) return;
  conn.keyEpoch = epoch;
  sendFrame(conn, { v: PROTOCOL_VERSION, type: "key_epoch", epoch });
}
