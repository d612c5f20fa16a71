import type { ServiceContext } from "../context";
import type { MemberRole } from "@/generated/prisma/enums";
import type { UserActor } from "../actor";
import { inviteSummarySelect, meshSummarySelect } from "../selects";

export const EXPORT_AUDIT_LIMIT = 5000;

type Membership<T> = {
  role: MemberRole;
  displayName: string;
  joinedAt: Date;
  revokedAt: Date | null;
  peerPubkey: string | null;
  mesh: T;
};

/**
 * One entry per mesh joined: `membership` is the user's own (joined in the browser), else their first
 * device's; `devices` lists the command-line devices linked to the user (docs/mesh-api.md).
 */
function joinedMeshes<T extends { id: string }>(rows: readonly Membership<T>[]) {
  const byMesh = new Map<string, Membership<T>[]>();
  for (const r of rows) byMesh.set(r.mesh.id, [...(byMesh.get(r.mesh.id) ?? []), r]);
  return [...byMesh.values()].map((all) => {
    const own = all.find((m) => m.peerPubkey === null) ?? all[0]!;
    const { role, displayName, joinedAt, revokedAt } = own;
    const devices = all.flatMap(({ role, displayName, joinedAt, revokedAt, peerPubkey }) =>
      peerPubkey === null ? [] : [{ role, displayName, joinedAt, revokedAt, peerPubkey }],
    );
    return { ...own.mesh, membership: { role, displayName, joinedAt, revokedAt }, devices };
  });
}

/**
 * Everything the product holds about the actor (Document 3): profile, meshes owned, meshes joined,
 * invites issued, and audit events of owned meshes only (newest 5000). No secrets, tokens or ciphertext.
 */
export async function exportMyData(ctx: ServiceContext<UserActor>) {
  const db = ctx.db;
  // First the meshes owned: their audit events are read by mesh id (an audit event has no relation to its mesh).
  const meshesOwned = await db.mesh.findMany({
    where: { ownerUserId: ctx.actor.userId },
    orderBy: { createdAt: "asc" },
    select: meshSummarySelect,
  });
  const [profile, memberships, invitesIssued, auditEvents] = await Promise.all([
    db.user.findUniqueOrThrow({
      where: { id: ctx.actor.userId },
      select: { id: true, name: true, email: true, createdAt: true },
    }),
    db.member.findMany({
      where: { userId: ctx.actor.userId, mesh: { ownerUserId: { not: ctx.actor.userId } } },
      orderBy: { joinedAt: "asc" },
      select: {
        role: true,
        displayName: true,
        joinedAt: true,
        revokedAt: true,
        peerPubkey: true,
        mesh: { select: meshSummarySelect },
      },
    }),
    db.invite.findMany({
      where: { createdByUserId: ctx.actor.userId },
      orderBy: { createdAt: "asc" },
      select: { ...inviteSummarySelect, meshId: true },
    }),
    db.auditEvent.findMany({
      where: { meshId: { in: meshesOwned.map((m) => m.id) } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: EXPORT_AUDIT_LIMIT,
      select: {
        id: true,
        meshId: true,
        eventType: true,
        actorUserId: true,
        actorMemberId: true,
        metadata: true,
        createdAt: true,
      },
    }),
  ]);
  return {
    exportedAt: ctx.now().toISOString(),
    profile,
    meshesOwned,
    meshesJoined: joinedMeshes(memberships),
    invitesIssued,
    auditEvents: auditEvents.map((a) => ({ ...a, id: a.id.toString() })),
  };
}
