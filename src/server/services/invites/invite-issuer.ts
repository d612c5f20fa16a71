import type { Prisma } from "@/server/core/db";

// Who may have issued a usable invite (issue 41): the mesh's owner, or a user with a live `admin` member
// in the mesh (the only people who may issue invites: create-invite.ts). An invite whose issuer lost that
// right (removed, banned, demoted, left the mesh; a deleted account's invites are deleted with it) admits
// no one: joins answer `invite_revoked` and the preview `revoked`. The rule is read at every join, so it
// holds whatever took the right away; a removal can also revoke the invites for good (removeMember's
// `revokeInvites`), which a later promotion does not undo.

/** The rule inside a query of the invites of one mesh (the mesh id is the query's own). */
export function issuerMayInviteWhere(meshId: string): Prisma.InviteWhereInput {
  return {
    createdBy: {
      OR: [
        { meshesOwned: { some: { id: meshId } } },
        { memberships: { some: { meshId, revokedAt: null, role: "admin" } } },
      ],
    },
  };
}

/** True when the invite's issuer may still invite to its mesh (a step of the caller's join or preview). */
export async function issuerMayInvite(
  db: Pick<Prisma.TransactionClient, "member">,
  invite: { meshId: string; createdByUserId: string; mesh: { ownerUserId: string } },
): Promise<boolean> {
  if (invite.createdByUserId === invite.mesh.ownerUserId) return true;
  const admins = await db.member.count({
    where: { meshId: invite.meshId, userId: invite.createdByUserId, revokedAt: null, role: "admin" },
  });
  return admins > 0;
}

/** The users whose invites of a mesh are usable, from its members: the owner and its live admins. */
export function inviters(
  ownerUserId: string,
  members: readonly { userId: string | null; role: string; revokedAt: Date | null }[],
): Set<string> {
  const ids = new Set([ownerUserId]);
  for (const m of members) if (m.userId && !m.revokedAt && m.role === "admin") ids.add(m.userId);
  return ids;
}
