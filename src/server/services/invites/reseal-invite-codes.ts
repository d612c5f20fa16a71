import { needsReseal, reseal, type KeyRing } from "@/server/core/crypto/seal";
import type { Db } from "@/server/core/db";
import { inviteCodeAad } from "./invite-code";

/**
 * Re-seals the short codes of invites (`invites.short_code_enc`) under the ring's first key (rotation
 * step 3, docs/secrets.md), in id order and batches, with a compare-and-set so a concurrent change wins.
 */
export async function resealInviteCodes(
  db: Db,
  ring: KeyRing,
  opts: { batchSize?: number; onlyMeshIds?: string[] } = {},
): Promise<number> {
  let done = 0;
  let cursor: string | undefined;
  for (;;) {
    const batch = await db.invite.findMany({
      where: {
        shortCodeEnc: { not: null },
        ...(cursor ? { id: { gt: cursor } } : {}),
        ...(opts.onlyMeshIds ? { meshId: { in: opts.onlyMeshIds } } : {}),
      },
      orderBy: { id: "asc" },
      take: opts.batchSize ?? 500,
      select: { id: true, shortCodeEnc: true },
    });
    if (batch.length === 0) return done;
    for (const invite of batch) {
      if (!invite.shortCodeEnc || !needsReseal(ring, invite.shortCodeEnc)) continue;
      const updated = await db.invite.updateMany({
        where: { id: invite.id, shortCodeEnc: invite.shortCodeEnc },
        data: { shortCodeEnc: reseal(ring, invite.shortCodeEnc, inviteCodeAad(invite.id)) },
      });
      done += updated.count;
    }
    cursor = batch.at(-1)?.id;
  }
}
