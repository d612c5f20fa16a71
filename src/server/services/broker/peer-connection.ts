import type { Db } from "@/server/core/db";

// The broker's use cases over the database (connection auth lookup, presence rows), so that the
// broker's handlers stay free of Prisma.

export interface ConnectingPeer {
  memberId: string;
  meshId: string;
  peerPubkey: string;
  displayName: string;
  role: string;
}

/**
 * The member a connection claims to be, when it may connect: not revoked, joined with a peer key,
 * in a mesh that is not archived. The rule is in the query, so "no such member" and "not allowed"
 * look the same to the caller.
 */
export async function findConnectingPeer(db: Db, ids: { meshId: string; memberId: string }): Promise<ConnectingPeer | null> {
  const member = await db.member.findFirst({
    where: { id: ids.memberId, meshId: ids.meshId, revokedAt: null, peerPubkey: { not: null }, mesh: { archivedAt: null } },
    select: { id: true, meshId: true, peerPubkey: true, displayName: true, role: true },
  });
  if (!member?.peerPubkey) return null;
  return { memberId: member.id, meshId: member.meshId, peerPubkey: member.peerPubkey, displayName: member.displayName, role: member.role };
}

/** Records a live connection (disconnectedAt null). */
export async function openPresence(db: Db, p: { meshId: string; memberId: string; nodeId: string; connectionId: string }): Promise<void> {
  await db.presence.create({ data: { meshId: p.meshId, memberId: p.memberId, nodeId: p.nodeId, connectionId: p.connectionId } });
}

/** Marks a connection's presence disconnected (idempotent). */
export async function closePresence(db: Db, connectionId: string, at: Date = new Date()): Promise<void> {
  await db.presence.updateMany({ where: { connectionId, disconnectedAt: null }, data: { disconnectedAt: at, lastSeenAt: at } });
}

/** Closes every presence a node left open (a crash or kill skips the close handlers); returns how many. */
export async function closeNodePresences(db: Db, nodeId: string, at: Date = new Date()): Promise<number> {
  const { count } = await db.presence.updateMany({ where: { nodeId, disconnectedAt: null }, data: { disconnectedAt: at, lastSeenAt: at } });
  return count;
}
