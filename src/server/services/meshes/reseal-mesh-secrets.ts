import { needsReseal, reseal, type KeyRing } from "@/server/core/crypto/seal";
import type { SystemActor } from "../actor";
import type { ServiceContext } from "../context";

/**
 * Re-seals every mesh's owner secret key and root key under the ring's first key (rotation step 3,
 * docs/secrets.md), in id order and batches, with a compare-and-set so a concurrent change wins.
 */
export async function resealMeshSecrets(
  ctx: ServiceContext<SystemActor>,
  input: { ring: KeyRing; batchSize?: number; onlyMeshIds?: string[] },
): Promise<number> {
  let done = 0;
  let cursor: string | undefined;
  for (;;) {
    const batch = await ctx.db.mesh.findMany({
      where: {
        ...(cursor ? { id: { gt: cursor } } : {}),
        ...(input.onlyMeshIds ? { AND: [{ id: { in: input.onlyMeshIds } }] } : {}),
      },
      orderBy: { id: "asc" },
      take: input.batchSize ?? 500,
      select: { id: true, ownerSecretKeyEnc: true, rootKeyEnc: true },
    });
    if (batch.length === 0) return done;
    for (const mesh of batch) {
      if (!needsReseal(input.ring, mesh.ownerSecretKeyEnc) && !needsReseal(input.ring, mesh.rootKeyEnc)) continue;
      const updated = await ctx.db.mesh.updateMany({
        where: { id: mesh.id, ownerSecretKeyEnc: mesh.ownerSecretKeyEnc, rootKeyEnc: mesh.rootKeyEnc },
        data: {
          ownerSecretKeyEnc: reseal(input.ring, mesh.ownerSecretKeyEnc, `mesh:${mesh.id}:owner-secret-key`),
          rootKeyEnc: reseal(input.ring, mesh.rootKeyEnc, `mesh:${mesh.id}:root-key`),
        },
      });
      done += updated.count;
    }
    cursor = batch.at(-1)?.id;
  }
}
