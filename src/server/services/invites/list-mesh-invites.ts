import type { ServiceContext } from "../context";
import type { UserActor } from "../actor";
import { inviteSummarySelect } from "../selects";
import { openInviteCode } from "./invite-code";
import { issuerMayInviteWhere } from "./invite-issuer";
import { INVITE_DEFAULT_MAX_USES } from "./invite-state";
import { joinLinks, shortJoinUrl } from "./join-links";
import { TMeshInvitesInput } from "./list-mesh-invites.schema";

/** At most this many invites are listed, newest first; `more` says when there are others. */
export const MESH_INVITES_LIMIT = 50;

/**
 * The invites of a mesh that can still be used (not expired, not revoked, not used up, their issuer
 * still the owner or a mesh admin; the mesh not archived), with their links, for the mesh page. Who sees what is decided in the query: the mesh's
 * owner sees every one; a mesh admin sees those they issued themselves (an owner's admin invite is
 * not theirs to hand on, and these are exactly the ones they may revoke); anyone else sees none.
 */
export async function listMeshInvites(ctx: ServiceContext<UserActor>, input: TMeshInvitesInput) {
  const { meshId } = input;
  const now = ctx.now();
  const rows = await ctx.db.invite.findMany({
    where: {
      meshId,
      revokedAt: null,
      expiresAt: { gt: now },
      AND: [
        {
          OR: [
            { maxUses: null, usedCount: { lt: INVITE_DEFAULT_MAX_USES } },
            { usedCount: { lt: ctx.db.invite.fields.maxUses } },
          ],
        },
        // Not those whose issuer can no longer invite: they admit no one (invite-issuer.ts).
        issuerMayInviteWhere(meshId),
        {
          OR: [
            { mesh: { ownerUserId: ctx.actor.userId, archivedAt: null } },
            {
              createdByUserId: ctx.actor.userId,
              mesh: {
                archivedAt: null,
                members: { some: { userId: ctx.actor.userId, revokedAt: null, role: "admin" } },
              },
            },
          ],
        },
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: MESH_INVITES_LIMIT + 1,
    select: {
      ...inviteSummarySelect,
      token: true,
      shortCodeEnc: true,
      createdBy: { select: { id: true, name: true } },
    },
  });
  const items = rows.slice(0, MESH_INVITES_LIMIT).map(({ token, shortCodeEnc, ...invite }) => {
    const code = openInviteCode(ctx.sealer, invite.id, shortCodeEnc);
    return {
      ...invite,
      ...joinLinks(ctx.settings.publicBaseUrl, token),
      shortUrl: code ? shortJoinUrl(ctx.settings.publicBaseUrl, code) : null,
    };
  });
  return { items, more: rows.length > MESH_INVITES_LIMIT };
}
