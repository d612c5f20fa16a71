import type { ServiceContext } from "../context";
import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { visibleTo } from "./access";
import { type TMeshIdInput } from "./schemas";

/** Archives a mesh; only its owner may. Every broker node closes the mesh's connections (4410). Archiving an archived mesh changes nothing. */
export async function archiveMesh(ctx: ServiceContext<UserActor>, input: TMeshIdInput) {
  const { meshId } = input;
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.mesh.updateMany({
      where: { id: meshId, ownerUserId: ctx.actor.userId, archivedAt: null },
      data: { archivedAt: now },
    });
    if (updated.count === 1) {
      await recordAudit(tx, { meshId, type: "mesh_archived", actorUserId: ctx.actor.userId });
      await notifyBrokers(tx, { t: "ended", meshId, reason: "mesh_archived" });
      return { meshId, archivedAt: now };
    }
    const mesh = await tx.mesh.findFirst({
      where: { id: meshId, ...visibleTo(ctx.actor.userId) },
      select: { ownerUserId: true, archivedAt: true },
    });
    if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
    if (mesh.ownerUserId !== ctx.actor.userId) throw new AppError("FORBIDDEN", "owner_only");
    return { meshId, archivedAt: mesh.archivedAt ?? now };
  });
}
