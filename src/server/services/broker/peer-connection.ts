import type pg from "pg";
import { Prisma, sqlRows } from "@/server/core/db";
import { uuidv7 } from "@/server/core/ids";
import { lockStatement, meshCapLock } from "@/server/core/locks";
import { inTransaction } from "../../core/pg-transaction";
import type { PeerActor, SystemActor, VisitorActor } from "../actor";
import type { ServiceContext } from "../context";

// The broker's use cases over the database (connection auth lookup, presence rows), so that the
// broker's handlers stay free of Prisma. A connected peer's frames and signed requests act as that peer;
// the checks before a peer is known act as the visitor; node-wide work acts as the system.

export interface ConnectingPeer {
  memberId: string;
  meshId: string;
  peerPubkey: string;
  displayName: string;
  role: string;
  /** The mesh's current whole-mesh key epoch (docs/protocol.md, "Key epochs"). */
  keyEpoch: number;
  /** The member that made this session member (POST /session); null for a machine's own member. */
  parentMemberId: string | null;
}

/**
 * The member a connection claims to be, when it may connect: not revoked, joined with a peer key,
 * in a mesh that is not archived. The rule is in the query, so "no such member" and "not allowed"
 * look the same to the caller.
 */
export async function findConnectingPeer(
  ctx: ServiceContext<VisitorActor>,
  ids: { meshId: string; memberId: string },
): Promise<ConnectingPeer | null> {
  // A prepared statement straight on the pool: every connection attempt runs it (connect storms).
  const rows = await sqlRows<{
    id: string;
    mesh_id: string;
    peer_pubkey: string;
    display_name: string;
    role: string;
    key_epoch: number;
    parent_member_id: string | null;
  }>(
    ctx.db,
    // A session member only while its parent is live (every way a parent ends ends its sessions too;
    // this keeps a session that one of them missed from connecting or signing anyway).
    Prisma.sql`SELECT m.id::text, m.mesh_id::text, m.peer_pubkey, m.display_name, m.role::text, ms.key_epoch,
        m.parent_member_id::text
      FROM members m JOIN meshes ms ON ms.id = m.mesh_id
        LEFT JOIN members parent ON parent.id = m.parent_member_id
      WHERE m.id = ${ids.memberId}::uuid AND m.mesh_id = ${ids.meshId}::uuid
        AND m.revoked_at IS NULL AND m.peer_pubkey IS NOT NULL AND ms.archived_at IS NULL
        AND (m.parent_member_id IS NULL OR (parent.revoked_at IS NULL AND parent.mesh_id = m.mesh_id))`,
  );
  const member = rows[0];
  if (!member) return null;
  return {
    memberId: member.id,
    meshId: member.mesh_id,
    peerPubkey: member.peer_pubkey,
    displayName: member.display_name,
    role: member.role,
    keyEpoch: member.key_epoch,
    parentMemberId: member.parent_member_id,
  };
}

export type ReservedPresence =
  | {
      ok: true;
      firstForMember: boolean;
      /** This connection receives and none of the member's other live ones did: the member can receive now. */
      firstReceiving: boolean;
      status: string;
      statusText: string | null;
    }
  | { ok: false; reason: "capacity" | "member_capacity" | "invite_capacity" | "ended" };

/** Where a presence is counted and recorded: the node, the connection and the caps it counts against. */
export interface PresenceToReserve {
  nodeId: string;
  connectionId: string;
  cap: number;
  memberCap?: number;
  /**
   * Live connections of all the members who joined through the member's invite together (issue 41: one
   * invite must not fill a mesh with many keys); members without a recorded invite count alone.
   */
  inviteCap?: number;
  staleMs: number;
  /** False for a connection that only sends (`receive=0`): its member is not one that can receive now. */
  receives?: boolean;
}

/**
 * Records the peer's live connection (disconnectedAt null) unless its mesh already has `cap` live connections
 * on all nodes together, its member `memberCap`, or the members who joined through its member's invite
 * `inviteCap`. The count and the insert run under a per-mesh advisory lock, so concurrent
 * connects on any number of nodes cannot overshoot the cap. A presence whose node stopped refreshing
 * it for `staleMs` (a node that died) no longer counts. The new presence starts with the member's
 * last status.
 *
 * Two statements in one plain pg transaction on the broker's queue pool (no Prisma transaction, so a
 * connect storm queues on the lock instead of timing out): the lock, then count and insert together.
 * The second statement takes its snapshot after the lock is held, so it sees every presence committed
 * by whoever held it before. That pool comes with the context (`pool`), beside the Prisma client.
 */
export async function reservePresence(
  ctx: ServiceContext<PeerActor> & { pool: pg.Pool },
  input: PresenceToReserve,
): Promise<ReservedPresence> {
  const p = { ...input, meshId: ctx.actor.meshId, memberId: ctx.actor.memberId };
  const row = await inTransaction(ctx.pool, async (client) => {
    const lock = lockStatement("pg_advisory_xact_lock", meshCapLock(p.meshId));
    await client.query(lock.text, lock.values);
    const { rows } = await client.query<{
      total: number;
      mine: number;
      mine_receiving: number;
      invite: number;
      live_member: number;
      status: string | null;
      status_text: string | null;
    }>(
      `WITH live AS (
         SELECT count(*)::int AS total, (count(*) FILTER (WHERE p.member_id = $2::uuid))::int AS mine,
                (count(*) FILTER (WHERE p.member_id = $2::uuid AND p.receives))::int AS mine_receiving,
                (count(*) FILTER (WHERE im.invite_id = (SELECT invite_id FROM members WHERE id = $2::uuid)))::int AS invite
         FROM presences p LEFT JOIN members im ON im.id = p.member_id
         WHERE p.mesh_id = $1::uuid AND p.disconnected_at IS NULL
           AND p.last_seen_at > (now() AT TIME ZONE 'UTC') - $7::int * interval '1 millisecond'
       ),
       member AS (
         SELECT m.status, m.status_text FROM members m JOIN meshes ms ON ms.id = m.mesh_id
         WHERE m.id = $2::uuid AND m.revoked_at IS NULL AND ms.archived_at IS NULL
       ),
       inserted AS (
         INSERT INTO presences (id, mesh_id, member_id, node_id, connection_id, status, status_text, connected_at, last_seen_at, receives)
         SELECT $3::uuid, $1::uuid, $2::uuid, $4, $5, coalesce(member.status, 'online'), member.status_text,
                now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', $10::boolean
         FROM live JOIN member ON true
         WHERE live.total < $6 AND live.mine < $8 AND live.invite < $9
         RETURNING status, status_text
       )
       SELECT live.total, live.mine, live.mine_receiving, live.invite, (SELECT count(*) FROM member)::int AS live_member, inserted.status, inserted.status_text
       FROM live LEFT JOIN inserted ON true`,
      [
        p.meshId,
        p.memberId,
        uuidv7(),
        p.nodeId,
        p.connectionId,
        p.cap,
        p.staleMs,
        p.memberCap ?? p.cap,
        p.inviteCap ?? p.cap,
        p.receives ?? true,
      ],
    );
    return rows[0];
  });
  // Removed, or the mesh archived, since the connection was checked (the removal may have just committed).
  if (row?.live_member === 0) return { ok: false, reason: "ended" };
  if (!row || row.status === null) {
    if (!row || row.total >= p.cap) return { ok: false, reason: "capacity" };
    return { ok: false, reason: row.mine >= (p.memberCap ?? p.cap) ? "member_capacity" : "invite_capacity" };
  }
  return {
    ok: true,
    firstForMember: row.mine === 0,
    firstReceiving: (p.receives ?? true) && row.mine_receiving === 0,
    status: row.status,
    statusText: row.status_text,
  };
}

/** Marks this node's live presences as seen now (the node is alive; see reservePresence's staleMs). */
export async function touchNodePresences(ctx: ServiceContext<SystemActor>, input: { nodeId: string }): Promise<number> {
  const { count } = await ctx.db.presence.updateMany({
    where: { nodeId: input.nodeId, disconnectedAt: null },
    data: { lastSeenAt: ctx.now() },
  });
  return count;
}

/**
 * Closes, at the time they were last refreshed, the presences no node refreshed for `staleMs` (three ping
 * intervals): their node died and did not come back, so nobody else would close them, and the pages
 * that count people online (people-online.ts) read `disconnected_at`. Every node runs it; it is idempotent.
 */
export async function closeStalePresences(
  ctx: ServiceContext<SystemActor>,
  input: { staleMs: number },
): Promise<number> {
  return ctx.db.$executeRaw`UPDATE presences SET disconnected_at = last_seen_at
    WHERE disconnected_at IS NULL AND last_seen_at < ${new Date(ctx.now().getTime() - input.staleMs)}::timestamptz AT TIME ZONE 'UTC'`;
}

/** Live connections the peer's member still has on any node (after one of its connections closed). */
export async function liveConnectionsOf(ctx: ServiceContext<PeerActor>): Promise<{ live: number; receiving: number }> {
  const where = { memberId: ctx.actor.memberId, disconnectedAt: null };
  const [live, receiving] = await Promise.all([
    ctx.db.presence.count({ where }),
    ctx.db.presence.count({ where: { ...where, receives: true } }),
  ]);
  return { live, receiving };
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
export async function listLiveMembers(
  ctx: ServiceContext<SystemActor>,
  input: { meshId: string },
): Promise<LiveMember[]> {
  const rows = await ctx.db.member.findMany({
    where: { meshId: input.meshId, revokedAt: null, peerPubkey: { not: null }, mesh: { archivedAt: null } },
    select: { id: true, displayName: true, role: true, boxPubkey: true },
    orderBy: { joinedAt: "asc" },
  });
  return rows.map((m) => ({ memberId: m.id, displayName: m.displayName, role: m.role, boxPubkey: m.boxPubkey }));
}

export interface PeerListing extends LiveMember {
  /** The member's ed25519 key (base64url): with `boxPubkey`, what a safety number is made of (docs/protocol.md). */
  peerPubkey: string;
  online: boolean;
  /**
   * Whether a message reaches the member now: one of its live connections takes messages (an MCP server,
   * `mesh watch`), not only ones that send (the one-shot command line). `online` without it: it only sends.
   */
  receiving: boolean;
  /** The member that made this session member (docs/cli.md, "One identity per session"); else null. */
  parentMemberId: string | null;
  groups: string[];
  /** The account the member belongs to (its machine is the display name), when it joined signed in. */
  userName: string | null;
  status: string | null;
  statusText: string | null;
}

/** Live members of the peer's mesh with whether they are connected anywhere and their last status (the `peers` frame). */
export async function listPeers(ctx: ServiceContext<PeerActor>): Promise<PeerListing[]> {
  const rows = await ctx.db.member.findMany({
    where: { meshId: ctx.actor.meshId, revokedAt: null, peerPubkey: { not: null }, mesh: { archivedAt: null } },
    select: {
      id: true,
      displayName: true,
      role: true,
      peerPubkey: true,
      boxPubkey: true,
      status: true,
      statusText: true,
      groups: true,
      parentMemberId: true,
      user: { select: { name: true } },
      presences: { where: { disconnectedAt: null }, select: { receives: true }, take: 10 },
    },
    orderBy: { joinedAt: "asc" },
  });
  return rows.map((m) => ({
    memberId: m.id,
    displayName: m.displayName,
    role: m.role,
    // Never null here: the query takes members with a peer key only.
    peerPubkey: m.peerPubkey ?? "",
    boxPubkey: m.boxPubkey,
    online: m.presences.length > 0,
    receiving: m.presences.some((p) => p.receives),
    parentMemberId: m.parentMemberId,
    status: m.status,
    statusText: m.statusText,
    groups: m.groups,
    userName: m.user?.name ?? null,
  }));
}

/**
 * How long one `status_changed` audit row of a member gathers its status updates (issue 41, attack 7: a
 * hook or a client setting its status over and over wrote one row per update, for good). The row first
 * written in a window takes the later updates of that window: its `metadata.status` is the latest status,
 * `updates` how many it stands for and `since` when the first of them came; `created_at` moves to the
 * latest (which also finds the row again: it equals the member's `status_at`). At most one row per member
 * per window, and the audit log still tells when a member's status changed and to what it ended.
 */
export const STATUS_AUDIT_WINDOW_MS = 60_000;

/**
 * Stores the peer's status on its member (kept for its next connection) and on its live presences,
 * with a `status_changed` audit event (the status name only), coalesced per STATUS_AUDIT_WINDOW_MS.
 * Null when the member may not set one.
 */
export async function setMemberStatus(
  ctx: ServiceContext<PeerActor>,
  input: { status: string; text: string | null; leaseMs?: number | null },
): Promise<{ at: Date; connected: boolean } | null> {
  const p = { ...input, meshId: ctx.actor.meshId, memberId: ctx.actor.memberId };
  const lease = p.leaseMs ?? null;
  // One statement (no transaction to start or time out under load): member, live presences, audit. `prev`
  // reads the member's status_at before this update (every CTE sees the statement's snapshot); the
  // member's last status row, if it is still gathering, has exactly that created_at (an index lookup on
  // (mesh_id, created_at)). Two updates racing may both insert: the bound is per window, not exact.
  const rows = await ctx.db.$queryRaw<{ at: Date; live: number }[]>`
    WITH prev AS (
      SELECT status_at FROM members WHERE id = ${p.memberId}::uuid AND mesh_id = ${p.meshId}::uuid
    ),
    m AS (
      UPDATE members mem SET status = ${p.status}, status_text = ${p.text}, status_at = now() AT TIME ZONE 'UTC',
        status_lease_until = CASE WHEN ${lease}::int IS NULL THEN NULL ELSE now() AT TIME ZONE 'UTC' + ${lease}::int * interval '1 millisecond' END
      FROM meshes ms
      WHERE mem.id = ${p.memberId}::uuid AND mem.mesh_id = ${p.meshId}::uuid AND ms.id = mem.mesh_id
        AND mem.revoked_at IS NULL AND ms.archived_at IS NULL
      RETURNING mem.id, mem.status_at
    ),
    live AS (
      UPDATE presences SET status = ${p.status}, status_text = ${p.text}, last_seen_at = now() AT TIME ZONE 'UTC'
      WHERE member_id IN (SELECT id FROM m) AND disconnected_at IS NULL
      RETURNING 1
    ),
    gathered AS (
      UPDATE audit_events a SET created_at = m.status_at,
        metadata = jsonb_build_object(
          'status', ${p.status}::text,
          'updates', coalesce((a.metadata->>'updates')::int, 1) + 1,
          'since', coalesce(a.metadata->>'since', to_char(a.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      FROM m, prev
      WHERE a.mesh_id = ${p.meshId}::uuid AND a.created_at = prev.status_at
        AND a.event_type = 'status_changed'::audit_event_type AND a.actor_member_id = m.id
        AND NOT (a.metadata ? 'lease')
        AND coalesce((a.metadata->>'since')::timestamp, a.created_at) > m.status_at - ${STATUS_AUDIT_WINDOW_MS}::int * interval '1 millisecond'
      RETURNING 1
    ),
    audit AS (
      INSERT INTO audit_events (mesh_id, event_type, actor_member_id, metadata, created_at)
      SELECT ${p.meshId}::uuid, 'status_changed'::audit_event_type, m.id, jsonb_build_object('status', ${p.status}::text), m.status_at
      FROM m WHERE NOT EXISTS (SELECT 1 FROM gathered)
      RETURNING 1
    )
    SELECT m.status_at AS at, (SELECT count(*) FROM live)::int AS live,
      (SELECT count(*) FROM audit)::int + (SELECT count(*) FROM gathered)::int AS audited FROM m`;
  const row = rows[0];
  return row ? { at: row.at, connected: row.live > 0 } : null;
}

/**
 * Ends the status leases that lapsed (docs/protocol.md, "Status that stays true"): such a member's
 * status returns to `idle` when it has a live connection, else `offline`, without text, with a
 * `status_changed` audit event. One statement; a member whose lease two nodes sweep at once is changed
 * (and returned) by one of them only. Returns the changes, for the peers to be told.
 */
export async function lapseStatusLeases(
  ctx: ServiceContext<SystemActor>,
  input: { limit?: number } = {},
): Promise<{ meshId: string; memberId: string; status: string; at: Date }[]> {
  const limit = input.limit ?? 1_000;
  return ctx.db.$queryRaw<{ meshId: string; memberId: string; status: string; at: Date }[]>`
    WITH due AS (
      SELECT id FROM members WHERE status_lease_until <= now() AT TIME ZONE 'UTC' ORDER BY status_lease_until LIMIT ${limit}::int FOR UPDATE SKIP LOCKED
    ), m AS (
      UPDATE members mem SET
        status = CASE WHEN EXISTS (SELECT 1 FROM presences p WHERE p.member_id = mem.id AND p.disconnected_at IS NULL) THEN 'idle' ELSE 'offline' END,
        status_text = NULL, status_at = now() AT TIME ZONE 'UTC', status_lease_until = NULL
      FROM due WHERE mem.id = due.id
      RETURNING mem.id, mem.mesh_id, mem.status, mem.status_at
    ), live AS (
      UPDATE presences p SET status = m.status, status_text = NULL FROM m WHERE p.member_id = m.id AND p.disconnected_at IS NULL RETURNING 1
    ), audit AS (
      INSERT INTO audit_events (mesh_id, event_type, actor_member_id, metadata)
      SELECT m.mesh_id, 'status_changed'::audit_event_type, m.id, jsonb_build_object('status', m.status, 'lease', 'lapsed') FROM m RETURNING 1
    )
    SELECT m.mesh_id::text AS "meshId", m.id::text AS "memberId", m.status, m.status_at AS at FROM m`;
}

/** Renews the peer's status lease, if it has one (the peer is active). */
export async function renewStatusLease(ctx: ServiceContext<PeerActor>, input: { leaseMs: number }): Promise<void> {
  await ctx.db.$executeRaw`
    UPDATE members SET status_lease_until = now() AT TIME ZONE 'UTC' + ${input.leaseMs}::int * interval '1 millisecond'
    WHERE id = ${ctx.actor.memberId}::uuid AND status_lease_until IS NOT NULL`;
}

/** Marks one of the peer's connections' presence disconnected (idempotent). */
export async function closePresence(ctx: ServiceContext<PeerActor>, input: { connectionId: string }): Promise<void> {
  const at = ctx.now();
  await ctx.db.presence.updateMany({
    where: { connectionId: input.connectionId, disconnectedAt: null },
    data: { disconnectedAt: at, lastSeenAt: at },
  });
}

/** Closes every presence a node left open (a crash or kill skips the close handlers); returns how many. */
export async function closeNodePresences(ctx: ServiceContext<SystemActor>, input: { nodeId: string }): Promise<number> {
  const at = ctx.now();
  const { count } = await ctx.db.presence.updateMany({
    where: { nodeId: input.nodeId, disconnectedAt: null },
    data: { disconnectedAt: at, lastSeenAt: at },
  });
  return count;
}
