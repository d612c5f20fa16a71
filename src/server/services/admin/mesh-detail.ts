import type { AdministratorActor } from "../actor";
import type { ServiceContext } from "../context";
import { inviteState } from "../invites/invite-state";
import { inviteSummarySelect, meshSummarySelect } from "../selects";
import { auditActorSelect, namedAuditEvents } from "../audit/names";

export const ADMIN_DETAIL_AUDIT_LIMIT = 50;

/** One mesh with members, presences, invites and its last 50 audit events; `mesh: null` when absent. */
export async function adminMeshDetail(ctx: ServiceContext<AdministratorActor>, input: { meshId: string }) {
  const now = ctx.now();
  const { meshId } = input;
  const mesh = await ctx.db.mesh.findUnique({
    where: { id: meshId },
    select: {
      ...meshSummarySelect,
      ownerPubkey: true,
      owner: { select: { id: true, name: true, email: true } },
    },
  });
  if (!mesh) return { mesh: null, members: [], presences: [], invites: [], auditEvents: [] };
  const [members, presences, invites, auditEvents] = await Promise.all([
    ctx.db.member.findMany({
      where: { meshId },
      orderBy: { joinedAt: "asc" },
      select: { id: true, userId: true, displayName: true, role: true, joinedAt: true, revokedAt: true },
    }),
    ctx.db.presence.findMany({
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
    ctx.db.invite.findMany({
      where: { meshId },
      orderBy: { createdAt: "desc" },
      take: 200,
      select: { ...inviteSummarySelect, createdBy: { select: { id: true, name: true } } },
    }),
    ctx.db.auditEvent.findMany({
      where: { meshId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: ADMIN_DETAIL_AUDIT_LIMIT,
      select: { id: true, eventType: true, actorUserId: true, metadata: true, createdAt: true, ...auditActorSelect },
    }),
  ]);
  const named = await namedAuditEvents(ctx, { events: auditEvents, meshId, withEmail: true });
  return {
    mesh,
    members,
    presences,
    invites: invites.map((i) => ({ ...i, state: inviteState(i, now) })),
    auditEvents: named.map((a) => ({ ...a, id: a.id.toString() })),
  };
}
