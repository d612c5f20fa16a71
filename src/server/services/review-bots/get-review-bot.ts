import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import type { ServiceContext } from "../context";
import { visibleTo } from "../meshes/access";
import { roleOfUser } from "../meshes/member-roles";
import { LIVE_BOT } from "./live-bot";
import type { TReviewBotMeshInput } from "./review-bots.schema";

/**
 * The mesh's live review bot (public key only) for anyone who sees the mesh, and whether the person may
 * add or remove it (the owner or a mesh admin, while the mesh is not archived). Strangers: NOT_FOUND.
 */
export async function getReviewBot(ctx: ServiceContext<UserActor>, input: TReviewBotMeshInput) {
  const mesh = await ctx.db.mesh.findFirst({
    where: { id: input.meshId, ...visibleTo(ctx.actor.userId) },
    select: {
      ownerUserId: true,
      archivedAt: true,
      members: { where: { userId: ctx.actor.userId, revokedAt: null }, select: { role: true } },
      reviewBots: {
        where: LIVE_BOT,
        take: 1,
        select: {
          id: true,
          memberId: true,
          createdAt: true,
          member: {
            select: {
              displayName: true,
              peerPubkey: true,
              _count: { select: { presences: { where: { disconnectedAt: null } } } },
            },
          },
        },
      },
    },
  });
  if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
  const role = roleOfUser(
    mesh.ownerUserId === ctx.actor.userId,
    mesh.members.map((m) => m.role),
    "member",
  );
  const bot = mesh.reviewBots[0];
  return {
    canManage: !mesh.archivedAt && (role === "owner" || role === "admin"),
    bot: bot
      ? {
          botId: bot.id,
          memberId: bot.memberId,
          displayName: bot.member.displayName,
          peerPubkey: bot.member.peerPubkey ?? "",
          createdAt: bot.createdAt,
          online: bot.member._count.presences > 0,
        }
      : null,
  };
}
