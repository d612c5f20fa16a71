import { AppError } from "@/server/core/errors";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";
import { LIVE_BOT } from "../review-bots/live-bot";
import { sendAsReviewBot } from "../review-bots/send-as-bot";
import type { MeshSender } from "./deliver-alerts";

/**
 * Sends an alert into a mesh as its live review bot (docs/mesh-api.md, "Review bot"), end-to-end
 * encrypted to the group's members. Rejects with a short code: `bot_gone` (no live bot: the mesh's
 * owner removed it, or the mesh is archived), `group_empty` (no member of the group), `group_too_large`
 * (all three final), or `review_bot_send_failed` (the broker away or slow: retried).
 */
export function reviewBotSender(ctx: ServiceContext<SystemActor>): MeshSender {
  return async ({ meshId, group, text, dedupeId }) => {
    const bot = await ctx.db.reviewBot.findFirst({ where: { meshId, ...LIVE_BOT }, select: { id: true } });
    if (!bot) throw new Error("bot_gone");
    try {
      const sent = await sendAsReviewBot(ctx, { botId: bot.id, group, text, dedupeId });
      if (sent.recipients === 0) throw new Error("group_empty");
    } catch (error) {
      if (error instanceof AppError) throw new Error(error.message);
      throw error;
    }
  };
}
