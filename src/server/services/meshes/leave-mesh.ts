import { AppError } from "@/server/core/errors";
import type { UserActor } from "../actor";
import { recordAudit } from "../audit/record-audit";
import { notifyBrokers } from "../broker/mesh-events";
import { endMembership, raiseKeyEpoch } from "./members";
import { nowOf, type MeshDeps } from "./deps";
import { ZMeshIdInput, type TMeshIdInput } from "./schemas";

/**
 * Leaves a mesh: every live member of the actor in it (the one joined in the browser and each linked
 * command-line device) gets revokedAt; their connections close on every node, their queues are dropped
 * and the key epoch rises once. The owner cannot leave (archive instead).
 */
export async function leaveMesh(deps: Pick<MeshDeps, "db" | "now">, actor: UserActor, raw: TMeshIdInput) {
  const { meshId } = ZMeshIdInput.parse(raw);
  const now = nowOf(deps);
  return deps.db.$transaction(async (tx) => {
    const members = await tx.member.findMany({
      where: { meshId, userId: actor.userId, revokedAt: null },
      orderBy: { joinedAt: "asc" },
      select: { id: true, displayName: true, peerPubkey: true, mesh: { select: { ownerUserId: true } } },
    });
    if (members.length === 0) throw new AppError("NOT_FOUND", "mesh_not_found");
    if (members[0]!.mesh.ownerUserId === actor.userId) throw new AppError("CONFLICT", "owner_cannot_leave");
    for (const m of members) {
      await endMembership(tx, m.id, now);
      await recordAudit(tx, { meshId, type: "member_left", actorUserId: actor.userId, actorMemberId: m.id, metadata: { displayName: m.displayName, device: m.peerPubkey !== null } });
    }
    const epoch = await raiseKeyEpoch(tx, meshId);
    await notifyBrokers(tx, ...members.map((m) => ({ t: "ended" as const, meshId, memberId: m.id, reason: "left" as const })), { t: "epoch", meshId, epoch });
    return { meshId, revokedAt: now, members: members.length };
  });
}
