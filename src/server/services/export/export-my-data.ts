import type { UserActor } from "../actor";
import type { MeshDeps } from "../meshes/deps";
import { inviteSummarySelect, meshSummarySelect } from "../selects";

export const EXPORT_AUDIT_LIMIT = 5000;


/**
 * Everything the product holds about the actor (Document 3): profile, meshes owned, meshes joined,
 * invites issued, and audit events of owned meshes only (newest 5000). No secrets, tokens or ciphertext.
 */
export async function exportMyData(deps: Pick<MeshDeps, "db" | "now">, actor: UserActor) {
  const db = deps.db;
  const [profile, meshesOwned, memberships, invitesIssued, auditEvents] = await Promise.all([
    db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { id: true, name: true, email: true, createdAt: true } }),
    db.mesh.findMany({ where: { ownerUserId: actor.userId }, orderBy: { createdAt: "asc" }, select: meshSummarySelect }),
    db.member.findMany({
      where: { userId: actor.userId, mesh: { ownerUserId: { not: actor.userId } } },
      orderBy: { joinedAt: "asc" },
      select: { role: true, displayName: true, joinedAt: true, revokedAt: true, mesh: { select: meshSummarySelect } },
    }),
    db.invite.findMany({
      where: { createdByUserId: actor.userId },
      orderBy: { createdAt: "asc" },
      select: { ...inviteSummarySelect, meshId: true },
    }),
    db.auditEvent.findMany({
      where: { mesh: { ownerUserId: actor.userId } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: EXPORT_AUDIT_LIMIT,
      select: { id: true, meshId: true, eventType: true, actorUserId: true, actorMemberId: true, metadata: true, createdAt: true },
    }),
  ]);
  return {
    exportedAt: (deps.now ? deps.now() : new Date()).toISOString(),
    profile,
    meshesOwned,
    meshesJoined: memberships.map(({ mesh, ...m }) => ({ ...mesh, membership: m })),
    invitesIssued,
    auditEvents: auditEvents.map((a) => ({ ...a, id: a.id.toString() })),
  };
}
