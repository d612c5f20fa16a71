import type { KeyRing } from "@/server/core/crypto/seal";
import { resealRows } from "@/server/core/crypto/reseal-rows";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";
import { inviteCodeAad } from "./invite-code";

/**
 * Re-seals the short codes of invites (`invites.short_code_enc`) under the ring's first key (rotation
 * step 3, docs/secrets.md), in id order and batches, with a compare-and-set so a concurrent change wins.
 */
export async function resealInviteCodes(
  ctx: ServiceContext<SystemActor>,
  input: { ring: KeyRing; batchSize?: number; onlyMeshIds?: string[] },
): Promise<number> {
  return resealRows(
    input.ring,
    input.batchSize ?? 500,
    async (after, take) =>
      (
        await ctx.db.invite.findMany({
          where: {
            shortCodeEnc: { not: null },
            ...(after ? { id: { gt: after } } : {}),
            ...(input.onlyMeshIds ? { meshId: { in: input.onlyMeshIds } } : {}),
          },
          orderBy: { id: "asc" },
          take,
          select: { id: true, shortCodeEnc: true },
        })
      ).map((i) => ({
        id: i.id,
        sealed: { shortCodeEnc: { value: i.shortCodeEnc as string, aad: inviteCodeAad(i.id) } },
      })),
    async (id, before, data) => (await ctx.db.invite.updateMany({ where: { id, ...before }, data })).count,
  );
}
