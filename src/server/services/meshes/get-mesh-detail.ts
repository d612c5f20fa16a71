import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { inviteState } from "../invites/invite-state";
import { inviters } from "../invites/invite-issuer";
import { visibleTo } from "./access";
import { roleOfUser } from "./member-roles";
import { type TMeshIdInput } from "./schemas";
import { inviteSummarySelect, meshSummarySelect } from "../selects";

/** A visible mesh with its members and invites (never its secret key, root key or invite tokens). */
export async function getMeshDetail(ctx: ServiceContext<UserActor>, input: TMeshIdInput) {
  const { meshId } = input;
  const mesh = await ctx.db.mesh.findFirst({
    where: { id: meshId, ...visibleTo(ctx.actor.userId) },
    select: {
      ...meshSummarySelect,
      ownerUserId: true,
      ownerPubkey: true,
      owner: { select: { name: true } },
      members: {
        orderBy: { joinedAt: "asc" },
        select: {
          id: true,
          userId: true,
          displayName: true,
          role: true,
          joinedAt: true,
          revokedAt: true,
          peerPubkey: true,
          status: true,
          statusText: true,
          user: { select: { name: true } },
          // The newest connection says whether the member is online, else when it was last seen.
          presences: { orderBy: { lastSeenAt: "desc" }, take: 1, select: { lastSeenAt: true, disconnectedAt: true } },
          // Whether a message reaches it now: a live connection that takes messages (not one that only sends).
          _count: { select: { presences: { where: { disconnectedAt: null, receives: true } } } },
          parentMemberId: true,
          browserDevice: true,
        },
      },
      invites: {
        orderBy: { createdAt: "desc" },
        take: 200,
        select: { ...inviteSummarySelect, createdBy: { select: { id: true, name: true } } },
      },
    },
  });
  // A stranger gets the same answer for a mesh that exists as for one that does not.
  if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
  const now = ctx.now();
  const isOwner = mesh.ownerUserId === ctx.actor.userId;
  const canInvite = inviters(mesh.ownerUserId, mesh.members);
  const { owner, members, invites, ...rest } = mesh;
  return {
    mesh: { ...rest, ownerName: owner.name },
    isOwner,
    myRole: roleOfUser(
      isOwner,
      members.filter((m) => m.userId === ctx.actor.userId && !m.revokedAt).map((m) => m.role),
      "member",
    ),
    members: members.map(({ user, presences, _count, ...m }) => ({
      ...m,
      userName: user?.name ?? null,
      online: presences[0] !== undefined && presences[0].disconnectedAt === null && !m.revokedAt,
      canReceive: _count.presences > 0 && !m.revokedAt,
      lastSeenAt: presences[0] ? (presences[0].disconnectedAt ?? presences[0].lastSeenAt) : null,
    })),
    // An invite whose issuer is no longer the owner or a live mesh admin admits no one: shown revoked.
    invites: invites.map((i) => ({
      ...i,
      state: inviteState({ ...i, issuerMayInvite: canInvite.has(i.createdBy.id) }, now),
    })),
  };
}
