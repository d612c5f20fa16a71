import { needsReseal, reseal, type KeyRing } from "@/server/core/crypto/seal";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";
import { boxKeyAad, signKeyAad } from "./bot-keys";

/**
 * Re-seals every review bot's secret keys under the ring's first key (rotation step 3, docs/secrets.md),
 * in id order and batches, with a compare-and-set so a concurrent change (a removal) wins.
 */
export async function resealReviewBotKeys(
  ctx: ServiceContext<SystemActor>,
  input: { ring: KeyRing; batchSize?: number; onlyMeshIds?: string[] },
): Promise<number> {
  let done = 0;
  let cursor: string | undefined;
  for (;;) {
    const batch = await ctx.db.reviewBot.findMany({
      where: {
        ...(cursor ? { id: { gt: cursor } } : {}),
        ...(input.onlyMeshIds ? { meshId: { in: input.onlyMeshIds } } : {}),
      },
      orderBy: { id: "asc" },
      take: input.batchSize ?? 500,
      select: { id: true, signSecretKeyEnc: true, boxSecretKeyEnc: true },
    });
    if (batch.length === 0) return done;
    for (const bot of batch) {
      if (!needsReseal(input.ring, bot.signSecretKeyEnc) && !needsReseal(input.ring, bot.boxSecretKeyEnc)) continue;
      const updated = await ctx.db.reviewBot.updateMany({
        where: { id: bot.id, signSecretKeyEnc: bot.signSecretKeyEnc, boxSecretKeyEnc: bot.boxSecretKeyEnc },
        data: {
          signSecretKeyEnc: reseal(input.ring, bot.signSecretKeyEnc, signKeyAad(bot.id)),
          boxSecretKeyEnc: reseal(input.ring, bot.boxSecretKeyEnc, boxKeyAad(bot.id)),
        },
      });
      done += updated.count;
    }
    cursor = batch.at(-1)?.id;
  }
}
