import type { Prisma } from "@/server/core/db";
import type { AppErrorCode } from "@/server/core/errors";

// Membership changes the broker nodes must act on at once (close a removed member's sockets, apply a
// new role, announce a new key epoch). They travel on the channel the nodes already LISTEN on for
// status and presence (broker/cluster/events.ts), sent with NOTIFY inside the transaction that makes
// the change, so a node hears of it exactly when it is committed. A node that was not listening then
// catches up from the member rows (broker/cluster/membership-sweep.ts).

/** Channel of mesh events between the web app and the broker nodes. */
export const EVENTS_CHANNEL = "broker_events";

/**
 * Why a member's connections end: error codes whose close code (ERROR_MAP) the broker closes them with,
 * the code as the reason (docs/protocol.md, "Close codes"). `mesh_deleted`: its owner deleted their
 * account, and the mesh with it (services/account/delete-account.ts).
 */
export const ENDED_REASONS = [
  "removed",
  "left",
  "mesh_archived",
  "mesh_deleted",
] as const satisfies readonly AppErrorCode[];
export type EndedReason = (typeof ENDED_REASONS)[number];

/** True when a string (read from a notification) is a reason connections end. */
export function isEndedReason(reason: string): reason is EndedReason {
  return (ENDED_REASONS as readonly string[]).includes(reason);
}

export type MeshEvent =
  | { t: "status"; meshId: string; memberId: string; status: string; text: string | null; at: string }
  | { t: "presence"; meshId: string; memberId: string; displayName: string; online: boolean; receiving?: boolean }
  /** A member's connections end (every member's when `memberId` is absent: the mesh was archived). */
  | { t: "ended"; meshId: string; memberId?: string; reason: EndedReason }
  | { t: "role"; meshId: string; memberId: string; role: string }
  /** A member joined (or its box key changed): member lists cached by the nodes are stale. */
  | { t: "joined"; meshId: string; memberId: string }
  | { t: "epoch"; meshId: string; epoch: number };

/** The NOTIFY payload: `n` is the sending node (the web app sends as "web"). */
export function eventPayload(nodeId: string, event: MeshEvent): string {
  return JSON.stringify({ n: nodeId, e: event });
}

/** Tells every broker node of a change, when (and only if) the transaction commits. */
export async function notifyBrokers(tx: Prisma.TransactionClient, ...events: MeshEvent[]): Promise<void> {
  for (const event of events) await tx.$executeRaw`SELECT pg_notify(${EVENTS_CHANNEL}, ${eventPayload("web", event)})`;
}
