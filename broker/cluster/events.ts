import type pg from "pg";
import type { Logger } from "../../src/server/core/logger";
import { safeErrorFields } from "../http/request";
import { PROTOCOL_VERSION, type TServerFrame } from "../protocol/frames";
import { sendFrame, type ConnectionRegistry } from "../ws/registry";

/** Channel of status and presence changes between nodes. */
export const EVENTS_CHANNEL = "broker_events";

export type MeshEvent =
  | { t: "status"; meshId: string; memberId: string; status: string; text: string | null; at: string }
  | { t: "presence"; meshId: string; memberId: string; displayName: string; online: boolean };

/**
 * Status and presence changes reach every connected peer of the mesh: this node's connections
 * directly, the other nodes' through one NOTIFY (docs/protocol.md, "Several nodes").
 */
export class MeshEvents {
  constructor(
    private readonly deps: { pool: pg.Pool; registry: ConnectionRegistry; nodeId: string; log: Logger },
  ) {}

  /** Delivers locally and tells the other nodes. */
  publish(event: MeshEvent, exceptConnectionId?: string): void {
    this.deliverLocal(event, exceptConnectionId);
    this.deps.pool.query("SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, JSON.stringify({ n: this.deps.nodeId, e: event })]).catch((error: unknown) => {
      this.deps.log.warn({ event: "notify_failed", ...safeErrorFields(error) }, "other nodes not told of a mesh event");
    });
  }

  /** A notification of another node. */
  onNotification(payload: string): void {
    try {
      const parsed = JSON.parse(payload) as { n: string; e: MeshEvent };
      if (parsed.n !== this.deps.nodeId) this.deliverLocal(parsed.e);
    } catch {
      // Not ours to read: ignore.
    }
  }

  private deliverLocal(event: MeshEvent, exceptConnectionId?: string): void {
    const frame: TServerFrame =
      event.t === "status"
        ? { v: PROTOCOL_VERSION, type: "status", memberId: event.memberId, status: event.status, text: event.text, at: event.at }
        : { v: PROTOCOL_VERSION, type: "presence", memberId: event.memberId, displayName: event.displayName, online: event.online };
    for (const conn of this.deps.registry.inMesh(event.meshId)) if (conn.id !== exceptConnectionId) sendFrame(conn, frame);
  }
}
