import type { Db } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { recordAudit } from "../audit/record-audit";

// The broker's use cases over the database (connection auth lookup, presence rows), so that the
// broker's handlers stay free of Prisma.

export interface ConnectingPeer {
  memberId: string;
  meshId: string;
  peerPubkey: string;
  displayName: string;
  role: string;
  /** The mesh's current whole-mesh key epoch (docs/protocol.md, "Key epochs"). */
  keyEpoch: number;
}

/**
 * The member a connection claims to be, when it may connect: not revoked, joined with a peer key,
 * in a mesh that is not archived. The rule is in the query, so "no such member" and "not allowed"
 * look the same to the caller.
 */
export async function findConnectingPeer(db: Db, ids: { meshId: string; memberId: string }): Promise<ConnectingPeer | null> {
  const member = await db.member.findFirst({
    where: { id: ids.memberId, meshId: ids.meshId, revokedAt: null, peerPubkey: { not: null }, mesh: { archivedAt: null } },
    select: { id: true, meshId: true, peerPubkey: true, displayName: true, role: true, mesh: { select: { keyEpoch: true } } },
  });
  if (!member?.peerPubkey) return null;
  return { memberId: member.id, meshId: member.meshId, peerPubkey: member.peerPubkey, displayName: member.displayName, role: member.role, keyEpoch: member.mesh.keyEpoch };
}

export type ReservedPresence =
  | { ok: true; firstForMember: boolean; status: string; statusText: string | null }
  | { ok: false; reason: "capacity" | "member_capacity" | "ended" };

/**
 * Records a live connection (disconnectedAt null) unless its mesh already has `cap` live connections
 * on all nodes together, or its member `memberCap`. The count and the insert run under a per-mesh advisory lock, so concurrent
 * connects on any number of nodes cannot overshoot the cap. A presence whose node stopped refreshing
 * it for `staleMs` (a node that died) no longer counts. The new presence starts with the member's
 * last status.
 *
 * Two statements in one transaction (no interactive transaction, so a connect storm queues on the lock
 * instead of timing out): the lock, then count and insert together. The second statement takes its
 * snapshot after the lock is held, so it sees every presence committed by whoever held it before.
 */
export async function reservePresence(
  db: Db,
  p: { meshId: string; memberId: string; nodeId: string; connectionId: string; cap: number; memberCap?: number; staleMs: number },
): Promise<ReservedPresence> {
  const [, rows] = await db.$transaction([
    db.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`mesh-cap:${p.meshId}`}))::text`,
    db.$queryRaw<{ total: number; mine: number; live_member: number; status: string | null; status_text: string | null }[]>`
      WITH live AS (
        SELECT count(*)::int AS total, (count(*) FILTER (WHERE member_id = ${p.memberId}::uuid))::int AS mine
        FROM presences
        WHERE mesh_id = ${p.meshId}::uuid AND disconnected_at IS NULL
          AND last_seen_at > (now() AT TIME ZONE 'UTC') - ${p.staleMs}::int * interval '1 millisecond'
      ),
      member AS (
        SELECT m.status, m.status_text FROM members m JOIN meshes ms ON ms.id = m.mesh_id
        WHERE m.id = ${p.memberId}::uuid AND m.revoked_at IS NULL AND ms.archived_at IS NULL
      ),
      inserted AS (
        INSERT INTO presences (id, mesh_id, member_id, node_id, connection_id, status, status_text, connected_at, last_seen_at)
        SELECT ${uuidv7()}::uuid, ${p.meshId}::uuid, ${p.memberId}::uuid, ${p.nodeId}, ${p.connectionId},
               coalesce(member.status, 'online'), member.status_text, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
        FROM live JOIN member ON true
        WHERE live.total < ${p.cap} AND live.mine < ${p.memberCap ?? p.cap}
        RETURNING status, status_text
      )
      SELECT live.total, live.mine, (SELECT count(*) FROM member)::int AS live_member, inserted.status, inserted.status_text
      FROM live LEFT JOIN inserted ON true`,
  ]);
  const row = rows[0];
  // Removed, or the mesh archived, since the connection was checked (the removal may have just committed).
  if (row?.live_member === 0) return { ok: false, reason: "ended" };
  if (!row || row.status === null) return { ok: false, reason: row && row.total < p.cap ? "member_capacity" : "capacity" };
  return { ok: true, firstForMember: row.mine === 0, status: row.status, statusText: row.status_text };
}

/** Marks this node's live presences as seen now (the node is alive; see reservePresence's staleMs). */
export async function touchNodePresences(db: Db, nodeId: string): Promise<number> {
  const { count } = await db.presence.updateMany({ where: { nodeId, disconnectedAt: null }, data: { lastSeenAt: new Date() } });
  return count;
}

/** Live connections a member still has on any node (after one of its connections closed). */
export async function liveConnectionsOf(db: Db, memberId: string): Promise<number> {
  return db.presence.count({ where: { memberId, disconnectedAt: null } });
}

export interface LiveMember {
  memberId: string;
  displayName: string;
  role: string;
  boxPubkey: string | null;
}

/**
 * The members of a mesh that can receive messages: not revoked, joined with a peer key (members who
 * only use the web app never connect, so nothing is queued for them), in a mesh that is not archived.
 */
export async function listLiveMembers(db: Db, meshId: string): Promise<LiveMember[]> {
  const rows = await db.member.findMany({
    where: { meshId, revokedAt: null, peerPubkey: { not: null }, mesh: { archivedAt: null } },
    select: { id: true, displayName: true, role: true, boxPubkey: true },
    orderBy: { joinedAt: "asc" },
  });
  return rows.map((m) => ({ memberId: m.id, displayName: m.displayName, role: m.role, boxPubkey: m.boxPubkey }));
}

export interface PeerListing extends LiveMember {
  online: boolean;
  status: string | null;
  statusText: string | null;
}

/** Live members with whether they are connected anywhere and their last status (the `peers` frame). */
export async function listPeers(db: Db, meshId: string): Promise<PeerListing[]> {
  const rows = await db.member.findMany({
    where: { meshId, revokedAt: null, peerPubkey: { not: null }, mesh: { archivedAt: null } },
    select: {
      id: true,
      displayName: true,
      role: true,
      boxPubkey: true,
      status: true,
      statusText: true,
      _count: { select: { presences: { where: { disconnectedAt: null } } } },
    },
    orderBy: { joinedAt: "asc" },
  });
  return rows.map((m) => ({
    memberId: m.id,
    displayName: m.displayName,
    role: m.role,
    boxPubkey: m.boxPubkey,
    online: m._count.presences > 0,
    status: m.status,
    statusText: m.statusText,
  }));
}

/**
 * Stores a member's status on the member (kept for its next connection) and on its live presences,
 * with a `status_changed` audit event (the status name only). Null when the member may not set one.
 */
export async function setMemberStatus(
  db: Db,
  p: { meshId: string; memberId: string; status: string; text: string | null },
): Promise<{ at: Date; connected: boolean } | null> {
  const at = new Date();
  return db.$transaction(async (tx) => {
    const updated = await tx.member.updateMany({
      where: { id: p.memberId, meshId: p.meshId, revokedAt: null, mesh: { archivedAt: null } },
      data: { status: p.status, statusText: p.text, statusAt: at },
    });
    if (updated.count === 0) return null;
    const live = await tx.presence.updateMany({
      where: { memberId: p.memberId, disconnectedAt: null },
      data: { status: p.status, statusText: p.text, lastSeenAt: at },
    });
    await recordAudit(tx, { meshId: p.meshId, type: "status_changed", actorMemberId: p.memberId, metadata: { status: p.status } });
    return { at, connected: live.count > 0 };
  });
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
