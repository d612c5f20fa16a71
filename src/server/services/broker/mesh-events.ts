import type { Prisma } from "@/server/core/db";

// Membership changes the broker nodes must act on at once (close a removed member's sockets, apply a
// new role, announce a new key epoch). They travel on the channel the nodes already LISTEN on for
// status and presence (broker/cluster/events.ts), sent with NOTIFY inside the transaction that makes
// the change, so a node hears of it exactly when it is committed. A node that was not listening then
// catches up from the member rows (broker/cluster/membership-sweep.ts).

/** Channel of mesh events between the web app and the broker nodes. */
export const EVENTS_CHANNEL = "broker_events";

/** Why a member's connections end, with the close code the broker uses (docs/protocol.md, "Close codes"). */
export const ENDED_CLOSE = {
  removed: { code: 4403, reason: "removed" },
  left: { code: 4403, reason: "left" },
  mesh_archived: { code: 4410, reason: "mesh_archived" },
  /** Its owner deleted their account, and the mesh with it (services/account/delete-account.ts). */
  mesh_deleted: { code: 4410, reason: "mesh_deleted" },
} as const;
export type EndedReason = keyof typeof ENDED_CLOSE;

export type MeshEvent =
  | { t: "status"; meshId: string; memberId: string; status: string; text: string | null; at: string }
  | { t: "presence"; meshId: string; memberId: string; displayName: string; online: boolean }
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
