import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { endMembership, raiseKeyEpoch } from "./members";
import { nowOf, type MeshDeps } from "./deps";
import { ZMeshIdInput, type TMeshIdInput } from "./schemas";

/** Leaves a mesh: the actor's membership gets revokedAt (its connections and queue end, the key epoch rises). The owner cannot leave (archive instead). */
export async function leaveMesh(deps: Pick<MeshDeps, "db" | "now">, actor: UserActor, raw: TMeshIdInput) {
  const { meshId } = ZMeshIdInput.parse(raw);
  const now = nowOf(deps);
  return deps.db.$transaction(async (tx) => {
    const member = await tx.member.findFirst({
      where: { meshId, userId: actor.userId, revokedAt: null },
      select: { id: true, role: true, mesh: { select: { ownerUserId: true } } },
    });
    if (!member) throw new AppError("NOT_FOUND", "mesh_not_found");
    if (member.mesh.ownerUserId === actor.userId) throw new AppError("CONFLICT", "owner_cannot_leave");
    await endMembership(tx, member.id, now);
    const epoch = await raiseKeyEpoch(tx, meshId);
    await recordAudit(tx, { meshId, type: "member_left", actorUserId: actor.userId, actorMemberId: member.id });
    await notifyBrokers(tx, { t: "ended", meshId, memberId: member.id, reason: "left" }, { t: "epoch", meshId, epoch });
    return { meshId, revokedAt: now };
  });
}
