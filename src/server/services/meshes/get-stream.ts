import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { visibleTo } from "./access";
import { type TMeshIdInput } from "./schemas";
import { auditActorSelect, namedAuditEvents } from "../audit/names";
import { countPeopleOnline } from "./people-online";

export const STREAM_LIMITS = { presences: 20, envelopes: 50, auditEvents: 20, members: 200 } as const;
export const CIPHERTEXT_PREVIEW_CHARS = 24;

interface MemberRow {
  id: string;
  displayName: string;
  userId: string | null;
  userName: string | null;
  device: boolean;
  role: "owner" | "admin" | "member" | "observer";
  status: string | null;
  statusText: string | null;
  statusAt: Date | null;
  connections: number;
  receivers: number;
  onlineSince: Date | null;
  lastSeenAt: Date | null;
  total: number;
}

/**
 * The live view of a mesh (same visibility rule as its detail): up to 20 live presences, the 50
 * newest envelopes as metadata plus a 24-character ciphertext preview, the 20 newest audit events with
 * the names of their actor and target, and the mesh's people: up to 200 live members, online ones
 * first, each with its status, since when, and whether it is a browser membership or a device; and the
 * count of people online of all its people, the home page's (people-online.ts).
 */
export async function getMeshStream(ctx: ServiceContext<UserActor>, input: TMeshIdInput) {
  const { meshId } = input;
  const mesh = await ctx.db.mesh.findFirst({
    where: { id: meshId, ...visibleTo(ctx.actor.userId) },
    select: { id: true },
  });
  if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
  const [presences, envelopes, auditEvents, members, people] = await Promise.all([
    ctx.db.presence.findMany({
      where: { meshId, disconnectedAt: null },
      orderBy: { connectedAt: "desc" },
      take: STREAM_LIMITS.presences,
      select: {
        id: true,
        memberId: true,
        status: true,
        statusText: true,
        connectedAt: true,
        lastSeenAt: true,
        member: { select: { displayName: true } },
      },
    }),
    // Only the first bytes of the ciphertext leave the database: enough for the preview, never more.
    ctx.db.$queryRaw<
      {
        id: string;
        senderMemberId: string;
        senderDisplayName: string;
        targetSpec: unknown;
        priority: string;
        createdAt: Date;
        deliveredAt: Date | null;
        byteSize: number;
        head: Buffer;
      }[]
    >`
      SELECT e.id, e.sender_member_id AS "senderMemberId", m.display_name AS "senderDisplayName",
             e.target_spec AS "targetSpec", e.priority::text AS priority, e.created_at AS "createdAt",
             d.delivered_at AS "deliveredAt", e.byte_size AS "byteSize", substring(e.ciphertext from 1 for 18) AS head
      FROM message_envelopes e JOIN members m ON m.id = e.sender_member_id
      LEFT JOIN message_deliveries d ON d.envelope_id = e.id
      WHERE e.mesh_id = ${meshId}::uuid
      ORDER BY e.created_at DESC, e.seq DESC
      LIMIT ${STREAM_LIMITS.envelopes}`,
    ctx.db.auditEvent.findMany({
      where: { meshId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: STREAM_LIMITS.auditEvents,
      select: {
        id: true,
        eventType: true,
        createdAt: true,
        actorUserId: true,
        metadata: true,
        ...auditActorSelect,
      },
    }),
    // Live members: online ones first (since their oldest live connection), then by when last seen.
    ctx.db.$queryRaw<MemberRow[]>`
      SELECT m.id, m.display_name AS "displayName", m.user_id AS "userId", u.name AS "userName",
             m.peer_pubkey IS NOT NULL AS device, m.role::text AS role, m.status, m.status_text AS "statusText",
             m.status_at AS "statusAt", p.connections, p.receivers, p.online_since AS "onlineSince", p.last_seen AS "lastSeenAt",
             count(*) OVER ()::int AS total
      FROM members m
      LEFT JOIN users u ON u.id = m.user_id
      CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE disconnected_at IS NULL)::int AS connections,
               count(*) FILTER (WHERE disconnected_at IS NULL AND receives)::int AS receivers,
               min(connected_at) FILTER (WHERE disconnected_at IS NULL) AS online_since,
               max(coalesce(disconnected_at, last_seen_at)) AS last_seen
        FROM presences WHERE member_id = m.id
      ) p
      WHERE m.mesh_id = ${meshId}::uuid AND m.revoked_at IS NULL
      ORDER BY p.connections > 0 DESC, p.last_seen DESC NULLS LAST, m.joined_at, m.id
      LIMIT ${STREAM_LIMITS.members}`,
    countPeopleOnline(ctx, { meshId }),
  ]);
  // The target of a member event is named by the member it concerns (kept after it left), else by
  // the name the event recorded.
  const named = await namedAuditEvents(ctx, { events: auditEvents, meshId });
  return {
    presences: presences.map(({ member, ...p }) => ({ ...p, displayName: member.displayName })),
    envelopes: envelopes.map(({ head, ...e }) => ({
      ...e,
      sender: { memberId: e.senderMemberId, displayName: e.senderDisplayName },
      // base64url, as the peer sent it: 18 bytes are exactly 24 characters, the start of the peer's text.
      ciphertextPreview: Buffer.from(head).toString("base64url").slice(0, CIPHERTEXT_PREVIEW_CHARS),
    })),
    auditEvents: named.map((a) => ({ ...a, id: a.id.toString() })),
    members: members.map(({ total: _total, connections, receivers, ...m }) => ({
      ...m,
      online: connections > 0,
      canReceive: receivers > 0,
    })),
    membersTotal: members[0]?.total ?? 0,
    people: { online: people.online, total: people.people },
  };
}
