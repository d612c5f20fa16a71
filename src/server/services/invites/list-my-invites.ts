import type { ServiceContext } from "../context";
import type { UserActor } from "../actor";
import { inviteState } from "./invite-state";
import { joinLinks } from "./join-links";
import { inviteSummarySelect } from "../selects";
import { visibleTo } from "../meshes/access";

/**
 * The invites the actor issued (newest first, at most 500), with their links and state, of meshes the
 * actor still owns or is a live member of: after leaving a mesh (or being removed), its invite
 * tokens are no longer the actor's to see. An invite of a mesh where the actor is no longer owner or mesh
 * admin (demoted) admits no one, so it shows as revoked (invite-issuer.ts).
 */
export async function listMyInvites(ctx: ServiceContext<UserActor>) {
  const now = ctx.now();
  const rows = await ctx.db.invite.findMany({
    where: { createdByUserId: ctx.actor.userId, mesh: visibleTo(ctx.actor.userId) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 500,
    select: {
      ...inviteSummarySelect,
      token: true,
      mesh: {
        select: {
          id: true,
          slug: true,
          name: true,
          archivedAt: true,
          ownerUserId: true,
          members: {
            where: { userId: ctx.actor.userId, revokedAt: null, role: "admin" },
            select: { id: true },
            take: 1,
          },
        },
      },
    },
  });
  return rows.map(({ mesh: { ownerUserId, members, ...mesh }, ...row }) => ({
    ...row,
    mesh,
    state: inviteState({ ...row, issuerMayInvite: ownerUserId === ctx.actor.userId || members.length > 0 }, now),
    ...joinLinks(ctx.settings.publicBaseUrl, row.token),
  }));
}
