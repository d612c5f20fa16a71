import type { ServiceContext } from "../context";
import { toBase64Url } from "@/server/core/encoding";
import { AppError, isUniqueViolation } from "@/server/core/errors";
import { uuidv7 } from "@/server/core/ids";
import { generateOwnerKeyPair, generateRootKey } from "@/server/core/invites";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import type { TCreateMeshInput } from "./create-mesh.schema";

/**
 * Creates a mesh owned by the actor: a fresh ed25519 key pair for signing invites and a 32-byte root
 * key, both sealed at rest with the mesh id as associated data; the owner becomes its first member.
 */
export async function createMesh(
  ctx: ServiceContext<UserActor>,
  input: TCreateMeshInput,
): Promise<{ id: string; slug: string }> {
  const id = uuidv7();
  const keys = generateOwnerKeyPair();
  const rootKey = generateRootKey();
  try {
    return await ctx.db.$transaction(async (tx) => {
      const owner = await tx.user.findUniqueOrThrow({
        where: { id: ctx.actor.userId },
        select: { name: true, email: true },
      });
      const mesh = await tx.mesh.create({
        data: {
          id,
          slug: input.slug,
          name: input.name,
          ownerUserId: ctx.actor.userId,
          ownerPubkey: toBase64Url(keys.publicKey),
          ownerSecretKeyEnc: ctx.sealer.seal(keys.secretKey, `mesh:${id}:owner-secret-key`),
          rootKeyEnc: ctx.sealer.seal(rootKey, `mesh:${id}:root-key`),
          visibility: input.visibility,
          transport: input.transport,
          tier: input.tier,
        },
        select: { id: true, slug: true },
      });
      const member = await tx.member.create({
        data: {
          meshId: id,
          userId: ctx.actor.userId,
          role: "owner",
          displayName: owner.name ?? owner.email ?? "owner",
        },
        select: { id: true },
      });
      await recordAudit(tx, {
        meshId: id,
        type: "mesh_created",
        actorUserId: ctx.actor.userId,
        actorMemberId: member.id,
        metadata: { slug: mesh.slug },
      });
      return mesh;
    });
  } catch (error) {
    // The unique index decides a race between two creations of the same slug.
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "slug_taken", { field: "slug", slug: input.slug });
    throw error;
  } finally {
    keys.secretKey.fill(0);
    rootKey.fill(0);
  }
}
