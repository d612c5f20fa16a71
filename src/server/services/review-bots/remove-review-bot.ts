import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import type { ServiceContext } from "../context";
import { visibleTo } from "../meshes/access";
import { removeMember } from "../meshes/members";
import { LIVE_BOT } from "./live-bot";
import type { TReviewBotMeshInput } from "./review-bots.schema";

/**
 * Removes the mesh's review bot: its member is removed as any member is (members.ts: the owner or a mesh
 * admin; sockets closed, queue dropped, key epoch raised, audited), then its sealed keys are deleted.
 * Strangers get NOT_FOUND; a mesh without a live bot NOT_FOUND `review_bot_not_found`.
 */
export async function removeReviewBot(ctx: ServiceContext<UserActor>, input: TReviewBotMeshInput) {
  const bot = await ctx.db.reviewBot.findFirst({
    where: { meshId: input.meshId, mesh: visibleTo(ctx.actor.userId), ...LIVE_BOT },
    select: { id: true, memberId: true },
  });
  if (!bot) {
    const visible = await ctx.db.mesh.count({ where: { id: input.meshId, ...visibleTo(ctx.actor.userId) } });
    throw new AppError("NOT_FOUND", visible > 0 ? "review_bot_not_found" : "mesh_not_found");
  }
  // removeMember checks who may (a plain member gets FORBIDDEN, as for any removal).
  await removeMember(ctx, { meshId: input.meshId, memberId: bot.memberId });
  const deleted = await ctx.db.reviewBot.deleteMany({ where: { id: bot.id } });
  return { botId: bot.id, memberId: bot.memberId, removed: deleted.count > 0 };
}
