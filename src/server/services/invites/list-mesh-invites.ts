import { z } from "zod";
import type { UserActor } from "../actor";
import { nowOf, type MeshDeps } from "../meshes/deps";
import { ZMeshIdInput } from "../meshes/schemas";
import { inviteSummarySelect } from "../selects";
import { openInviteCode } from "./invite-code";
import { joinLinks, shortJoinUrl } from "./join-links";

/** At most this many invites are listed, newest first; `more` says when there are others. */
export const MESH_INVITES_LIMIT = 50;

export const ZMeshInvitesInput = ZMeshIdInput;
export type TMeshInvitesInput = z.input<typeof ZMeshInvitesInput>;

/**
 * The invites of a mesh that can still be used (not expired, not revoked, not used up; the mesh not
 * archived), with their links, for the mesh page. Who sees what is decided in the query: the mesh's
 * owner sees every one; a mesh admin sees those they issued themselves (an owner's admin invite is
 * not theirs to hand on, and these are exactly the ones they may revoke); anyone else sees none.
 */
export async function listMeshInvites(
  deps: Pick<MeshDeps, "db" | "now" | "publicBaseUrl" | "sealer">,
  actor: UserActor,
  raw: TMeshInvitesInput,
) {
  const { meshId } = ZMeshInvitesInput.parse(raw);
  const now = nowOf(deps);
  const rows = await deps.db.invite.findMany({
    where: {
      meshId,
      revokedAt: null,
      expiresAt: { gt: now },
      AND: [
        { OR: [{ maxUses: null }, { usedCount: { lt: deps.db.invite.fields.maxUses } }] },
        {
          OR: [
            { mesh: { ownerUserId: actor.userId, archivedAt: null } },
            {
              createdByUserId: actor.userId,
              mesh: { archivedAt: null, members: { some: { userId: actor.userId, revokedAt: null, role: "admin" } } },
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
    const code = openInviteCode(deps.sealer, invite.id, shortCodeEnc);
    return {
      ...invite,
      ...joinLinks(deps.publicBaseUrl, token),
      shortUrl: code ? shortJoinUrl(deps.publicBaseUrl, code) : null,
    };
  });
  return { items, more: rows.length > MESH_INVITES_LIMIT };
}
