import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { visibleTo } from "./access";
import { nowOf, type MeshDeps } from "./deps";
import { ZMeshIdInput, type TMeshIdInput } from "./schemas";

/** Archives a mesh; only its owner may. Every broker node closes the mesh's connections (4410). Archiving an archived mesh changes nothing. */
export async function archiveMesh(deps: Pick<MeshDeps, "db" | "now">, actor: UserActor, raw: TMeshIdInput) {
  const { meshId } = ZMeshIdInput.parse(raw);
  const now = nowOf(deps);
  return deps.db.$transaction(async (tx) => {
    const updated = await tx.mesh.updateMany({
      where: { id: meshId, ownerUserId: actor.userId, archivedAt: null },
      data: { archivedAt: now },
    });
    if (updated.count === 1) {
      await recordAudit(tx, { meshId, type: "mesh_archived", actorUserId: actor.userId });
      await notifyBrokers(tx, { t: "ended", meshId, reason: "mesh_archived" });
      return { meshId, archivedAt: now };
    }
    const mesh = await tx.mesh.findFirst({
      where: { id: meshId, ...visibleTo(actor.userId) },
      select: { ownerUserId: true, archivedAt: true },
    });
    if (!mesh) throw new AppError("NOT_FOUND", "mesh_not_found");
    if (mesh.ownerUserId !== actor.userId) throw new AppError("FORBIDDEN", "owner_only");
    return { meshId, archivedAt: mesh.archivedAt ?? now };
  });
}
