import type { Db } from "@/server/core/db";
import { inviteState } from "../invites/invite-state";
import { ZMeshIdInput } from "../meshes/schemas";
import { inviteSummarySelect, meshSummarySelect } from "../selects";
import { auditActorSelect, namedAuditEvents } from "../audit/names";

export const ADMIN_DETAIL_AUDIT_LIMIT = 50;

/** One mesh with members, presences, invites and its last 50 audit events; `mesh: null` when absent. */
export async function adminMeshDetail(db: Db, raw: { meshId: string }, now: Date = new Date()) {
  const { meshId } = ZMeshIdInput.parse(raw);
  const mesh = await db.mesh.findUnique({
    where: { id: meshId },
    select: {
      ...meshSummarySelect,
      ownerPubkey: true,
      owner: { select: { id: true, name: true, email: true } },
    },
  });
  if (!mesh) return { mesh: null, members: [], presences: [], invites: [], auditEvents: [] };
  const [members, presences, invites, auditEvents] = await Promise.all([
    db.member.findMany({
      where: { meshId },
      orderBy: { joinedAt: "asc" },
      select: { id: true, userId: true, displayName: true, role: true, joinedAt: true, revokedAt: true },
    }),
    db.presence.findMany({
      where: { meshId },
      orderBy: { connectedAt: "desc" },
      take: 200,
      select: {
        id: true,
        memberId: true,
        nodeId: true,
        status: true,
        connectedAt: true,
        lastSeenAt: true,
        disconnectedAt: true,
      },
    }),
    db.invite.findMany({
      where: { meshId },
      orderBy: { createdAt: "desc" },
      take: 200,
      select: { ...inviteSummarySelect, createdBy: { select: { id: true, name: true } } },
    }),
    db.auditEvent.findMany({
      where: { meshId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: ADMIN_DETAIL_AUDIT_LIMIT,
      select: { id: true, eventType: true, actorUserId: true, metadata: true, createdAt: true, ...auditActorSelect },
    }),
  ]);
  const named = await namedAuditEvents(db, auditEvents, { meshId, withEmail: true });
  return {
    mesh,
    members,
    presences,
    invites: invites.map((i) => ({ ...i, state: inviteState(i, now) })),
    auditEvents: named.map((a) => ({ ...a, id: a.id.toString() })),
  };
}
