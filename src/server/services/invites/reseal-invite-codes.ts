import { needsReseal, reseal, type KeyRing } from "@/server/core/crypto/seal";
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
  let done = 0;
  let cursor: string | undefined;
  for (;;) {
    const batch = await ctx.db.invite.findMany({
      where: {
        shortCodeEnc: { not: null },
        ...(cursor ? { id: { gt: cursor } } : {}),
        ...(input.onlyMeshIds ? { meshId: { in: input.onlyMeshIds } } : {}),
      },
      orderBy: { id: "asc" },
      take: input.batchSize ?? 500,
      select: { id: true, shortCodeEnc: true },
    });
    if (batch.length === 0) return done;
    for (const invite of batch) {
      if (!invite.shortCodeEnc || !needsReseal(input.ring, invite.shortCodeEnc)) continue;
      const updated = await ctx.db.invite.updateMany({
        where: { id: invite.id, shortCodeEnc: invite.shortCodeEnc },
        data: { shortCodeEnc: reseal(input.ring, invite.shortCodeEnc, inviteCodeAad(invite.id)) },
      });
      done += updated.count;
    }
    cursor = batch.at(-1)?.id;
  }
}
