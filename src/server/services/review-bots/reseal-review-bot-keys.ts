import type { KeyRing } from "@/server/core/crypto/seal";
import { resealRows } from "@/server/core/crypto/reseal-rows";
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
  return resealRows(
    input.ring,
    input.batchSize ?? 500,
    async (after, take) =>
      (
        await ctx.db.reviewBot.findMany({
          where: {
            ...(after ? { id: { gt: after } } : {}),
            ...(input.onlyMeshIds ? { meshId: { in: input.onlyMeshIds } } : {}),
          },
          orderBy: { id: "asc" },
          take,
          select: { id: true, signSecretKeyEnc: true, boxSecretKeyEnc: true },
        })
      ).map((b) => ({
        id: b.id,
        sealed: {
          signSecretKeyEnc: { value: b.signSecretKeyEnc, aad: signKeyAad(b.id) },
          boxSecretKeyEnc: { value: b.boxSecretKeyEnc, aad: boxKeyAad(b.id) },
        },
      })),
    async (id, before, data) => (await ctx.db.reviewBot.updateMany({ where: { id, ...before }, data })).count,
  );
}
