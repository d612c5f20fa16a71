import type { KeyRing } from "@/server/core/crypto/seal";
import { resealRows } from "@/server/core/crypto/reseal-rows";
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
  return resealRows(
    input.ring,
    input.batchSize ?? 500,
    async (after, take) =>
      (
        await ctx.db.mesh.findMany({
          where: {
            ...(after ? { id: { gt: after } } : {}),
            ...(input.onlyMeshIds ? { AND: [{ id: { in: input.onlyMeshIds } }] } : {}),
          },
          orderBy: { id: "asc" },
          take,
          select: { id: true, ownerSecretKeyEnc: true, rootKeyEnc: true },
        })
      ).map((m) => ({
        id: m.id,
        sealed: {
          ownerSecretKeyEnc: { value: m.ownerSecretKeyEnc, aad: `mesh:${m.id}:owner-secret-key` },
          rootKeyEnc: { value: m.rootKeyEnc, aad: `mesh:${m.id}:root-key` },
        },
      })),
    async (id, before, data) => (await ctx.db.mesh.updateMany({ where: { id, ...before }, data })).count,
  );
}
