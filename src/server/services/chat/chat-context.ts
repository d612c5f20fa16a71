import { toBase64Url } from "@/server/core/encoding";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import type { ServiceContext } from "../context";
import { visibleTo } from "../meshes/access";
import type { TMeshIdInput } from "../meshes/schemas";
import { liveMembershipOf } from "./membership";

/**
 * What the chat page needs to take part in a mesh: the broker's address, the mesh's root key (the one every
 * invite of the mesh carries, so whole-mesh messages of epoch 0 open; the person joined with it), the
 * person's key-less member and their live browser devices (public halves only). Only for a person with a
 * live key-less member in the mesh (joined in the browser, or the owner): the same rule as registering.
 */
export async function chatContext(ctx: ServiceContext<UserActor>, input: TMeshIdInput) {
  const { actor } = ctx;
  const membership = await ctx.db.member.findFirst({
    where: liveMembershipOf(input.meshId, actor.userId),
    select: {
      id: true,
      role: true,
      displayName: true,
      mesh: { select: { id: true, name: true, slug: true, rootKeyEnc: true, keyEpoch: true } },
    },
  });
  if (!membership) {
    const visible = await ctx.db.mesh.count({
      where: { id: input.meshId, archivedAt: null, ...visibleTo(actor.userId) },
    });
    throw visible > 0
      ? new AppError("FORBIDDEN", "browser_membership_required")
      : new AppError("NOT_FOUND", "mesh_not_found");
  }
  const { mesh } = membership;
  const devices = await ctx.db.member.findMany({
    where: { meshId: mesh.id, userId: actor.userId, browserDevice: true, revokedAt: null },
    orderBy: { joinedAt: "asc" },
    select: { id: true, peerPubkey: true, boxPubkey: true, displayName: true, joinedAt: true },
  });
  const backups = await ctx.db.keyBackup.findMany({
    where: { meshId: mesh.id, userId: actor.userId, member: { revokedAt: null } },
    select: { memberId: true, updatedAt: true },
  });
  return {
    userId: actor.userId,
    meshId: mesh.id,
    meshName: mesh.name,
    meshSlug: mesh.slug,
    brokerUrl: ctx.settings.brokerUrl,
    rootKey: toBase64Url(ctx.sealer.open(mesh.rootKeyEnc, `mesh:${mesh.id}:root-key`)),
    keyEpoch: mesh.keyEpoch,
    membershipId: membership.id,
    role: membership.role,
    displayName: membership.displayName,
    devices: devices.map((d) => ({
      memberId: d.id,
      peerPubkey: d.peerPubkey ?? "",
      boxPubkey: d.boxPubkey ?? "",
      displayName: d.displayName,
      joinedAt: d.joinedAt,
      backedUpAt: backups.find((b) => b.memberId === d.id)?.updatedAt ?? null,
    })),
  };
}
