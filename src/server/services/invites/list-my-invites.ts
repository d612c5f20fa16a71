import type { ServiceContext } from "../context";
import type { UserActor } from "../actor";
import { inviteState } from "./invite-state";
import { joinLinks } from "./join-links";
import { inviteSummarySelect } from "../selects";
import { visibleTo } from "../meshes/access";

/**
 * The invites the actor issued (newest first, at most 500), with their links and state, of meshes the
 * actor still owns or is a live member of: after leaving a mesh (or being removed), its invite
 * tokens are no longer the actor's to see.
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
      mesh: { select: { id: true, slug: true, name: true, archivedAt: true } },
    },
  });
  return rows.map((row) => ({
    ...row,
    state: inviteState(row, now),
    ...joinLinks(ctx.settings.publicBaseUrl, row.token),
  }));
}
